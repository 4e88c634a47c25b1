#include "raster/lut_curves.h"

#include "mapfile/map_def.h"
#include "mapfile/processing.h"

#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>

namespace maptune {

namespace {

bool isInlinePointList(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^[0-9:, \\n]*$"));
    return re.match(text).hasMatch();
}

}  // namespace

LutCurves::LutCurves() { m_points.fill(identity()); }

QList<QPoint> LutCurves::parsePoints(const QString& text)
{
    QList<QPoint> points;
    static const QRegularExpression sep(QStringLiteral("[,\\n]"));
    for (const QString& pair : text.split(sep, Qt::SkipEmptyParts)) {
        const QStringList io = pair.split(QLatin1Char(':'));
        if (io.size() != 2) continue;
        points.append(QPoint(io[0].trimmed().toInt(), io[1].trimmed().toInt()));
    }
    return normalized(points);
}

QList<QPoint> LutCurves::normalized(QList<QPoint> points)
{
    for (QPoint& p : points) p = QPoint(std::clamp(p.x(), 0, 255), std::clamp(p.y(), 0, 255));
    std::stable_sort(points.begin(), points.end(), [](const QPoint& a, const QPoint& b) { return a.x() < b.x(); });
    QList<QPoint> unique;
    for (const QPoint& p : points) {
        if (!unique.isEmpty() && unique.last().x() == p.x()) unique.last() = p;  // the later point wins
        else unique.append(p);
    }
    if (unique.isEmpty() || unique.first().x() != 0) unique.prepend(QPoint(0, 0));
    if (unique.last().x() != 255) unique.append(QPoint(255, 255));
    return unique;
}

QString LutCurves::pointsText(const QList<QPoint>& points)
{
    QStringList pairs;
    for (const QPoint& p : points) pairs << QStringLiteral("%1:%2").arg(p.x()).arg(p.y());
    return pairs.join(QLatin1Char(','));
}

LutCurves LutCurves::fromProcessing(const QStringList& processing, QString* note)
{
    LutCurves curves;
    const ProcessingOptions options(processing);
    QStringList notes;
    for (int channel = 0; channel < kChannels; ++channel) {
        const QString key = channel == Master ? QStringLiteral("LUT") : QStringLiteral("LUT_%1").arg(channel);
        const std::optional<QString> value = options.value(key);
        if (!value) continue;
        if (!isInlinePointList(*value)) {
            notes << QObject::tr("%1 reads '%2' (a file): editing replaces it with points").arg(key, *value);
            continue;
        }
        curves.m_points[size_t(channel)] = parsePoints(*value);
    }
    if (note) *note = notes.join(QLatin1Char('\n'));
    return curves;
}

void LutCurves::setPoints(int channel, const QList<QPoint>& points)
{
    m_points[size_t(channel)] = normalized(points);
}

bool LutCurves::isIdentity(int channel) const
{
    const Lut lut = Lut::fromPoints(pointsText(points(channel)).toLatin1());
    for (int i = 0; i < 256; ++i)
        if (lut[i] != i) return false;
    return true;
}

QStringList LutCurves::directives() const
{
    QStringList out;
    if (!isIdentity(Master)) out << QStringLiteral("LUT=") + pointsText(points(Master));
    for (int band = 1; band <= 3; ++band)
        if (!isIdentity(band)) out << QStringLiteral("LUT_%1=").arg(band) + pointsText(points(band));
    return out;
}

Lut LutCurves::lutForBand(int band) const
{
    const int channel = (band >= 1 && band <= 3 && !isIdentity(band)) ? band : Master;
    return Lut::fromPoints(pointsText(points(channel)).toLatin1());
}

namespace {

QByteArray gimpLine(const QList<QPoint>& points)
{
    // GIMP 2.x keeps the ends in slots 0 and 16 and spreads the others between.
    std::array<QPoint, LutCurves::kGimpPoints> cells;
    cells.fill(QPoint(-1, -1));
    const int n = int(points.size());
    for (int i = 0; i < n; ++i) cells[size_t(n == 1 ? 0 : i * (LutCurves::kGimpPoints - 1) / (n - 1))] = points[i];
    QByteArray line;
    for (const QPoint& p : cells) line += QByteArray::number(p.x()) + ' ' + QByteArray::number(p.y()) + ' ';
    return line + '\n';
}

Result<QList<QPoint>> gimpPoints(const QByteArray& line)
{
    const QList<QByteArray> tokens = line.simplified().split(' ');
    if (tokens.size() != 2 * LutCurves::kGimpPoints)
        return Error(QObject::tr("a GIMP curves line holds %1 numbers, expected 34 (17 x,y pairs)").arg(tokens.size()));
    QList<QPoint> points;
    for (int i = 0; i < LutCurves::kGimpPoints; ++i) {
        bool okX = false, okY = false;
        const int x = tokens[2 * i].toInt(&okX), y = tokens[2 * i + 1].toInt(&okY);
        if (!okX || !okY) {
            return Error(QObject::tr("a GIMP curves line holds '%1 %2', not two numbers")
                             .arg(QString::fromUtf8(tokens[2 * i]), QString::fromUtf8(tokens[2 * i + 1])));
        }
        if (x >= 0) points << QPoint(x, y);
    }
    return points;
}

}  // namespace

Result<QByteArray> LutCurves::toGimpCurves() const
{
    bool perBand = false;
    for (int band = 1; band <= 3; ++band) perBand |= !isIdentity(band);
    std::array<QList<QPoint>, 5> lines;  // value, red, green, blue, alpha
    lines.fill(identity());
    if (!perBand) lines[0] = points(Master);
    else
        for (int band = 1; band <= 3; ++band) lines[size_t(band)] = points(isIdentity(band) ? Master : band);
    QByteArray out("# GIMP Curves File\n");
    for (const QList<QPoint>& line : lines) {
        if (line.size() > kGimpPoints) {
            return Error(QObject::tr("a GIMP curves file holds at most %1 points per curve; this one has %2")
                             .arg(kGimpPoints)
                             .arg(line.size()));
        }
        out += gimpLine(line);
    }
    return out;
}

Result<LutCurves> LutCurves::fromGimpCurves(const QByteArray& text)
{
    QList<QByteArray> lines;
    for (const QByteArray& l : text.split('\n'))
        if (!l.trimmed().isEmpty()) lines << l;
    if (lines.size() < 5 || !Lut::isGimpCurves(lines[0]))
        return Error(QObject::tr("not a GIMP curves file: expected '# GIMP Curves File' and 5 curve lines"));
    LutCurves curves;
    for (int channel = Master; channel <= Blue; ++channel) {
        const Result<QList<QPoint>> points = gimpPoints(lines[channel + 1]);
        if (!points) return points.error();
        curves.setPoints(channel, *points);
    }
    if (!curves.isIdentity(Master) && !(curves.isIdentity(Red) && curves.isIdentity(Green) && curves.isIdentity(Blue))) {
        // MapServer composes value and channel curves; LUT and LUT_n replace each other.
        return Error(QObject::tr("the file curves both the value and a colour channel: "
                                 "MapServer's PROCESSING LUT cannot say that as points"));
    }
    return curves;
}

bool isLutDirective(const QString& directive)
{
    static const QRegularExpression re(QStringLiteral("^\\s*LUT(_\\d+)?\\s*[=:]"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re.match(directive).hasMatch();
}

QStringList replaceLutDirectives(const QStringList& processing, const QStringList& lut)
{
    QStringList out;
    bool inserted = false;
    for (const QString& d : processing) {
        if (!isLutDirective(d)) {
            out << d;
        } else if (!inserted) {
            out << lut;  // where the first LUT was: order among PROCESSING keys kept
            inserted = true;
        }
    }
    if (!inserted) out << lut;
    return out;
}

Status writeLutToText(QTextDocument* document, const MapDef& map, const QString& layerName, const QStringList& lut)
{
    int index = -1;
    for (int i = 0; i < map.layers.size(); ++i)
        if (map.layers[i].name.compare(layerName, Qt::CaseInsensitive) == 0) index = i;
    if (index < 0 || map.layers[index].pos.line <= 0
        || (!map.layers[index].pos.file.isEmpty() && !map.path.isEmpty() && map.layers[index].pos.file != map.path)) {
        return Error(QObject::tr("layer '%1' is not written in this file (INCLUDE?)").arg(layerName));
    }
    // A layer's PROCESSING lines lie between its LAYER and the next LAYER.
    const int first = map.layers[index].pos.line - 1;
    int last = document->blockCount() - 1;
    for (int i = index + 1; i < map.layers.size(); ++i)
        if (map.layers[i].pos.file == map.layers[index].pos.file && map.layers[i].pos.line > first + 1) {
            last = map.layers[i].pos.line - 2;
            break;
        }
    static const QRegularExpression lutLine(QStringLiteral("^(\\s*)PROCESSING\\s+[\"']\\s*LUT(_\\d+)?\\s*[=:]"),
                                            QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression nameLine(QStringLiteral("^(\\s*)(LAYER\\s+)?NAME\\b"),
                                             QRegularExpression::CaseInsensitiveOption);
    QList<int> lutBlocks;
    int nameBlock = -1;
    QString indent;
    for (int b = first; b <= last; ++b) {
        const QString text = document->findBlockByNumber(b).text();
        if (const auto m = lutLine.match(text); m.hasMatch()) {
            if (lutBlocks.isEmpty()) indent = m.captured(1);
            lutBlocks << b;
        } else if (nameBlock < 0) {
            if (const auto n = nameLine.match(text); n.hasMatch()) {
                nameBlock = b;
                if (lutBlocks.isEmpty()) indent = n.captured(1);
            }
        }
    }
    const int insertBefore = lutBlocks.isEmpty() ? (nameBlock >= 0 ? nameBlock + 1 : first + 1) : lutBlocks.first();
    if (lutBlocks.isEmpty() && indent.isEmpty()) indent = QStringLiteral("    ");
    QString newLines;
    for (const QString& d : lut) newLines += indent + QStringLiteral("PROCESSING \"%1\"\n").arg(d);

    QTextCursor cursor(document);
    cursor.beginEditBlock();
    for (auto it = lutBlocks.crbegin(); it != lutBlocks.crend(); ++it) {
        QTextCursor c(document->findBlockByNumber(*it));
        c.movePosition(QTextCursor::NextBlock, QTextCursor::KeepAnchor);
        c.removeSelectedText();
    }
    const QTextBlock at = document->findBlockByNumber(insertBefore);
    QTextCursor c(document);
    if (at.isValid()) {
        c.setPosition(at.position());
    } else {
        c.movePosition(QTextCursor::End);
        newLines.prepend(QLatin1Char('\n'));
        newLines.chop(1);
    }
    c.insertText(newLines);
    cursor.endEditBlock();
    return {};
}

}  // namespace maptune
