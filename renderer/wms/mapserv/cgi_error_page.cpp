#include "wms/mapserv/cgi_error_page.h"

#include "wms/service_exception.h"

namespace maptune {

Response cgiErrorPage(const QStringList& errors)
{
    QString page = QStringLiteral("<HTML>\n<HEAD><TITLE>MapServer Message</TITLE></HEAD>\n"
                                  "<!-- MapServer version 8.0.0 (MapTune) -->\n<BODY BGCOLOR=\"#FFFFFF\">\n");
    for (const QString& e : errors) {
        page += markupEscape(e);
        page += QLatin1Char('\n');
    }
    page += QLatin1String("</BODY></HTML>");
    Response r;
    r.body = page.toUtf8();
    r.setContentType("text/html");
    return r;
}

}  // namespace maptune
