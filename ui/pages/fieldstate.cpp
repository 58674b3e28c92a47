#include "pages/fieldstate.h"

#include "text/format.h"

#include <QVariant>
#include <QWidget>

namespace wb::ui {

namespace {
constexpr const char* PROBLEM = "wbProblem";
constexpr const char* NORMAL_TIP = "wbNormalToolTip";
} // namespace

void setFieldProblem(QWidget* field, const QString& problem)
{
    if (!field) return;
    if (fieldProblem(field) == problem) return;
    if (!field->property(NORMAL_TIP).isValid()) field->setProperty(NORMAL_TIP, field->toolTip());
    field->setProperty(PROBLEM, problem);
    if (problem.isEmpty()) {
        field->setStyleSheet(QString());
        field->setToolTip(field->property(NORMAL_TIP).toString());
    } else {
        // Scoped to the widget's own class so that children (a table's cells) keep their style.
        field->setStyleSheet(QStringLiteral("%1 { border: 1px solid %2; border-radius: 2px; }")
                                 .arg(QString::fromLatin1(field->metaObject()->className())
                                          .replace(QStringLiteral("::"), QStringLiteral("--")),
                                     errorColor().name()));
        field->setToolTip(problem);
    }
}

void setFieldToolTip(QWidget* field, const QString& tip)
{
    if (!field) return;
    field->setProperty(NORMAL_TIP, tip);
    if (fieldProblem(field).isEmpty()) field->setToolTip(tip);
}

QString fieldProblem(const QWidget* field)
{
    return field ? field->property(PROBLEM).toString() : QString();
}

} // namespace wb::ui
