#pragma once
// Free-text tags as chips ("NEG ×", "NodePort ×") followed by a line edit:
// Enter, comma or leaving the field turns the typed text into a chip. The
// chips wrap onto further lines in a narrow dock; the line edit fills the
// rest of the last line and never gets narrower than MIN_INPUT_WIDTH.

#include <QStringList>
#include <QWidget>

class QLayout;
class QLineEdit;

namespace wb::ui {

class TagEdit : public QWidget
{
    Q_OBJECT
public:
    static constexpr int MIN_INPUT_WIDTH = 120;

    explicit TagEdit(QWidget* parent = nullptr);

    QStringList tags() const { return m_tags; }
    /// Replaces the chips (no tagsChanged()).
    void setTags(const QStringList& tags);
    /// The text typed but not yet a chip.
    QLineEdit* lineEdit() const { return m_edit; }
    /// The chips, in tag order.
    QList<QWidget*> chips() const { return m_chipWidgets; }

signals:
    void tagsChanged();

private:
    void commitTyped();
    void rebuild();

    QStringList m_tags;
    QList<QWidget*> m_chipWidgets;
    QLayout* m_flow;
    QLineEdit* m_edit;
};

} // namespace wb::ui
