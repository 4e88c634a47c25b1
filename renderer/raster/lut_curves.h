#pragma once
// The LUT editor's model: control points for a master curve (PROCESSING
// "LUT=...") and per-band curves (LUT_1..LUT_3), read from and written back
// to a layer's PROCESSING directives. Tables come from Lut::fromPoints, so
// the curve drawn is exactly what MapServer applies. As in MapServer a band's
// LUT_n replaces the master LUT for that band (they do not compose).

#include "core/result.h"
#include "raster/lut.h"

#include <QList>
#include <QPoint>
#include <QStringList>

#include <array>
#include <optional>

class QTextDocument;

namespace maptune {

struct LayerDef;
struct MapDef;

class LutCurves {
public:
    enum Channel { Master = 0, Red = 1, Green = 2, Blue = 3 };
    static constexpr int kChannels = 4;

    LutCurves();
    // Inline point lists of LUT / LUT_1..3; a file-based or GIMP LUT is not
    // editable as points: `note` says so and that curve starts as identity.
    static LutCurves fromProcessing(const QStringList& processing, QString* note = nullptr);
    // Sorted, strictly increasing inputs, with 0 and 255 end points (MapServer
    // starts from 0:0 and ends with an implicit 255:255, so adding them keeps the table).
    static QList<QPoint> normalized(QList<QPoint> points);
    static QList<QPoint> parsePoints(const QString& text);
    static QString pointsText(const QList<QPoint>& points);  // "0:0,128:160,255:255"
    static QList<QPoint> identity() { return {QPoint(0, 0), QPoint(255, 255)}; }

    const QList<QPoint>& points(int channel) const { return m_points[size_t(channel)]; }
    void setPoints(int channel, const QList<QPoint>& points);
    bool isIdentity(int channel) const;

    // The PROCESSING directives this editor owns, e.g. {"LUT=0:0,128:160,255:255"}.
    QStringList directives() const;
    // The table MapServer applies to output band 1..3 (identity when none).
    Lut lutForBand(int band) const;

    // A GIMP 2.x curves file ("# GIMP Curves File", value/R/G/B/A lines of 17
    // "x y" pairs, -1 -1 unused) that MapServer reads to the same tables:
    // value = master when no band has its own curve, else value = identity
    // and each band line = the curve MapServer uses for it. An error when a
    // curve has more than 17 points.
    Result<QByteArray> toGimpCurves() const;
    // The curves of a GIMP curves file, when they are points of the editor's
    // kind: a value curve with identity channels, or channels with an identity value curve.
    static Result<LutCurves> fromGimpCurves(const QByteArray& text);
    static constexpr int kGimpPoints = 17;

    bool operator==(const LutCurves& o) const { return m_points == o.m_points; }

private:
    std::array<QList<QPoint>, kChannels> m_points;
};

// True for "LUT=..." and "LUT_n=..." directives (the ones LutCurves owns).
bool isLutDirective(const QString& directive);

// The layer's PROCESSING list with its LUT directives replaced by `lut`.
QStringList replaceLutDirectives(const QStringList& processing, const QStringList& lut);

// Rewrites the layer's PROCESSING "LUT..." lines in the mapfile text as one
// undoable step: existing lines are replaced in place, new ones go after the
// layer's NAME line. `map` must be the parse of the document's current text.
Status writeLutToText(QTextDocument* document, const MapDef& map, const QString& layerName, const QStringList& lut);

}  // namespace maptune
