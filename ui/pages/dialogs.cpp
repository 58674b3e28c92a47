#include "pages/dialogs.h"

#include <QComboBox>
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
std::function<std::optional<StudyChoice>(const QStringList&)> s_studyChoice;

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

std::optional<StudyChoice> askStudyChoice(QWidget* parent, const QString& title, const QStringList& present)
{
    if (s_studyChoice) return s_studyChoice(present);
    QDialog dialog(parent);
    dialog.setWindowTitle(title);
    auto* name = new QLineEdit(&dialog);
    name->setPlaceholderText(QObject::tr("e.g. Container performance (default: the variants)"));
    auto* variants = new QLineEdit(&dialog);
    variants->setPlaceholderText(QObject::tr("tags, e.g. native, docker, kubernetes (empty: the targets)"));
    auto* groups = new QLineEdit(&dialog);
    groups->setPlaceholderText(QObject::tr("tags, e.g. http-pkg, go-gin (empty: one group)"));
    auto* level = new QComboBox(&dialog);
    level->addItems(
        { QStringLiteral("connections"), QStringLiteral("threads"), QStringLiteral("rate"), QStringLiteral("none") });
    auto* baseline = new QLineEdit(&dialog);
    baseline->setPlaceholderText(QObject::tr("a variant (default: the first)"));
    auto* metric = new QComboBox(&dialog);
    metric->addItem(QObject::tr("total req/s"), QStringLiteral("total"));
    metric->addItem(
        QObject::tr("per-thread Req/Sec (wrk's Thread Stats, as hand-made loss tables)"), QStringLiteral("per-thread"));
    auto* now = new QLabel(present.isEmpty() ? QObject::tr("(none)") : present.join(QStringLiteral(", ")), &dialog);
    now->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(QObject::tr("Tags of the runs:"), now);
    form->addRow(QObject::tr("&Name:"), name);
    form->addRow(QObject::tr("&Variants:"), variants);
    form->addRow(QObject::tr("&Groups:"), groups);
    form->addRow(QObject::tr("&Level:"), level);
    form->addRow(QObject::tr("&Baseline:"), baseline);
    form->addRow(QObject::tr("&Metric:"), metric);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return StudyChoice { name->text().trimmed(), tagList(variants->text()), tagList(groups->text()),
        level->currentText(), baseline->text().trimmed(), metric->currentData().toString() };
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
void setStudyChoiceHandler(std::function<std::optional<StudyChoice>(const QStringList&)> handler)
{
    s_studyChoice = std::move(handler);
}

QMessageBox* askRunAnyway(
    QWidget* parent, const QString& targetName, const QString& error, std::function<void(bool runAnyway)> answered)
{
    auto* box = new QMessageBox(QMessageBox::Warning, QObject::tr("The target did not answer"),
        QObject::tr("The probe of “%1” failed: %2").arg(targetName, error), QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("probeFailedBox"));
    box->setInformativeText(QObject::tr("No load was sent. Run anyway? The run then starts with its own check "
                                        "(name resolution, a connection, the TLS handshake) and is stored whatever "
                                        "happens."));
    QPushButton* runAnyway = box->addButton(QObject::tr("Run anyway"), QMessageBox::AcceptRole);
    QPushButton* cancel = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::finished, box,
        [box, runAnyway, answered = std::move(answered)] { answered(box->clickedButton() == runAnyway); });
    box->open();
    return box;
}

} // namespace wb::ui
