#include "raster/lut.h"

#include "mapfile/processing.h"

#include <QDir>
#include <QFile>
#include <QList>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace maptune {

namespace {

// C atoi(): leading blanks, optional sign, digits; stops at anything else.
// The LUT grammar is defined by what atoi() accepts, so we mimic it.
int atoiLike(const char* p, const char* end)
{
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
    bool negative = false;
    if (p < end && (*p == '+' || *p == '-')) negative = (*p++ == '-');
    long long v = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        v = v * 10 + (*p++ - '0');
        if (v > 0x7fffffff) v = 0x7fffffff;
    }
    return int(negative ? -v : v);
}

bool isBlank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

}  // namespace

Lut Lut::fromPoints(const QByteArray& text, int maxIn)
{
    Lut lut(maxIn + 1);
    const char* p = text.constData();
    const char* end = p + text.size();
    int lastIn = 0, lastOut = 0;
    bool done = false;
    while (!done) {
        int in = 0, out = 0;
        while (p < end && isBlank(*p)) ++p;
        if (p >= end) {
            // The implicit end point: without "maxIn:x" the table ramps to 255.
            done = true;
            if (lastIn != maxIn) {
                in = maxIn;
                out = 255;
            }
        } else {
            in = atoiLike(p, end);
            while (p < end && *p != ':') ++p;
            if (p < end) ++p;
            while (p < end && isBlank(*p)) ++p;
            out = atoiLike(p, end);
            while (p < end && *p != ',' && *p != '\n') ++p;
            if (p < end) ++p;
        }
        in = std::clamp(in, 0, maxIn);
        out = std::clamp(out, 0, 255);
        for (int i = lastIn; i <= in; ++i) {
            const double ratio = (lastIn == in) ? 1.0 : (i - lastIn) / double(in - lastIn);
            lut.m_table[size_t(i)] = uint8_t(int(std::floor((1.0 - ratio) * lastOut + ratio * out + 0.5)));
        }
        lastIn = in;
        lastOut = out;
    }
    return lut;
}

bool Lut::isGimpCurves(const QByteArray& text)
{
    return text.left(6).compare("# GIMP", Qt::CaseInsensitive) == 0;
}

namespace {

// One curve line: 17 "x y" pairs, x = -1 marks an unused control point.
Result<Lut> lutFromGimpLine(QByteArray line)
{
    const QList<QByteArray> tokens = line.simplified().split(' ');
    if (tokens.size() != 34) {
        return Error(QStringLiteral("GIMP curves file appears corrupt: a curve line has %1 numbers, expected 34 "
                                    "(17 x,y pairs)")
                         .arg(line.trimmed().isEmpty() ? 0 : tokens.size()));
    }
    QByteArray points;
    for (int i = 0; i < 17; ++i) {
        const QByteArray& x = tokens[i * 2];
        if (atoiLike(x.constData(), x.constData() + x.size()) < 0) continue;
        if (!points.isEmpty()) points += ',';
        points += x + ':' + tokens[i * 2 + 1];
    }
    return Lut::fromPoints(points, 255);
}

}  // namespace

Result<Lut> Lut::fromGimpCurves(const QByteArray& text, int colorIndex)
{
    QList<QByteArray> lines;
    for (const QByteArray& l : text.split('\n'))
        if (!l.isEmpty()) lines << l;
    if (lines.isEmpty() || lines[0].left(18).compare("# GIMP Curves File", Qt::CaseInsensitive) != 0
        || lines.size() < 6) {
        return Error(QStringLiteral("GIMP curves file appears corrupt: expected a '# GIMP Curves File' header "
                                    "followed by 5 curve lines"));
    }
    if (colorIndex < 1 || colorIndex > 4)
        return Error(QStringLiteral("GIMP curves: colour index %1 out of range 1..4").arg(colorIndex));
    const Result<Lut> value = lutFromGimpLine(lines[1]);
    if (!value) return value.error();
    const Result<Lut> channel = lutFromGimpLine(lines[colorIndex + 1]);
    if (!channel) return channel.error();
    Lut lut(256);
    for (int i = 0; i < 256; ++i) lut.m_table[size_t(i)] = (*value)[(*channel)[i]];
    return lut;
}

Result<Lut> Lut::fromDefinition(const QByteArray& text, int colorIndex, int maxIn)
{
    if (isGimpCurves(text)) {
        if (maxIn != 255) return Error(QStringLiteral("cannot apply a GIMP curves LUT to 16-bit data"));
        return fromGimpCurves(text, colorIndex);
    }
    return fromPoints(text, maxIn);
}

bool Lut::wants16Bit(const QByteArray& text)
{
    if (isGimpCurves(text)) return false;
    const qsizetype comma = text.lastIndexOf(',');
    const char* p = text.constData() + (comma < 0 ? 0 : comma + 1);
    const char* end = text.constData() + text.size();
    while (p < end && *p == ' ') ++p;
    return atoiLike(p, end) > 255;
}

Result<std::optional<QByteArray>> Lut::definitionFor(const ProcessingOptions& options, int colorIndex,
                                                     const QString& mapDir)
{
    std::optional<QString> def = options.value(QStringLiteral("LUT_%1").arg(colorIndex));
    if (!def) def = options.value(QStringLiteral("LUT"));
    if (!def) return std::optional<QByteArray>();
    static const QString inlineChars = QStringLiteral("0123456789:, ");
    const bool isInline = std::all_of(def->begin(), def->end(), [](QChar c) { return inlineChars.contains(c); });
    if (isInline) return std::optional<QByteArray>(def->toUtf8());

    const QString path = QDir(mapDir).absoluteFilePath(*def);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error(QStringLiteral("cannot open LUT file '%1': %2").arg(path, f.errorString()));
    // MapServer reads into a 2500-byte buffer and rejects a file that fills it.
    const QByteArray content = f.read(2500);
    if (content.size() >= 2500)
        return Error(QStringLiteral("LUT file '%1' is longer than MapServer's limit of 2499 bytes").arg(path));
    return std::optional<QByteArray>(content);
}

Result<std::shared_ptr<const Lut>> Lut::cached(const QByteArray& text, int colorIndex, int maxIn)
{
    struct Entry {
        QByteArray text;
        int colorIndex, maxIn;
        std::shared_ptr<const Lut> lut;
    };
    thread_local std::vector<Entry> cache;
    for (const Entry& e : cache)
        if (e.colorIndex == colorIndex && e.maxIn == maxIn && e.text == text) return e.lut;
    Result<Lut> built = fromDefinition(text, colorIndex, maxIn);
    if (!built) return built.error();
    auto lut = std::make_shared<const Lut>(std::move(built).value());
    // A handful of layers and bands: drop the oldest beyond that.
    if (cache.size() >= 16) cache.erase(cache.begin());
    cache.push_back({text, colorIndex, maxIn, lut});
    return lut;
}

void Lut::apply(const uint8_t* in, uint8_t* out, size_t count) const
{
    const uint8_t* t = m_table.data();
    for (size_t i = 0; i < count; ++i) out[i] = t[in[i]];
}

void Lut::apply(const uint16_t* in, uint8_t* out, size_t count) const
{
    const uint8_t* t = m_table.data();
    const size_t n = m_table.size();
    for (size_t i = 0; i < count; ++i) out[i] = in[i] < n ? t[in[i]] : 255;
}

}  // namespace maptune
