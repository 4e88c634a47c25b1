#pragma once
// Labels are collected while layers draw and placed at the end, in priority
// order, skipping any that would collide with one already placed (unless
// FORCE), as MapServer's label cache does. Labels of line features with
// ANGLE FOLLOW / AUTO / AUTO2 are laid along their line here, where the
// font's metrics are known (LineLabelPath).

#include "mapfile/map_def.h"

#include <QImage>
#include <QList>
#include <QPointF>
#include <QPolygonF>
#include <QString>

namespace maptune {

struct LabelCandidate {
    QString text;
    QPointF anchor;        // pixel position of the feature's label point
    double angle = 0;      // degrees, counter-clockwise
    LabelDef style;        // resolved: size, colours bound to values already
    double size = 10;      // pixels
    QString fontPath;      // TrueType file from the FONTSET, empty = default font
    // ANGLE FOLLOW/AUTO/AUTO2 on a line: the feature's pixel polylines, which
    // replace anchor and angle. Empty for every other label.
    QList<QPolygonF> line;
    double resolutionFactor = 1;  // RESOLUTION / DEFRESOLUTION: scales REPEATDISTANCE, MINFEATURESIZE
};

class LabelCache {
public:
    void add(LabelCandidate c) { m_candidates.append(std::move(c)); }
    bool isEmpty() const { return m_candidates.isEmpty(); }
    // Places and draws every label that fits; returns the number drawn.
    int draw(QImage& canvas, const MapDef& map);

private:
    QList<LabelCandidate> m_candidates;
};

}  // namespace maptune
