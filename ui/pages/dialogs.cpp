#include "pages/dialogs.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>

namespace wb::ui {

namespace {
std::function<bool(const QString&)> s_confirm;
std::function<void(const QString&)> s_error;
std::function<QString(const QString&)> s_saveFile;
std::function<std::optional<TagChange>(const QStringList&)> s_tagChange;

QStringList tagList(const QString& text)
{
    QStringList out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (const QString t = part.trimmed(); !t.isEmpty() && !out.contains(t)) out << t;
    return out;
}
} // namespace

bool confirm(QWidget* parent, const QString& title, const QString& text, const QString& acceptText)
{
    if (s_confirm) return s_confirm(text);
    QMessageBox box(QMessageBox::Question, title, text, QMessageBox::Cancel, parent);
    QPushButton* accept = box.addButton(acceptText, QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == accept;
}

void showError(QWidget* parent, const QString& title, const QString& text)
{
    if (s_error) {
        s_error(text);
        return;
    }
    QMessageBox::critical(parent, title, text);
}

QString chooseSaveFile(QWidget* parent, const QString& title, const QString& suggestedName, const QString& filter)
{
    if (s_saveFile) return s_saveFile(suggestedName);
    return QFileDialog::getSaveFileName(parent, title, QDir::home().filePath(suggestedName), filter);
}

std::optional<TagChange> askTagChange(QWidget* parent, const QString& title, const QStringList& present)
{
    if (s_tagChange) return s_tagChange(present);
    QDialog dialog(parent);
    dialog.setWindowTitle(title);
    auto* add = new QLineEdit(&dialog);
    add->setPlaceholderText(QObject::tr("e.g. native, 4 nodes"));
    auto* remove = new QLineEdit(&dialog);
    remove->setPlaceholderText(QObject::tr("tags to take off"));
    auto* now = new QLabel(present.isEmpty() ? QObject::tr("(none)") : present.join(QStringLiteral(", ")), &dialog);
    now->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(QObject::tr("Tags now:"), now);
    form->addRow(QObject::tr("&Add:"), add);
    form->addRow(QObject::tr("&Remove:"), remove);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return TagChange { tagList(add->text()), tagList(remove->text()) };
}

void setConfirmHandler(std::function<bool(const QString&)> handler)
{
    s_confirm = std::move(handler);
}
void setErrorHandler(std::function<void(const QString&)> handler)
{
    s_error = std::move(handler);
}
void setSaveFileHandler(std::function<QString(const QString&)> handler)
{
    s_saveFile = std::move(handler);
}
void setTagChangeHandler(std::function<std::optional<TagChange>(const QStringList&)> handler)
{
    s_tagChange = std::move(handler);
}

} // namespace wb::ui
