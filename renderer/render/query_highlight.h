#pragma once
// mapserv's query map (msDrawQueryMap): the features a query selected in each
// layer, drawn as the QUERYMAP block's STYLE says -- NORMAL: the map as
// usual; HILITE: as usual, then the selected features again in the QUERYMAP
// COLOR; SELECTED: only the selected features, in their own styles.

#include "core/color.h"

#include <QHash>
#include <QSet>

namespace maptune {

struct QueryHighlight {
    enum class Style { Normal, Hilite, Selected };
    Style style = Style::Hilite;
    Color color = Color::rgb(255, 255, 0);
    QHash<int, QSet<qint64>> selected;  // layer index -> feature ids
};

}  // namespace maptune
