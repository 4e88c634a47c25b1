#include "mapfile/inline_vrt.h"

#include <QDir>
#include <QRegularExpression>

namespace maptune {

namespace {

const QRegularExpression& sourceElement()
{
    static const QRegularExpression re(QStringLiteral("(<SrcDataSource\\b[^>]*>)(.*?)(</SrcDataSource>)"),
                                       QRegularExpression::DotMatchesEverythingOption | QRegularExpression::CaseInsensitiveOption);
    return re;
}

QString decodeEntities(QString s)
{
    s.replace(QLatin1String("&lt;"), QLatin1String("<")).replace(QLatin1String("&gt;"), QLatin1String(">"));
    s.replace(QLatin1String("&quot;"), QLatin1String("\"")).replace(QLatin1String("&apos;"), QLatin1String("'"));
    return s.replace(QLatin1String("&amp;"), QLatin1String("&"));
}

QString encodeEntities(QString s)
{
    s.replace(QLatin1String("&"), QLatin1String("&amp;"));
    return s.replace(QLatin1String("<"), QLatin1String("&lt;")).replace(QLatin1String(">"), QLatin1String("&gt;"));
}

// A path OGR reads from disk, as opposed to a driver prefix ("PG:", "WFS:"),
// a GDAL virtual file system or a URL (which the data roots judge as such).
bool isPlainRelativePath(const QString& p)
{
    if (p.isEmpty() || QDir::isAbsolutePath(p) || p.startsWith(QLatin1String("/vsi"))) return false;
    static const QRegularExpression prefix(QStringLiteral("^[A-Za-z][A-Za-z0-9_]+:"));
    return !prefix.match(p).hasMatch();
}

}  // namespace

bool isInlineVrt(const QString& connection)
{
    return connection.trimmed().startsWith(QLatin1String("<OGRVRTDataSource"), Qt::CaseInsensitive);
}

QStringList inlineVrtSources(const QString& vrt)
{
    QStringList out;
    auto it = sourceElement().globalMatch(vrt);
    while (it.hasNext()) out << decodeEntities(it.next().captured(2).trimmed());
    return out;
}

QString withAbsoluteVrtSources(const QString& vrt, const QString& baseDir)
{
    QString out;
    qsizetype last = 0;
    auto it = sourceElement().globalMatch(vrt);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        const QString source = decodeEntities(m.captured(2).trimmed());
        out += vrt.mid(last, m.capturedStart(0) - last);
        if (isPlainRelativePath(source)) {
            QString open = m.captured(1);
            open.replace(QRegularExpression(QStringLiteral("\\s+relativeToVRT\\s*=\\s*\"[^\"]*\"")), QString());
            out += open + encodeEntities(QDir::cleanPath(QDir(baseDir).absoluteFilePath(source))) + m.captured(3);
        } else {
            out += m.captured(0);
        }
        last = m.capturedEnd(0);
    }
    return out + vrt.mid(last);
}

}  // namespace maptune
