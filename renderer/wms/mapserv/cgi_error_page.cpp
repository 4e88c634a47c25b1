#include "wms/mapserv/cgi_error_page.h"

#include "wms/service_exception.h"

namespace maptune {

namespace {

const QLatin1String kPageStart("<HTML>\n<HEAD><TITLE>MapServer Message</TITLE></HEAD>\n"
                               "<!-- MapServer version 8.0.0 (MapTune) -->\n<BODY BGCOLOR=\"#FFFFFF\">\n");
const QLatin1String kPageEnd("</BODY></HTML>");

QString errorLines(const QStringList& errors)
{
    QString lines;
    for (const QString& e : errors) {
        lines += markupEscape(e);
        lines += QLatin1Char('\n');
    }
    return lines;
}

}  // namespace

Response withEarlierErrors(Response response, const QStringList& earlier)
{
    if (earlier.isEmpty() || response.contentType() != "text/html" || !response.body.startsWith(QByteArray(kPageStart.data()))
        || !response.body.endsWith(QByteArray(kPageEnd.data())))
        return response;
    response.body.chop(kPageEnd.size());
    response.body += errorLines(earlier).toUtf8() + QByteArray(kPageEnd.data());
    return response;
}

Response cgiErrorPage(const QStringList& errors)
{
    QString page = kPageStart + errorLines(errors) + kPageEnd;
    Response r;
    r.body = page.toUtf8();
    r.setContentType("text/html");
    return r;
}

}  // namespace maptune
