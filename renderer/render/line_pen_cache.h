#pragma once
// StyleResolver::linePen for the styles one thread draws again and again:
// a QPen allocates its private data (and its brush's), which for a road
// map's thousands of strokes per request was a measurable share of the
// mallocs. Entries are keyed by everything linePen reads, never by address.

#include "mapfile/style_def.h"

#include <QColor>
#include <QPen>

#include <array>

namespace maptune {

class LinePenCache {
public:
    // StyleResolver::linePen(color, width, s, scale, vector), built once.
    const QPen& pen(const QColor& color, double width, const StyleDef& s, double scale, bool vector = false);

private:
    struct Entry {
        QRgb rgba = 0;
        double width = -1, scale = 0, initialGap = 0, joinMaxSize = 0;
        LineCap cap = LineCap::Round;
        LineJoin join = LineJoin::Round;
        QList<double> pattern;
        QPen pen;
        bool vector = false;
        bool used = false;
    };
    std::array<Entry, 8> m_entries;
    int m_next = 0;  // the entry replaced on a miss (round robin)
};

}  // namespace maptune
