#include "loadtest/url_template.h"

#include <cstdio>

namespace maptune {

namespace {

const QLatin1String kScheme("http://");

// "host[:port]" or "[v6][:port]" of a URL, and the offset where its path starts.
struct Authority {
    QString host;
    int port = 80;
    qsizetype pathStart = 0;
};

std::optional<Authority> splitAuthority(const QString& url)
{
    if (!url.startsWith(kScheme, Qt::CaseInsensitive)) return std::nullopt;
    const qsizetype start = kScheme.size();
    qsizetype end = start;
    while (end < url.size() && url[end] != QLatin1Char('/') && url[end] != QLatin1Char('?')) ++end;
    QString authority = url.mid(start, end - start);
    if (authority.contains(QLatin1Char('@'))) return std::nullopt;  // no credentials in load URLs
    Authority a;
    a.pathStart = end;
    QString portText;
    if (authority.startsWith(QLatin1Char('['))) {
        const qsizetype close = authority.indexOf(QLatin1Char(']'));
        if (close < 0) return std::nullopt;
        a.host = authority.mid(1, close - 1);
        const QString rest = authority.mid(close + 1);
        if (!rest.isEmpty() && !rest.startsWith(QLatin1Char(':'))) return std::nullopt;
        portText = rest.mid(1);
    } else {
        const qsizetype colon = authority.lastIndexOf(QLatin1Char(':'));
        a.host = colon < 0 ? authority : authority.left(colon);
        if (colon >= 0) portText = authority.mid(colon + 1);
    }
    if (a.host.isEmpty()) return std::nullopt;
    if (!portText.isEmpty()) {
        bool ok = false;
        a.port = portText.toInt(&ok);
        if (!ok || a.port <= 0 || a.port > 65535) return std::nullopt;
    }
    return a;
}

}  // namespace

QString UrlTemplate::formatNumber(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.8f", v);
    QString s = QString::fromLatin1(buf);
    while (s.endsWith(QLatin1Char('0'))) s.chop(1);
    if (s.endsWith(QLatin1Char('.'))) s.chop(1);
    if (s == QLatin1String("-0") || s.isEmpty()) return QStringLiteral("0");
    return s;
}

bool UrlTemplate::isLoopbackHost(const QString& host)
{
    return host == QLatin1String("127.0.0.1") || host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0 ||
           host == QLatin1String("::1");
}

QString UrlTemplate::fill(const Bbox& bbox, int width, int height, qint64 seq) const
{
    const QString minx = formatNumber(bbox.minx), miny = formatNumber(bbox.miny);
    const QString maxx = formatNumber(bbox.maxx), maxy = formatNumber(bbox.maxy);
    QString s = m_text;
    s.replace(QLatin1String("{BBOX}"), minx + QLatin1Char(',') + miny + QLatin1Char(',') + maxx + QLatin1Char(',') + maxy);
    s.replace(QLatin1String("{MINX}"), minx).replace(QLatin1String("{MINY}"), miny);
    s.replace(QLatin1String("{MAXX}"), maxx).replace(QLatin1String("{MAXY}"), maxy);
    s.replace(QLatin1String("{WIDTH}"), QString::number(width)).replace(QLatin1String("{HEIGHT}"), QString::number(height));
    s.replace(QLatin1String("{SEQ}"), QString::number(seq));
    return s;
}

std::optional<HttpTarget> UrlTemplate::target() const
{
    const auto a = splitAuthority(fill({0, 0, 1, 1}, 1, 1, 0));
    if (!a) return std::nullopt;
    return HttpTarget{a->host, a->port};
}

QByteArray UrlTemplate::pathAndQuery(const QString& url)
{
    const auto a = splitAuthority(url);
    if (!a) return {};
    QByteArray rest = url.mid(a->pathStart).toUtf8();
    if (!rest.startsWith('/')) rest.prepend('/');
    return rest;
}

Status UrlTemplate::check(bool allowRemote) const
{
    if (!m_text.contains(QLatin1String("{BBOX}")) && !m_text.contains(QLatin1String("{MINX}")))
        return Error(QStringLiteral("URL template '%1' has no {BBOX} (or {MINX}..{MAXY}) placeholder").arg(m_text));
    if (!m_text.startsWith(kScheme, Qt::CaseInsensitive))
        return Error(QStringLiteral("only http:// URLs are supported: '%1'").arg(m_text));
    const auto t = target();
    if (!t) return Error(QStringLiteral("cannot read host and port from '%1'").arg(m_text));
    if (!allowRemote && !isLoopbackHost(t->host))
        return Error(QStringLiteral(
                         "refusing non-loopback target '%1' (load tests are loopback only; --allow-remote to override)")
                         .arg(t->host));
    return {};
}

}  // namespace maptune
