#pragma once
// The few modal questions the UI asks, behind one seam so that widget tests
// can answer them (a QMessageBox would block a test).

#include <QString>
#include <functional>

class QWidget;

namespace wb::ui {

/// Asks a yes/no question; acceptText labels the button that answers yes.
bool confirm(QWidget* parent, const QString& title, const QString& text, const QString& acceptText);
/// Shows an error that needs acknowledging (a session that cannot be opened).
void showError(QWidget* parent, const QString& title, const QString& text);
/// A file to write, or "" when cancelled.
QString chooseSaveFile(QWidget* parent, const QString& title, const QString& suggestedName, const QString& filter);

/// Tests: answer every confirm() with handler's result, collect showError() texts,
/// choose files without a dialog. Pass null to restore the dialogs.
void setConfirmHandler(std::function<bool(const QString& text)> handler);
void setErrorHandler(std::function<void(const QString& text)> handler);
void setSaveFileHandler(std::function<QString(const QString& suggestedName)> handler);

} // namespace wb::ui
