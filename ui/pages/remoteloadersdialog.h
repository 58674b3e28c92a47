#pragma once
// File → Loaders…: the remote loaders (agents on loader VMs, docs/AGENT.md) a load profile names in its Loaders field.
// Add, edit, remove, and Test connection: GET /v1/health with the token, the certificate held to the pinned fingerprint
// (AgentCall). With no pin yet the fingerprint presented is shown and the user asked to pin it (trust on first use, as
// ssh asks about a host key); a different one is a loud error naming both, and nothing is pinned or sent. OK saves the
// list (RemoteLoaderRegistry::save: settings and the 0600 token file).

#include "remote/agentcall.h"
#include "remote/remoteloaders.h"

#include <QDialog>
#include <QPointer>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace wb::ui {

class RemoteLoadersDialog : public QDialog
{
    Q_OBJECT
public:
    explicit RemoteLoadersDialog(RemoteLoaderRegistry registry, QWidget* parent = nullptr);

    /// The list as edited.
    const RemoteLoaderRegistry& registry() const { return m_registry; }
    /// Saves the list and closes (OK); a list with a problem or a failed save keeps the dialog open.
    void accept() override;

    /// Selects entry row and shows it in the form.
    void select(int row);
    /// Adds an empty entry and selects it.
    void addLoader();
    void removeCurrent();
    /// Tests the selected entry (async: testFinished follows).
    void testConnection();
    bool isTesting() const { return m_call != nullptr; }
    /// What the last test found, as plain text.
    QString resultText() const;

    QLineEdit* nameEdit() const { return m_name; }

signals:
    /// A test ended (after the pin question, when one was asked).
    void testFinished(const wb::ui::AgentAnswer& answer);

private:
    void build();
    void showCurrent();
    void edited();
    void updateState();
    void showAnswer(const AgentAnswer& answer);
    void setResult(const QString& html, bool error);
    QList<AgentEndpoint> othersThan(int row) const;

    RemoteLoaderRegistry m_registry;
    QList<AgentEndpoint> m_list; ///< as edited
    int m_row = -1;
    bool m_loading = false;
    QPointer<AgentCall> m_call;

    QListWidget* m_names = nullptr;
    QLineEdit* m_name = nullptr;
    QLineEdit* m_address = nullptr;
    QLineEdit* m_fingerprint = nullptr;
    QLineEdit* m_token = nullptr;
    QLabel* m_problem = nullptr;
    QLabel* m_result = nullptr;
    QPushButton* m_add = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_test = nullptr;
};

} // namespace wb::ui
