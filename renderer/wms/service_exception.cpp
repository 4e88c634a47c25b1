#include "wms/service_exception.h"

#include "encode/image_encoder.h"
#include "encode/output_format.h"

#include <QImage>
#include <QPainter>
#include <QRegularExpression>

namespace maptune {

int parseWmsVersion(const std::optional<QString>& text)
{
    if (!text) return WmsVersionNotSet;
    static const QRegularExpression re(QStringLiteral("^(\\d+)\\.(\\d+)(?:\\.(\\d+))?$"));
    const QRegularExpressionMatch m = re.match(text->trimmed());
    if (!m.hasMatch()) return WmsVersionBad;
    return m.captured(1).toInt() * 10000 + m.captured(2).toInt() * 100 + m.captured(3).toInt();
}

QString wmsVersionString(int version)
{
    return QStringLiteral("%1.%2.%3").arg(version / 10000).arg(version / 100 % 100).arg(version % 100);
}

QString markupEscape(const QString& s)
{
    QString out;
    out.reserve(s.size());
    for (QChar c : s) {
        switch (c.unicode()) {
        case '&': out += QLatin1String("&amp;"); break;
        case '<': out += QLatin1String("&lt;"); break;
        case '>': out += QLatin1String("&gt;"); break;
        case '"': out += QLatin1String("&quot;"); break;
        case '\'': out += QLatin1String("&#39;"); break;
        default:
            // Characters XML 1.0 cannot carry (control characters, U+FFFE/FFFF)
            // become U+FFFD so that the report stays well-formed.
            if ((c.unicode() < 0x20 && c != QLatin1Char('\t') && c != QLatin1Char('\n') && c != QLatin1Char('\r'))
                || c.unicode() == 0xFFFE || c.unicode() == 0xFFFF)
                out += QChar(0xFFFD);
            else
                out += c;
        }
    }
    return out;
}

namespace {

QString schemasLocation(const MapDef& map)
{
    QString loc = map.web.metadata.value(QStringLiteral("ows_schemas_location"))
                      .value_or(QStringLiteral("http://schemas.opengis.net"));
    return markupEscape(loc);
}

// msWriteErrorImage: the map-sized image in the map's format, the message
// drawn on it unless BLANK.
Response exceptionImage(const MapDef& map, const WmsError& error, bool blank, ExceptionImageSize size)
{
    const int w = size.width > 0 ? size.width : (map.width > 0 ? map.width : 400);
    const int h = size.height > 0 ? size.height : (map.height > 0 ? map.height : 300);
    // As MapServer: an IMAGETYPE that does not resolve draws in the built-in png.
    const ImageFormat format = defaultImageFormat(map).valueOr(fallbackImageFormat());
    QImage image(w, h, QImage::Format_ARGB32_Premultiplied);
    const Color bg = map.imageColor.isSet() ? map.imageColor : Color::rgb(255, 255, 255);
    image.fill(QColor(bg.r, bg.g, bg.b));
    if (!blank) {
        QPainter p(&image);
        p.setPen(Qt::black);
        QFont font;
        font.setPixelSize(10);
        p.setFont(font);
        p.drawText(QRect(5, 5, w - 10, h - 10), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, error.message);
    }
    Response r;
    // This already is the error response: should encoding fail (a size JPEG
    // cannot hold), the body stays empty as it always did.
    const ImageFormat& written = format.formatFor(image);
    r.body = encodeImage(image, written).valueOr(QByteArray());
    r.setContentType(written.mimeType.toUtf8());
    return r;
}

}  // namespace

// HTTP status rule (docs/WMS.md): an OGC exception -- XML report, INIMAGE or
// BLANK image -- is a successful HTTP exchange, status 200, as mapserv answers
// by default; clients tell it apart by its Content-Type (and the OGC tests
// expect exactly that). This includes a GetMap that ran over the server's time
// limit and was cancelled. Non-200 statuses belong to the transport
// (renderer/server), for what happens before a map's WMS is reached or instead
// of it: unknown map 404, overload 503 + Retry-After, URI too long 414, body
// too large 413, method not allowed 405, an internal error 500.
Response serviceException(const MapDef& map, int version, const WmsError& errorIn,
                          const std::optional<QString>& exceptionsFormat, ExceptionImageSize size)
{
    // mapserv keeps error messages in a MESSAGELENGTH (2048) buffer: echoed
    // values (a 100 KB LAYERS=...) are cut there too.
    WmsError error = errorIn;
    constexpr int kMessageLength = 2047;
    if (error.message.size() > kMessageLength) error.message.truncate(kMessageLength);
    if (version <= 0) version = Wms130;
    QString format = exceptionsFormat.value_or(QString());
    if (format.isEmpty()) format = version <= Wms111 ? QStringLiteral("application/vnd.ogc.se_xml")
                                                     : QStringLiteral("text/xml");
    const auto is = [&](const char* s) { return format.compare(QLatin1String(s), Qt::CaseInsensitive) == 0; };
    if (is("INIMAGE") || is("application/vnd.ogc.se_inimage")) return exceptionImage(map, error, false, size);
    if (is("BLANK") || is("application/vnd.ogc.se_blank")) return exceptionImage(map, error, true, size);

    const QString schemas = schemasLocation(map);
    QString xml = QStringLiteral("<?xml version='1.0' encoding=\"UTF-8\" standalone=\"no\" ?>\n");
    QByteArray type = "application/vnd.ogc.se_xml; charset=UTF-8";
    if (version <= Wms107) {
        type = "text/xml; charset=UTF-8";
        xml += QStringLiteral("<!DOCTYPE ServiceExceptionReport SYSTEM \"http://www.digitalearth.gov/wmt/xml/exception_1_0_1.dtd\">\n"
                              "<ServiceExceptionReport version=\"1.0.1\">\n");
    } else if (version <= Wms110) {
        xml += QStringLiteral("<!DOCTYPE ServiceExceptionReport SYSTEM \"%1/wms/1.1.0/exception_1_1_0.dtd\">\n"
                              "<ServiceExceptionReport version=\"1.1.0\">\n").arg(schemas);
    } else if (version <= Wms111) {
        xml += QStringLiteral("<!DOCTYPE ServiceExceptionReport SYSTEM \"%1/wms/1.1.1/exception_1_1_1.dtd\">\n"
                              "<ServiceExceptionReport version=\"1.1.1\">\n").arg(schemas);
    } else {
        if (!is("application/vnd.ogc.se_xml")) type = "text/xml; charset=UTF-8";
        xml += QStringLiteral("<ServiceExceptionReport version=\"1.3.0\" xmlns=\"http://www.opengis.net/ogc\" "
                              "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                              "xsi:schemaLocation=\"http://www.opengis.net/ogc %1/wms/1.3.0/exceptions_1_3_0.xsd\">\n")
                   .arg(schemas);
    }
    xml += error.code.isEmpty() ? QStringLiteral("<ServiceException>\n")
                                : QStringLiteral("<ServiceException code=\"%1\">\n").arg(markupEscape(error.code));
    xml += markupEscape(error.message) + QStringLiteral("\n</ServiceException>\n</ServiceExceptionReport>\n");
    Response r;
    r.status = 200;
    r.body = xml.toUtf8();
    r.setContentType(type);
    return r;
}

}  // namespace maptune
