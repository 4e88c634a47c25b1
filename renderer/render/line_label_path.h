#pragma once
// Where labels go on a line feature for LABEL ANGLE FOLLOW / AUTO / AUTO2:
// pure geometry on pixel polylines, given the advance of every character.
// MapServer's rules (msPolylineLabelPoint, msPolylineLabelPath):
//  - one label on the longest part, or (REPEATDISTANCE) labels spread along
//    every part; MINFEATURESIZE (AUTO: the text's length) skips short parts;
//  - AUTO: a straight label at the middle of the longest segment, turned to
//    that segment and to read left to right (AUTO2: the line's direction);
//  - FOLLOW: character by character along the line, centred on it, walked in
//    whichever direction reads left to right; refused where two neighbouring
//    characters turn by more than MAXOVERLAPANGLE (then shifted so that the
//    bend falls in a space, or at the text's start or end), or when the text is over 1.5 times the line's length
//    (unless FORCE). Two-point lines and single characters get AUTO's label.

#include <QList>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>

namespace maptune {

// One character placed along a line.
struct PathGlyph {
    QPointF origin;    // left end of the character's baseline, pixels
    double angle = 0;  // degrees, counter-clockwise on screen
};

// A straight label turned to the line.
struct PathPoint {
    QPointF point;     // the label's centre
    double angle = 0;  // degrees, counter-clockwise on screen
};

struct LineLabelLayout {
    QList<QList<PathGlyph>> follow;  // FOLLOW: one list of characters per label
    QList<PathPoint> points;         // AUTO, AUTO2, and FOLLOW's straight fallback
    bool isEmpty() const { return follow.isEmpty() && points.isEmpty(); }
};

class LineLabelPath {
public:
    enum class Mode { Auto, Auto2, Follow };

    struct Params {
        Mode mode = Mode::Follow;
        QList<double> advances;          // per character, pixels
        QList<bool> spaces;              // per character: blank (its turn is not checked)
        double glyphHeight = 10;         // characters sit this much across the line, centred on it
        double maxOverlapAngle = 22.5;   // degrees; <= 0 means MapServer's old 72
        double minFeatureSize = -1;      // pixels: a part must be longer to be labelled
        bool autoMinFeatureSize = false; // a part must be longer than the text
        double repeatDistance = 0;       // pixels between repeated labels; 0: one label
        bool force = false;              // FOLLOW even when the text is far longer than the line
    };

    // Placements for one feature's (already clipped) pixel polylines.
    static LineLabelLayout place(const QList<QPolygonF>& lines, const Params& params);

    // The angle, in degrees counter-clockwise, of a label on the segment
    // a -> b: AUTO turns it to read left to right, AUTO2 keeps the direction.
    static double segmentAngle(QPointF a, QPointF b, Mode mode);

    // Parts of the polylines inside `rect` (each crossing splits a part).
    static QList<QPolygonF> clip(const QList<QPolygonF>& lines, const QRectF& rect);
};

}  // namespace maptune
