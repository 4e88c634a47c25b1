#pragma once
// CLASS LEADER (MapServer RFC 81): a label that does not fit at its label
// point is tried at offsets on a square grid around it, and where it fits a
// line is drawn from the label point to the label's new anchor
// (msDrawOffsettedLabels).

#include "mapfile/map_def.h"

#include <QLineF>
#include <QList>
#include <QPoint>

#include <optional>

class QImage;

namespace maptune {

struct LabelLeader {
    int maxDistance = 0;  // pixels, not scaled by RESOLUTION
    int gridStep = 5;
    QList<StyleDef> styles;  // each draws the line once, in order

    // The LEADER block of a class, if it has one; a block that does not
    // read gives no leader rather than a wrong one.
    static std::optional<LabelLeader> fromClass(const ClassDef& c);

    // The offsets to try, in MapServer's order: ring after ring of GRIDSTEP
    // (MAXDISTANCE / GRIDSTEP rings, the division cut to a whole number),
    // each ring's sides before its corners and its centres.
    QList<QPoint> offsets() const;

    // Draws the line with each STYLE, widths scaled by `scaleFactor`.
    void draw(QImage& canvas, const QLineF& line, double scaleFactor) const;
};

}  // namespace maptune
