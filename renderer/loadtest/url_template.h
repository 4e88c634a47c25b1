#pragma once
// A GetMap URL with placeholders, as ../shared/bench uses them:
// {BBOX} (minx,miny,maxx,maxy), {MINX} {MINY} {MAXX} {MAXY}, {WIDTH}
// {HEIGHT}, {SEQ} (request index). Numbers are written as benchlib writes
// them (%.8f without trailing zeros), so both tools send identical URLs.

#include "core/result.h"
#include "loadtest/bbox_spec.h"

#include <QString>

#include <optional>

namespace maptune {

struct HttpTarget {
    QString host;      // without brackets for IPv6
    int port = 80;
};

class UrlTemplate {
public:
    explicit UrlTemplate(QString text) : m_text(std::move(text)) {}

    const QString& text() const { return m_text; }

    // An error when the template has no bbox placeholder, is not http://, or
    // names a host other than 127.0.0.1, localhost or ::1 (unless allowRemote).
    Status check(bool allowRemote = false) const;

    QString fill(const Bbox& bbox, int width, int height, qint64 seq) const;
    // Host and port; nullopt when the URL is not http://host[:port]/...
    std::optional<HttpTarget> target() const;
    // The request target ("/path?query") of a filled URL, bytes as written.
    static QByteArray pathAndQuery(const QString& url);

    static QString formatNumber(double v);
    static bool isLoopbackHost(const QString& host);

private:
    QString m_text;
};

}  // namespace maptune
