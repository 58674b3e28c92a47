#include "charts/comparecharts.h"
#include "report/palette.h"

namespace wb::ui {

QColor colorForTarget(qint64 targetId)
{
    // The engine's palette: the HTML reports draw each target in the same colour.
    return QColor::fromRgb(targetColorRgb(targetId));
}

} // namespace wb::ui
