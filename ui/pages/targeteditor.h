#pragma once
// Edits one target: name, method + URL, headers, body (text or file), TLS
// (verify, CA file), tags and notes. Every change is checked at once: a wrong
// field gets a red border and says why (tooltip and the line below the form).
// Valid edits are saved to the session after a short pause; while any field
// is wrong nothing is saved and isValid() is false (Run stays disabled).

#include "models/formvalidation.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;
class QTableWidget;

namespace wb::ui {

class SessionDocument;
class TagEdit;

class TargetEditor : public QWidget
{
    Q_OBJECT
public:
    static constexpr int SAVE_DELAY_MS = 400;

    explicit TargetEditor(QWidget* parent = nullptr);
    void setDocument(SessionDocument* doc);
    /// Shows the target with that id (0: none; the editor is disabled).
    void setTargetId(int64_t id);
    int64_t targetId() const { return m_target.id; }

    bool isValid() const { return m_target.id != 0 && m_errors.isEmpty(); }
    const FieldErrors& errors() const { return m_errors; }
    /// Saves pending valid edits now (Run calls it first). False when invalid or the save failed.
    bool commit();
    /// The target as edited (meaningful when isValid()).
    Target currentTarget() const;

    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* urlEdit() const { return m_url; }
    QComboBox* methodCombo() const { return m_method; }
    QTableWidget* headersTable() const { return m_headers; }
    QLineEdit* bodyFileEdit() const { return m_bodyFile; }
    QComboBox* bodyModeCombo() const { return m_bodyMode; }
    QLineEdit* caFileEdit() const { return m_caFile; }
    TagEdit* tagEdit() const { return m_tags; }

signals:
    void validityChanged(bool valid);
    /// The target was written to the session.
    void saved(qint64 targetId);

private:
    void build();
    void load(const Target& target);
    TargetForm form() const;
    void edited();
    void check();
    void showProblems();
    void onTargetsChanged();
    void ensureEmptyHeaderRow();

    QPointer<SessionDocument> m_doc;
    Target m_target; ///< as stored
    Target m_edited; ///< as checked last (valid when m_errors is empty)
    FieldErrors m_errors;
    bool m_loading = false;
    bool m_dirty = false;
    bool m_binaryBody = false; ///< the stored body is not text: kept unless a file replaces it
    QString m_saveError;
    QTimer m_saveTimer;

    QLineEdit* m_name;
    QComboBox* m_method;
    QLineEdit* m_url;
    QTableWidget* m_headers;
    QComboBox* m_bodyMode;
    QStackedWidget* m_bodyStack;
    QPlainTextEdit* m_bodyText;
    QLineEdit* m_bodyFile;
    QCheckBox* m_verify;
    QLineEdit* m_caFile;
    TagEdit* m_tags;
    QLineEdit* m_notes;
    QLabel* m_status;
};

} // namespace wb::ui
