#include "wms/mapserv/cgi_error_page.h"

namespace maptune {

QString htmlEntities(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        switch (c.unicode()) {
        case '&': out += QLatin1String("&amp;"); break;
        case '<': out += QLatin1String("&lt;"); break;
        case '>': out += QLatin1String("&gt;"); break;
        case '"': out += QLatin1String("&quot;"); break;
        case '\'': out += QLatin1String("&#39;"); break;
        default: out += c;
        }
    }
    return out;
}

Response cgiErrorPage(const QStringList& errors)
{
    QString page = QStringLiteral("<HTML>\n<HEAD><TITLE>MapServer Message</TITLE></HEAD>\n"
                                  "<!-- MapServer version 8.0.0 (MapTune) -->\n<BODY BGCOLOR=\"#FFFFFF\">\n");
    for (const QString& e : errors) {
        page += htmlEntities(e);
        page += QLatin1Char('\n');
    }
    page += QLatin1String("</BODY></HTML>");
    Response r;
    r.body = page.toUtf8();
    r.setContentType("text/html");
    return r;
}

}  // namespace maptune
