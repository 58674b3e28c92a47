#include "charts/comparecharts.h"

#include <array>

namespace wb::ui {

QColor colorForTarget(qint64 targetId)
{
    // Tableau 10 (Maureen Stone's 2016 revision): distinct in hue and lightness,
    // chosen to stay apart for the common colour-vision deficiencies, and dark
    // enough for 2 px lines on white. The order puts the most distinct first.
    static constexpr std::array<QRgb, 10> PALETTE = {
        0x4e79a7, // blue
        0xf28e2b, // orange
        0x59a14f, // green
        0xe15759, // red
        0xb07aa1, // purple
        0x76b7b2, // teal
        0xedc948, // yellow
        0xff9da7, // pink
        0x9c755f, // brown
        0xbab0ac, // grey
    };
    // Ids start at 1 in the store; id 1 gets the first colour. Negative ids still map.
    const qint64 n = static_cast<qint64>(PALETTE.size());
    const qint64 index = ((targetId - 1) % n + n) % n;
    return QColor::fromRgb(PALETTE[static_cast<size_t>(index)]);
}

} // namespace wb::ui
