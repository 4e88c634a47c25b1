#include "wms/mapserv/mapserv_url.h"

#include <QUrl>
#include <QUrlQuery>

namespace maptune {

namespace {

QString number(double v)
{
    return QString::number(v, 'g', 15);
}

// Percent-encoded as a query value, spaces as '+' as mapserv's forms send them.
QString queryValue(const QString& v)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(v, " /:,")).replace(QLatin1Char(' '), QLatin1Char('+'));
}

}  // namespace

QString mapservUrl(const QString& base, const QString& mapPath, const MapservView& view)
{
    const Rect& e = view.edges;
    const double cx = view.width > 0 ? e.width() / view.width : 0, cy = view.height > 0 ? e.height() / view.height : 0;
    QStringList params;
    if (!mapPath.isEmpty()) params << QStringLiteral("map=") + queryValue(mapPath);
    params << QStringLiteral("mode=map");
    params << QStringLiteral("mapext=") + queryValue(QStringList{number(e.minx + cx / 2), number(e.miny + cy / 2),
                                                                 number(e.maxx - cx / 2), number(e.maxy - cy / 2)}
                                                         .join(QLatin1Char(' ')));
    params << QStringLiteral("mapsize=%1+%2").arg(view.width).arg(view.height);
    if (!view.layers.isEmpty()) params << QStringLiteral("layers=") + queryValue(view.layers.join(QLatin1Char(' ')));
    return base + (base.contains(QLatin1Char('?')) ? QStringLiteral("&") : QStringLiteral("?")) + params.join(QLatin1Char('&'));
}

Result<QByteArray> replayQuery(const QString& pasted)
{
    QString text = pasted.trimmed();
    if (text.isEmpty()) return Error(QStringLiteral("paste a mapserv or WMS URL, or its query string"));
    // A URL: what follows '?', without the fragment. A bare query string as it is.
    if (const qsizetype q = text.indexOf(QLatin1Char('?')); q >= 0) text = text.mid(q + 1);
    else if (text.contains(QLatin1String("://"))) return Error(QStringLiteral("the URL has no query string (nothing after '?')"));
    if (const qsizetype h = text.indexOf(QLatin1Char('#')); h >= 0) text.truncate(h);
    QStringList kept;
    for (const QString& pair : text.split(QLatin1Char('&'), Qt::SkipEmptyParts)) {
        const QString name = pair.section(QLatin1Char('='), 0, 0);
        if (name.compare(QLatin1String("map"), Qt::CaseInsensitive) == 0) continue;
        kept << pair;
    }
    if (kept.isEmpty()) return Error(QStringLiteral("the URL asks nothing but a map; add e.g. mode=map or REQUEST=GetCapabilities"));
    return kept.join(QLatin1Char('&')).toUtf8();
}

}  // namespace maptune
