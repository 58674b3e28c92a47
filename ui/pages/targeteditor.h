#pragma once
// Edits one target: name, method and URL, headers, body, TLS, tags and notes. Every change is checked at once (a wrong
// field gets a red border and says why); valid edits are saved after SAVE_DELAY_MS, and while any field is wrong
// nothing is saved and isValid() is false (Run stays disabled). The body is stored as bytes: a binary body the text box
// cannot show is kept until something is typed; in File mode the file is read when the edit is saved, and with no file
// chosen the stored body stays.

#include "forms/formvalidation.h"

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
class QToolButton;

namespace wb::ui {

class MetricsField;

class SessionDocument;
class ScriptField;
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
    MetricsField* metricsField() const { return m_metrics; }

signals:
    void validityChanged(bool valid);
    /// The target was written to the session.
    void saved(qint64 targetId);

private:
    /// Where the body being edited comes from.
    enum class BodyChoice {
        Text, ///< the text box
        File, ///< the file named in the file field, read when saved
        Stored, ///< the stored body, untouched (a binary body, or File mode with no file chosen)
    };

    void build();
    void load(const Target& target);
    BodyChoice bodyChoice() const;
    TargetForm form() const;
    void clearBody();
    /// The text box's placeholders for the stored body; inTextBox: its text too.
    void showStoredBody(bool inTextBox);
    void rememberBodySource();
    QString recalledBodySource(const Target& target) const;
    void edited();
    void check();
    void showProblems();
    void onTargetsChanged();
    void ensureEmptyHeaderRow();
    void splitHeaderRow(int row);

public:
    /// Ctrl+V on a selected (not edited) cell of the headers: `text` from its first line on, one
    /// line a row from the current one, as typed ("Name: value" in the Header cell, "Name<TAB>value"
    /// from a spreadsheet across both); a single plain line goes into the cell itself.
    void pasteHeaders(const QString& text);

private:
    QPointer<SessionDocument> m_doc;
    Target m_target; ///< as stored
    Target m_edited; ///< as checked last (valid when m_errors is empty)
    FieldErrors m_errors;
    bool m_loading = false;
    bool m_dirty = false;
    bool m_binaryBody = false; ///< the stored body is not text: the text box cannot show it
    /// Text bodies larger than this are not put in the text box either: QPlainTextEdit takes
    /// seconds over tens of megabytes, on the UI thread.
    static constexpr size_t MAX_BOX_BODY_BYTES = 256 * 1024;
    /// A text box turns CR LF into LF: a stored body with CRs is kept out of it (shown as a file body), so
    /// that what the box shows is what is sent.
    bool m_crBody = false;
    bool bodyHiddenFromBox() const { return m_binaryBody || m_crBody || m_target.body.size() > MAX_BOX_BODY_BYTES; }
    /// The text box's text as it is sent: no-break spaces kept (toPlainText() would turn them into spaces).
    QString bodyBoxText() const;
    /// After a field is left: it shows the value as stored and sent (trimmed, a mix's absolute path).
    void showAsStored();
    bool m_bodyTyped = false; ///< the text box was edited since load: its text is the body
    QString m_bodySource; ///< the file the stored body was read from ("" typed or unknown)
    QString m_editedSource; ///< the same for m_edited's body
    bool m_editedText = true; ///< m_edited's body is text (decoded once per check, not per repaint)
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
    /// Says what the body is ("Stored body: 12 bytes of binary data from FILE"); the tooltip
    /// holds the same text (the label's own may carry line-break hints inside paths).
    QLabel* m_bodyInfo;
    /// Removes the body.
    QToolButton* m_bodyClear;
    QCheckBox* m_verify;
    QLineEdit* m_caFile;
    QComboBox* m_protocol; ///< HTTP/1.1 or HTTP/2
    QLineEdit* m_requestMix; ///< a request mix file, or empty
    QComboBox* m_mixOrder; ///< round-robin, random, weighted
    ScriptField* m_script; ///< a wrk Lua script and its arguments (pages/scriptfield.h)
    TagEdit* m_tags;
    MetricsField* m_metrics; ///< the target's own metrics its runs scrape (pages/metricsfield.h)
    QLineEdit* m_notes;
    /// The line under the form: what is wrong, or whether the edits are saved.
    QLabel* m_status;
};

} // namespace wb::ui
