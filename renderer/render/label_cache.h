#pragma once
// Labels are collected while layers draw and placed at the end, as
// MapServer's label cache places them (msDrawLabelCache): priority 10 first,
// within a priority the last one added first; a feature's labels of one
// class are a group that is placed whole or not at all; a label is refused
// where it would leave the image (PARTIALS FALSE), overlap a placed label
// (unless FORCE) or come within MINDISTANCE of one with the same text.
// POSITION AUTO tries MapServer's positions in its order. Labels of line
// features with ANGLE FOLLOW / AUTO / AUTO2 are laid along their line here
// (LineLabelPath). A group that does not fit and whose class has a LEADER is
// tried again around its point once its priority is placed (LabelLeader).
// Text is laid out and drawn from FreeType outlines (TextPath, TextPainter)
// so that it lands on MapServer's pixels.

#include "mapfile/map_def.h"
#include "render/label_leader.h"
#include "render/symbol_painter.h"
#include "text/font_list.h"
#include "trace/trace.h"

#include <QImage>
#include <QList>
#include <QPointF>
#include <QPolygonF>
#include <QSizeF>
#include <QString>

#include <memory>
#include <optional>

namespace maptune {

struct LabelCandidate {
    QString text;
    QPointF anchor;        // pixel position of the feature's label point
    double angle = 0;      // degrees, counter-clockwise
    LabelDef style;        // resolved: colours bound to values already
    int glyphSize = 10;    // MapServer's rounded size: SIZE x scale factor, clamped to MINSIZE..MAXSIZE
    FontList fonts;        // the FONT list resolved in the FONTSET; empty = MapServer's built-in font
    LayerType layerType = LayerType::Point;
    int group = 0;         // the labels of one feature and class share a group
    int layer = -1;        // index of the layer's trace: placement counts go there
    // ANGLE FOLLOW/AUTO/AUTO2 on a line: the feature's pixel polylines, which
    // replace anchor and angle. Empty for every other label.
    QList<QPolygonF> line;
    // Where `line` is clipped before placing (msDrawShape's clip rectangle,
    // in pixels); null: not clipped (PROCESSING LABEL_NO_CLIP). A candidate
    // built without it clips to the image grown by 2 pixels.
    std::optional<QRectF> lineClip;
    double scaleFactor = 1;       // pixels per SIZE unit: OFFSET and BUFFER scale by it
    QSizeF marker;                // the marker at the label point: labels off its centre keep clear of it
    // The point's own marker is on the map (point layers): other labels of
    // this priority and lower keep off it (MapServer's marker cache).
    bool markerOnMap = false;
    // Label STYLEs drawn at the label point with the label (GEOMTRANSFORM
    // labelpnt, a label style's default); they also take room from others.
    QList<MarkerStyle> labelMarkers;
    double resolutionFactor = 1;  // RESOLUTION / DEFRESOLUTION: scales REPEATDISTANCE, MINFEATURESIZE, MINDISTANCE
    std::shared_ptr<const LabelLeader> leader;  // the class's LEADER; null: none
};

class LabelCache {
public:
    void add(LabelCandidate c)
    {
        if (c.layer < 0) c.layer = m_currentLayer;
        m_candidates.append(std::move(c));
    }
    // The trace index labels added from now on count towards.
    void setCurrentLayer(int traceIndex) { m_currentLayer = traceIndex; }
    bool isEmpty() const { return m_candidates.isEmpty(); }
    int nextGroup() { return ++m_groups; }
    // An area labels must avoid (an embedded legend or scale bar: MapServer
    // places those first, as forced labels of priority 10).
    void addObstacle(const QRectF& area) { m_obstacles << area; }
    // Places and draws every label that fits; returns the number drawn.
    // With `layers`, each layer's trace gets its placements tried and placed.
    int draw(QImage& canvas, const MapDef& map, QList<LayerTrace>* layers = nullptr);
    // A label drawn at once, with no collision test (LABELCACHE OFF).
    static void drawDirect(QImage& canvas, const LabelCandidate& c);

private:
    QList<LabelCandidate> m_candidates;
    QList<QRectF> m_obstacles;
    int m_groups = 0;
    int m_currentLayer = -1;
};

// MapServer's glyph size for a label SIZE (a bitmap size word counts as its number).
int labelGlyphSize(const LabelDef& label, double size, double scaleFactor, double resolutionFactor);

}  // namespace maptune
