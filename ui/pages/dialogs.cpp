#include "pages/dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>

namespace wb::ui {

namespace {
std::function<bool(const QString&)> s_confirm;
std::function<void(const QString&)> s_error;
std::function<QString(const QString&)> s_saveFile;
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

} // namespace wb::ui
