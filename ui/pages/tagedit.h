#pragma once
// Free-text tags as chips ("NEG ×", "NodePort ×") followed by a line edit:
// Enter, comma or leaving the field turns the typed text into a chip.

#include <QStringList>
#include <QWidget>

class QHBoxLayout;
class QLineEdit;

namespace wb::ui {

class TagEdit : public QWidget
{
    Q_OBJECT
public:
    explicit TagEdit(QWidget* parent = nullptr);

    QStringList tags() const { return m_tags; }
    /// Replaces the chips (no tagsChanged()).
    void setTags(const QStringList& tags);
    /// The text typed but not yet a chip.
    QLineEdit* lineEdit() const { return m_edit; }

signals:
    void tagsChanged();

private:
    void commitTyped();
    void rebuild();

    QStringList m_tags;
    QHBoxLayout* m_chips;
    QLineEdit* m_edit;
};

} // namespace wb::ui
