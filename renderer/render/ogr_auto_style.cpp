#include "render/ogr_auto_style.h"

#include <ogr_api.h>

#include <algorithm>
#include <memory>
#include <optional>

namespace maptune {

namespace {

struct StyleManager {
    OGRStyleMgrH handle = OGR_SM_Create(nullptr);
    ~StyleManager() { OGR_SM_Destroy(handle); }
};

struct StyleTool {
    OGRStyleToolH handle;
    ~StyleTool() { OGR_ST_Destroy(handle); }
};

std::optional<Color> colorParam(OGRStyleToolH tool, int param)
{
    int isNull = 1;
    const char* text = OGR_ST_GetParamStr(tool, param, &isNull);
    int r = 0, g = 0, b = 0, a = 255;
    if (isNull || !text || !OGR_ST_GetRGBFromString(tool, text, &r, &g, &b, &a)) return std::nullopt;
    return Color{r, g, b, a};
}

std::optional<double> numberParam(OGRStyleToolH tool, int param)
{
    int isNull = 1;
    const double v = OGR_ST_GetParamDbl(tool, param, &isNull);
    return isNull ? std::nullopt : std::optional<double>(v);
}

// A pen's width and a symbol's size are read as whole pixels, cut toward
// zero (OGR_ST_GetParamNum, as msOGRUpdateStyle reads them): "w:3.9px" is 3.
std::optional<double> wholeParam(OGRStyleToolH tool, int param)
{
    int isNull = 1;
    const int v = OGR_ST_GetParamNum(tool, param, &isNull);
    return isNull ? std::nullopt : std::optional<double>(v);
}

QString stringParam(OGRStyleToolH tool, int param)
{
    int isNull = 1;
    const char* text = OGR_ST_GetParamStr(tool, param, &isNull);
    return isNull || !text ? QString() : QString::fromUtf8(text);
}

// The first mapfile SYMBOL named (case aside, as msGetSymbolIndex) by an id
// of the comma list; the ogr-* generic names and unknown ones: none.
QString symbolFor(const QString& ids, const MapDef& map)
{
    for (const QString& id : ids.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString name = id.trimmed();
        for (const SymbolDef& s : map.symbols)
            if (s.name.compare(name, Qt::CaseInsensitive) == 0) return s.name;
    }
    return {};
}

// Splits `text` at `sep` outside double quotes (a backslash escapes inside
// them), as GDAL's CSLTokenizeString2 with CSLT_HONOURSTRINGS does.
QStringList splitOutsideQuotes(const QString& text, QChar sep)
{
    QStringList out;
    QString current;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted && c == QLatin1Char('\\') && i + 1 < text.size()
            && (text[i + 1] == QLatin1Char('"') || text[i + 1] == QLatin1Char('\\'))) {
            current += c;
            current += text[++i];
            continue;
        }
        if (c == QLatin1Char('"')) quoted = !quoted;
        if (c == sep && !quoted) {
            out << current;
            current.clear();
        } else {
            current += c;
        }
    }
    out << current;
    return out;
}

// The string with each tool's repeated parameters reduced to the last, which
// is the one GDAL keeps: GDAL 3.6 leaks the string of every earlier one. A
// tool splits as GDAL's OGRStyleTool::Parse splits it: at every '(' or ')'
// outside quotes, empty pieces dropped, a name and one parameter list
// ("PEN(c:#f00)" and "PEN)c:#f00" alike); parameters at ',' and named before
// ':' without quotes or the spaces around. Other shapes GDAL refuses whole.
QString withoutRepeatedParams(const QString& style)
{
    QStringList tools = splitOutsideQuotes(style, QLatin1Char(';'));
    for (QString& tool : tools) {
        QStringList pieces;
        for (const QString& open : splitOutsideQuotes(tool, QLatin1Char('(')))
            for (const QString& piece : splitOutsideQuotes(open, QLatin1Char(')')))
                if (!piece.isEmpty()) pieces << piece;
        if (pieces.size() != 2) continue;
        QStringList params;
        for (const QString& param : splitOutsideQuotes(pieces[1], QLatin1Char(',')))
            if (!param.isEmpty()) params << param;
        // GDAL names a parameter after taking its quotes out.
        const auto keyOf = [](QString param) {
            param.remove(QLatin1Char('"'));
            return param.section(QLatin1Char(':'), 0, 0).trimmed();
        };
        QStringList kept;
        for (qsizetype i = params.size() - 1; i >= 0; --i) {
            const QString key = keyOf(params[i]);
            const bool later = std::any_of(kept.begin(), kept.end(),
                                           [&](const QString& p) { return keyOf(p).compare(key, Qt::CaseInsensitive) == 0; });
            if (!later) kept.prepend(params[i]);
        }
        tool = pieces[0] + QLatin1Char('(') + kept.join(QLatin1Char(',')) + QLatin1Char(')');
    }
    return tools.join(QLatin1Char(';'));
}

// msOGRUpdateStyleParseLabel: a LABEL part over the label so far (a second
// part overwrites the first; what it does not set carries over).
LabelDef labelFrom(OGRStyleToolH tool, const MapDef& map, LabelDef l)
{
    l.text = {ExpressionDef::Type::String, stringParam(tool, OGRSTLabelTextString)};
    l.angle = numberParam(tool, OGRSTLabelAngle).value_or(0);
    if (const auto c = colorParam(tool, OGRSTLabelFColor)) l.color = *c;
    if (const auto c = colorParam(tool, OGRSTLabelHColor)) l.shadowColor = *c;
    if (const auto c = colorParam(tool, OGRSTLabelOColor)) l.outlineColor = *c;
    // The anchor: 1-3 upper, 4-6 centre, 7-9 lower (right to left), 10-12
    // as 1-3; anything else upper right.
    static constexpr LabelPosition anchors[] = {LabelPosition::UR, LabelPosition::UC, LabelPosition::UL,
                                                LabelPosition::CR, LabelPosition::CC, LabelPosition::CL,
                                                LabelPosition::LR, LabelPosition::LC, LabelPosition::LL,
                                                LabelPosition::UR, LabelPosition::UC, LabelPosition::UL};
    const int anchor = int(numberParam(tool, OGRSTLabelAnchor).value_or(0));
    l.position = anchor >= 1 && anchor <= 12 ? anchors[anchor - 1] : LabelPosition::UR;
    const double size = std::max(1.0, numberParam(tool, OGRSTLabelSize).value_or(1));
    QString font = stringParam(tool, OGRSTLabelFontName);
    if (font.isEmpty()) {
        l.size = size;  // the built-in font at that size
        return l;
    }
    // "<name>[-bold][-italic]", then "<name>", then "default" in the
    // FONTSET; none of them: the built-in font, MEDIUM.
    font.replace(QLatin1Char(' '), QLatin1Char('-'));
    int isNull = 1;
    const bool bold = OGR_ST_GetParamNum(tool, OGRSTLabelBold, &isNull) && !isNull;
    const bool italic = OGR_ST_GetParamNum(tool, OGRSTLabelItalic, &isNull) && !isNull;
    const QString styled = font + (bold ? QStringLiteral("-bold") : QString()) + (italic ? QStringLiteral("-italic") : QString());
    for (const QString& key : {styled, font, QStringLiteral("default")}) {
        if (!map.fonts.value(key)) continue;
        l.type = LabelType::TrueType;
        l.font = key;
        l.size = size;
        return l;
    }
    l.type = LabelType::Bitmap;
    l.font.clear();
    l.size = -1;
    return l;
}

}  // namespace

QList<StyleDef> ogrAutoStyles(const QString& styleString, LayerType type, const MapDef& map, double cellSize)
{
    return ogrAutoStyle(styleString, type, map, cellSize).styles;
}

OgrAutoStyle ogrAutoStyle(const QString& styleString, LayerType type, const MapDef& map, double cellSize)
{
    OgrAutoStyle result;
    QList<StyleDef>& out = result.styles;
    std::optional<LabelDef> label;
    if (styleString.isEmpty()) return result;
    StyleManager manager;
    // GDAL reads a C string: what follows a NUL is not part of it.
    const QByteArray text = withoutRepeatedParams(styleString.left(styleString.indexOf(QChar(0)))).toUtf8();
    if (!OGR_SM_InitStyleString(manager.handle, text.constData())) return result;
    const int parts = OGR_SM_GetPartCount(manager.handle, nullptr);
    StyleDef background, fill, outline;
    bool hasBackground = false, hasFill = false, hasOutline = false;
    for (int i = 0; i < parts; ++i) {
        StyleTool tool{OGR_SM_GetPart(manager.handle, i, nullptr)};
        if (!tool.handle) continue;
        // Sizes in pixels, as msOGRLayerGetAutoStyle asks them: GDAL turns
        // ground units into paper metres by this scale and metres into
        // pixels at 72 dpi, so "g" ends up divided by the cell size.
        const double rf = map.defResolution > 0 ? map.resolution / map.defResolution : 1.0;
        OGR_ST_SetUnit(tool.handle, OGRSTUPixel, cellSize * rf * 72.0 * 39.37);
        switch (OGR_ST_GetType(tool.handle)) {
        case OGRSTCPen: {
            const std::optional<Color> c = colorParam(tool.handle, OGRSTPenColor);
            if (!c) break;  // a pen of no colour draws nothing
            const double width = wholeParam(tool.handle, OGRSTPenWidth).value_or(1);
            StyleDef& s = type == LayerType::Polygon ? outline : fill;
            if (type == LayerType::Polygon) s.outlineColor = *c;
            else s.color = *c;
            s.width = width;
            s.size = width;
            (type == LayerType::Polygon ? hasOutline : hasFill) = true;
            break;
        }
        case OGRSTCBrush: {
            const QString id = stringParam(tool.handle, OGRSTBrushId);
            // msOGRUpdateStyle: a background colour is a solid style of its
            // own under the brush, even under the invisible one.
            if (const auto c = colorParam(tool.handle, OGRSTBrushBColor)) background.color = *c, hasBackground = true;
            hasFill = true;
            if (id.contains(QLatin1String("ogr-brush-1"))) break;  // the invisible brush
            if (const auto c = colorParam(tool.handle, OGRSTBrushFColor)) fill.color = *c;
            fill.symbolName = symbolFor(id, map);
            if (const auto a = numberParam(tool.handle, OGRSTBrushAngle)) fill.angle = *a;
            if (const auto sz = numberParam(tool.handle, OGRSTBrushSize)) fill.size = *sz;
            // The symbols' spacing, when the same both ways.
            const auto dx = numberParam(tool.handle, OGRSTBrushDx), dy = numberParam(tool.handle, OGRSTBrushDy);
            if (dx && dy && *dx == *dy) fill.gap = *dx;
            break;
        }
        case OGRSTCSymbol: {
            hasFill = true;
            if (const auto c = colorParam(tool.handle, OGRSTSymbolColor)) fill.color = *c;
            if (const auto sz = wholeParam(tool.handle, OGRSTSymbolSize)) fill.size = *sz;
            if (const auto a = numberParam(tool.handle, OGRSTSymbolAngle)) fill.angle = *a;
            fill.symbolName = symbolFor(stringParam(tool.handle, OGRSTSymbolId), map);
            break;
        }
        case OGRSTCLabel: label = labelFrom(tool.handle, map, label.value_or(LabelDef{})); break;
        default: break;
        }
    }
    if (hasBackground) out << background;
    if (hasFill) out << fill;
    if (hasOutline) out << outline;
    // An empty text is no label.
    if (label && !label->text.text.isEmpty()) result.labels << *label;
    return result;
}

}  // namespace maptune
