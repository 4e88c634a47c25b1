// CLASS, STYLE and LABEL blocks.
#include "mapfile/map_parser.h"

namespace maptune {

namespace {

template <typename T>
KeywordEntry<T> block(void (*fn)(MapParser&, T&, const Token&))
{
    return {fn, true};
}

void readStyleSymbol(MapParser& p, StyleDef& s, const Token& k)
{
    // The last SYMBOL wins, whichever form it takes.
    s.symbolAttr.clear();
    s.symbolName.clear();
    s.symbolIndex = 0;
    const Token& t = p.peek();
    if (t.kind == Token::Kind::Attr) {
        s.symbolAttr = p.next().text;
        return;
    }
    if (t.kind == Token::Kind::Word) {
        bool ok = false;
        t.text.toDouble(&ok);
        if (ok) {
            s.symbolIndex = p.readInt(k);
            return;
        }
    }
    s.symbolName = p.readString(k);
}

void readPattern(MapParser& p, StyleDef& s, const Token& k)
{
    s.pattern = p.readNumberList(k);
}

LineCap readLineCap(MapParser& p, const Token& k, LineCap fallback)
{
    const QString v = p.readWord(k, {"ROUND", "BUTT", "SQUARE"});
    if (v == QLatin1String("ROUND")) return LineCap::Round;
    if (v == QLatin1String("BUTT")) return LineCap::Butt;
    if (v == QLatin1String("SQUARE")) return LineCap::Square;
    return fallback;
}

LineJoin readLineJoin(MapParser& p, const Token& k, LineJoin fallback)
{
    const QString v = p.readWord(k, {"ROUND", "MITER", "BEVEL", "NONE"});
    if (v == QLatin1String("ROUND")) return LineJoin::Round;
    if (v == QLatin1String("MITER")) return LineJoin::Miter;
    if (v == QLatin1String("BEVEL")) return LineJoin::Bevel;
    if (v == QLatin1String("NONE")) return LineJoin::None;
    return fallback;
}

using S = KeywordEntry<StyleDef>;

const KeywordTable<StyleDef>& styleTable()
{
    static const KeywordTable<StyleDef> table = [] {
        KeywordTable<StyleDef> t = {
            {QStringLiteral("COLOR"), colorOrAttrField(&StyleDef::color)},
            {QStringLiteral("OUTLINECOLOR"), colorOrAttrField(&StyleDef::outlineColor)},
            {QStringLiteral("BACKGROUNDCOLOR"), colorOrAttrField(&StyleDef::backgroundColor)},
            {QStringLiteral("WIDTH"), numberOrAttrField(&StyleDef::width)},
            {QStringLiteral("OUTLINEWIDTH"), numberOrAttrField(&StyleDef::outlineWidth)},
            {QStringLiteral("SIZE"), numberOrAttrField(&StyleDef::size)},
            {QStringLiteral("MINSIZE"), numberField(&StyleDef::minSize)},
            {QStringLiteral("MAXSIZE"), numberField(&StyleDef::maxSize)},
            {QStringLiteral("MINWIDTH"), numberField(&StyleDef::minWidth)},
            {QStringLiteral("MAXWIDTH"), numberField(&StyleDef::maxWidth)},
            {QStringLiteral("SYMBOL"), S{readStyleSymbol}},
            {QStringLiteral("OPACITY"), numberOrAttrField(&StyleDef::opacity)},
            {QStringLiteral("ANGLE"), S{[](MapParser& p, StyleDef& s, const Token& k) {
                 s.angleAuto = p.peek().isWord("AUTO");
                 if (s.angleAuto)
                     p.next();
                 else
                     s.angle = p.readNumberOrAttr(k);
             }}},
            {QStringLiteral("GAP"), numberField(&StyleDef::gap)},
            {QStringLiteral("INITIALGAP"), numberField(&StyleDef::initialGap)},
            {QStringLiteral("PATTERN"), S{readPattern, true}},
            {QStringLiteral("LINECAP"), S{[](MapParser& p, StyleDef& s, const Token& k) {
                 s.lineCap = readLineCap(p, k, s.lineCap);
             }}},
            {QStringLiteral("LINEJOIN"), S{[](MapParser& p, StyleDef& s, const Token& k) {
                 s.lineJoin = readLineJoin(p, k, s.lineJoin);
             }}},
            {QStringLiteral("LINEJOINMAXSIZE"), numberField(&StyleDef::lineJoinMaxSize)},
            {QStringLiteral("OFFSET"), S{[](MapParser& p, StyleDef& s, const Token& k) {
                 s.offsetX = p.readNumberOrAttr(k);
                 s.offsetY = p.readNumberOrAttr(k);
             }}},
            {QStringLiteral("POLAROFFSET"), S{[](MapParser& p, StyleDef& s, const Token& k) {
                 s.polarOffsetRadius = p.readNumberOrAttr(k);
                 s.polarOffsetAngle = p.readNumberOrAttr(k);
             }}},
            {QStringLiteral("GEOMTRANSFORM"), S{[](MapParser& p, StyleDef& s, const Token& k) {
                 s.geomTransform = readGeomTransform(p, k);
             }}},
            {QStringLiteral("DATARANGE"), S{[](MapParser& p, StyleDef& s, const Token& k) {
                 s.hasRange = true;
                 s.dataRangeMin = p.readNumber(k);
                 s.dataRangeMax = p.readNumber(k);
             }}},
            {QStringLiteral("COLORRANGE"), S{[](MapParser& p, StyleDef& s, const Token& k) {
                 s.hasRange = true;
                 s.colorRangeMin = p.readColor(k, false);
                 s.colorRangeMax = p.readColor(k, false);
             }}},
            {QStringLiteral("RANGEITEM"), stringField(&StyleDef::rangeItem)},
            {QStringLiteral("ANGLEITEM"), extraField<StyleDef>(1)},
            {QStringLiteral("SIZEITEM"), extraField<StyleDef>(1)},
            {QStringLiteral("ANTIALIAS"), boolField(&StyleDef::antialias)},
        };
        addScaleKeywords(t, &StyleDef::minScaleDenom, &StyleDef::maxScaleDenom);
        return t;
    }();
    return table;
}

LabelPosition readLabelPosition(MapParser& p, const Token& k, LabelPosition fallback)
{
    static const std::vector<const char*> names = {"UL", "UC", "UR", "CL", "CC", "CR", "LL", "LC", "LR", "AUTO"};
    const QString v = p.readWord(k, names);
    for (size_t i = 0; i < names.size(); ++i)
        if (v == QLatin1String(names[i])) return LabelPosition(i);
    return fallback;
}

void readLabelSize(MapParser& p, LabelDef& l, const Token& k)
{
    static const QStringList named = {QStringLiteral("TINY"), QStringLiteral("SMALL"), QStringLiteral("MEDIUM"),
                                      QStringLiteral("LARGE"), QStringLiteral("GIANT")};
    const Token& t = p.peek();
    if (t.kind == Token::Kind::Word && named.contains(t.upper())) {
        l.bitmapSize = p.next().upper();
        return;
    }
    l.bitmapSize.clear();
    l.size = p.readNumberOrAttr(k);
}

// A keyword whose value is either one of some words (kept in extras) or a number/binding.
template <typename F>
void wordOrElse(MapParser& p, LabelDef& l, const Token& k, std::initializer_list<const char*> words, F&& orElse)
{
    for (const char* w : words) {
        if (p.peek().isWord(w)) {
            l.extras.append({k.upper(), {p.next().upper()}});
            return;
        }
    }
    orElse();
}

using L = KeywordEntry<LabelDef>;

const KeywordTable<LabelDef>& labelTable()
{
    static const KeywordTable<LabelDef> table = [] {
        KeywordTable<LabelDef> t = {
            {QStringLiteral("TYPE"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                 const QString v = p.readWord(k, {"TRUETYPE", "BITMAP"});
                 if (!v.isEmpty()) l.type = v == QLatin1String("BITMAP") ? LabelType::Bitmap : LabelType::TrueType;
             }}},
            {QStringLiteral("FONT"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                 l.font = p.peek().kind == Token::Kind::Attr ? p.next().raw() : p.readString(k);
             }}},
            {QStringLiteral("SIZE"), L{readLabelSize}},
            {QStringLiteral("MINSIZE"), numberField(&LabelDef::minSize)},
            {QStringLiteral("MAXSIZE"), numberField(&LabelDef::maxSize)},
            {QStringLiteral("COLOR"), colorOrAttrField(&LabelDef::color)},
            {QStringLiteral("OUTLINECOLOR"), colorOrAttrField(&LabelDef::outlineColor)},
            {QStringLiteral("OUTLINEWIDTH"), numberField(&LabelDef::outlineWidth)},
            {QStringLiteral("SHADOWCOLOR"), colorOrAttrField(&LabelDef::shadowColor)},
            {QStringLiteral("SHADOWSIZE"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                 l.shadowSizeX = p.readNumber(k);
                 l.shadowSizeY = p.readNumber(k);
             }}},
            {QStringLiteral("POSITION"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                 l.position = readLabelPosition(p, k, l.position);
             }}},
            {QStringLiteral("OFFSET"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                 l.offsetX = p.readNumber(k);
                 l.offsetY = p.readNumber(k);
             }}},
            {QStringLiteral("ANGLE"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                 l.angleMode.clear();
                 for (const char* mode : {"AUTO", "AUTO2", "FOLLOW"}) {
                     if (p.peek().isWord(mode)) {
                         l.angleMode = p.next().upper();
                         return;
                     }
                 }
                 l.angle = p.readNumberOrAttr(k);
             }}},
            {QStringLiteral("BUFFER"), numberField(&LabelDef::buffer)},
            {QStringLiteral("PARTIALS"), boolField(&LabelDef::partials)},
            {QStringLiteral("MINDISTANCE"), numberField(&LabelDef::minDistance)},
            {QStringLiteral("MINFEATURESIZE"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                 wordOrElse(p, l, k, {"AUTO"}, [&] { l.minFeatureSize = p.readNumber(k); });
             }}},
            {QStringLiteral("FORCE"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                 wordOrElse(p, l, k, {"GROUP"}, [&] { l.force = p.readBool(k); });
             }}},
            {QStringLiteral("REPEATDISTANCE"), intField(&LabelDef::repeatDistance)},
            {QStringLiteral("ALIGN"), wordField(&LabelDef::align, {"LEFT", "CENTER", "RIGHT"})},
            {QStringLiteral("WRAP"), stringField(&LabelDef::wrap)},
            {QStringLiteral("MAXLENGTH"), intField(&LabelDef::maxLength)},
            {QStringLiteral("PRIORITY"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                 if (p.peek().kind == Token::Kind::Attr)
                     l.extras.append({k.upper(), {p.next().raw()}});
                 else
                     l.priority = p.readInt(k);
             }}},
            {QStringLiteral("TEXT"), expressionField(&LabelDef::text)},
            {QStringLiteral("ENCODING"), stringField(&LabelDef::encoding)},
            {QStringLiteral("STYLE"), L{[](MapParser& p, LabelDef& l, const Token& k) {
                                            StyleDef s;
                                            p.parseStyle(k, s);
                                            l.styles.append(std::move(s));
                                        },
                                        true}},
            {QStringLiteral("EXPRESSION"), expressionField(&LabelDef::expression)},
            {QStringLiteral("ANTIALIAS"), extraField<LabelDef>(1)},
            {QStringLiteral("MAXOVERLAPANGLE"), extraField<LabelDef>(1)},
            {QStringLiteral("LEADER"), extraField<LabelDef>(-1)},
        };
        addScaleKeywords(t, &LabelDef::minScaleDenom, &LabelDef::maxScaleDenom);
        return t;
    }();
    return table;
}

// Class-level COLOR, SYMBOL, SIZE... are MapServer 4 syntax for the first STYLE.
StyleDef& firstStyle(ClassDef& c, const Token& k)
{
    if (c.styles.isEmpty()) {
        c.styles.append(StyleDef{});
        c.styles.last().pos = k.pos;
    }
    return c.styles.first();
}

KeywordEntry<ClassDef> legacyStyleKeyword(const char* kw)
{
    const QString name = QLatin1String(kw);
    return {[name](MapParser& p, ClassDef& c, const Token& k) {
        styleTable().value(name).handle(p, firstStyle(c, k), k);
    }};
}

using C = KeywordEntry<ClassDef>;

const KeywordTable<ClassDef>& classTable()
{
    static const KeywordTable<ClassDef> table = [] {
        KeywordTable<ClassDef> t = {
            {QStringLiteral("NAME"), stringField(&ClassDef::name)},
            {QStringLiteral("TITLE"), stringField(&ClassDef::title)},
            {QStringLiteral("GROUP"), stringField(&ClassDef::group)},
            {QStringLiteral("STATUS"), C{[](MapParser& p, ClassDef& c, const Token& k) {
                 const QString v = p.readWord(k, {"ON", "OFF"});
                 if (!v.isEmpty()) c.status = v == QLatin1String("ON") ? 1 : 0;
             }}},
            {QStringLiteral("EXPRESSION"), expressionField(&ClassDef::expression)},
            {QStringLiteral("TEXT"), expressionField(&ClassDef::text)},
            {QStringLiteral("TEMPLATE"), stringField(&ClassDef::templ)},
            {QStringLiteral("KEYIMAGE"), stringField(&ClassDef::keyImage)},
            {QStringLiteral("METADATA"), keyValuesField(&ClassDef::metadata)},
            {QStringLiteral("VALIDATION"), keyValuesField(&ClassDef::validation)},
            {QStringLiteral("STYLE"), C{[](MapParser& p, ClassDef& c, const Token& k) {
                                            StyleDef s;
                                            p.parseStyle(k, s);
                                            c.styles.append(std::move(s));
                                        },
                                        true}},
            {QStringLiteral("LABEL"), C{[](MapParser& p, ClassDef& c, const Token& k) {
                                            LabelDef l;
                                            p.parseLabel(k, l);
                                            c.labels.append(std::move(l));
                                        },
                                        true}},
            {QStringLiteral("LEADER"), extraField<ClassDef>(-1)},
            {QStringLiteral("DEBUG"), extraField<ClassDef>(1)},
            {QStringLiteral("MINFEATURESIZE"), extraField<ClassDef>(1)},
            {QStringLiteral("FALLBACK"), extraField<ClassDef>(1)},
        };
        for (const char* kw : {"COLOR", "OUTLINECOLOR", "BACKGROUNDCOLOR", "SYMBOL", "SIZE", "MINSIZE", "MAXSIZE",
                               "WIDTH"})
            t.insert(QLatin1String(kw), legacyStyleKeyword(kw));
        addScaleKeywords(t, &ClassDef::minScaleDenom, &ClassDef::maxScaleDenom);
        return t;
    }();
    return table;
}

}  // namespace

QStringList styleKeywords() { return styleTable().keys(); }
QStringList labelKeywords() { return labelTable().keys(); }
QStringList classKeywords() { return classTable().keys(); }

void MapParser::parseStyle(const Token& kw, StyleDef& style)
{
    style.pos = kw.pos;
    parseBlock(kw, "STYLE", styleTable(), style);
}

void MapParser::parseLabel(const Token& kw, LabelDef& label)
{
    label.pos = kw.pos;
    parseBlock(kw, "LABEL", labelTable(), label);
}

void MapParser::parseClass(const Token& kw, ClassDef& cls)
{
    cls.pos = kw.pos;
    parseBlock(kw, "CLASS", classTable(), cls);
}

}  // namespace maptune
