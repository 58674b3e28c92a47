#pragma once
// The load profile: a field for every load setting the window shows
// (settings/runsettings.h: threads, connections, duration, timeouts, rate or
// stages by the mode, churn, SLOs, backends...), each read as the CLI and plans
// read it. Numbers and durations are typed as in wrk ("10k", "30s", "2m").
// A wrong field gets a red border and says why; Run stays disabled.
//
// A session profile saves its valid edits after a short pause; a preset is
// never changed: its edits are used by Run as they are, and "Save as…" keeps
// them as a new session profile.

#include "forms/formvalidation.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStringListModel;

namespace wb::ui {

class SessionDocument;

class ProfileEditor : public QWidget
{
    Q_OBJECT
public:
    static constexpr int SAVE_DELAY_MS = 400;

    explicit ProfileEditor(QWidget* parent = nullptr);
    void setDocument(SessionDocument* doc);

    /// Shows profile (a preset when its id is negative).
    void setProfile(const LoadProfile& profile);
    /// The profile with the edited load (meaningful when isValid()).
    LoadProfile currentProfile() const;
    bool isValid() const { return m_errors.isEmpty(); }
    const FieldErrors& errors() const { return m_errors; }
    /// True when the fields differ from the profile as stored / shipped.
    bool isModified() const;

    /// Saves pending edits of a session profile now. False when invalid or the save failed.
    bool commit();
    /// Stores the edited load as a new session profile; returns its id (0 on failure).
    int64_t saveAs(const QString& name);

    QLineEdit* field(const QString& name) const;
    /// The remote loaders known (File → Loaders…): the Loaders field completes "remote NAME"
    /// and its tooltip lists them.
    void setRemoteLoaderNames(const QStringList& names);

signals:
    void validityChanged(bool valid);
    /// The load that Run would use changed (any valid edit).
    void loadChanged();
    /// A new session profile was created by Save as…
    void profileCreated(qint64 id);
    void message(const QString& text);
    /// isModified() changed: the toolbar and the panel's title say "(modified)".
    void modifiedChanged(bool modified);

private:
    void build();
    ProfileForm form() const;
    void load(const LoadProfile& profile);
    void edited();
    void check();
    void updateModeFields();
    /// Stages decide the duration (and, as connection stages, the connections): the disabled
    /// fields show what is sent, not a number the run ignores.
    void showStagesDerivedFields();
    void updateTitle();
    void askSaveAs();
    void deleteCurrent();

    QPointer<SessionDocument> m_doc;
    LoadProfile m_profile; ///< as stored or shipped
    RunConfig m_edited; ///< the load as checked last
    FieldErrors m_errors;
    bool m_loading = false;
    bool m_dirty = false;
    bool m_wasModified = false;
    QTimer m_saveTimer;

    QLabel* m_title;
    QComboBox* m_mode;
    QMap<QString, QLineEdit*> m_fields; ///< by setting key
    QMap<QString, QCheckBox*> m_flags; ///< the yes/no settings ("slo_abort"), by key
    QGroupBox* m_more; ///< the protocol and timing details, folded unless one is set
    /// The line under the form: what is wrong (under the fields' labels), or the load in wrk's words.
    QLabel* m_status;
    QPushButton* m_saveAs;
    QPushButton* m_delete;
    QStringListModel* m_loaderCompletions;
};

} // namespace wb::ui
