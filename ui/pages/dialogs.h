#pragma once
// The few modal questions the UI asks, behind one seam so that widget tests
// can answer them (a QMessageBox would block a test).

#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

class QMessageBox;
class QWidget;

namespace wb::ui {

/// Asks a yes/no question; acceptText labels the button that answers yes.
bool confirm(QWidget* parent, const QString& title, const QString& text, const QString& acceptText);
/// Shows an error that needs acknowledging (a session that cannot be opened).
void showError(QWidget* parent, const QString& title, const QString& text);
/// "The target did not answer: run anyway?" after a failed pre-run probe, without a nested event
/// loop (window-modal, opened, not exec'd: drains and redraws go on); `answered(true)` when the
/// user chose to run anyway. The box deletes itself when closed; it is returned for tests.
QMessageBox* askRunAnyway(
    QWidget* parent, const QString& targetName, const QString& error, std::function<void(bool runAnyway)> answered);
/// A file to write, or "" when cancelled.
QString chooseSaveFile(QWidget* parent, const QString& title, const QString& suggestedName, const QString& filter);

/// Tags to add to and remove from several runs at once.
struct TagChange
{
    QStringList add;
    QStringList remove;
};
/// Asks which tags to add and remove (comma-separated lists), showing the tags the
/// runs carry now; nullopt when cancelled.
std::optional<TagChange> askTagChange(QWidget* parent, const QString& title, const QStringList& present);

/// How "Study from selected runs…" puts the runs into cells (wrkbench-cli study's options).
struct StudyChoice
{
    QString name; ///< "" = made from the variants
    QStringList variantTags; ///< empty: variants are the runs' targets
    QStringList groupTags; ///< empty: one group
    QString level = QStringLiteral("connections"); ///< connections, threads, rate or none
    QString baseline; ///< "" = the first variant
    QString metric = QStringLiteral("total"); ///< total or per-thread
};
/// Asks for a study's groups, variants, level, baseline and metric, showing the tags the
/// runs carry; nullopt when cancelled.
std::optional<StudyChoice> askStudyChoice(QWidget* parent, const QString& title, const QStringList& present);

/// Tests: answer every confirm() with handler's result, collect showError() texts,
/// choose files without a dialog. Pass null to restore the dialogs.
void setConfirmHandler(std::function<bool(const QString& text)> handler);
void setErrorHandler(std::function<void(const QString& text)> handler);
void setSaveFileHandler(std::function<QString(const QString& suggestedName)> handler);
void setTagChangeHandler(std::function<std::optional<TagChange>(const QStringList& present)> handler);
void setStudyChoiceHandler(std::function<std::optional<StudyChoice>(const QStringList& present)> handler);

} // namespace wb::ui
