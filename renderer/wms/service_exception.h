#pragma once
// OGC WMS service exceptions in MapServer's forms (msWMSException): the XML
// ServiceExceptionReport of WMS 1.1.0, 1.1.1 (DTD, application/vnd.ogc.se_xml)
// and 1.3.0 (namespace + schemaLocation, text/xml), or an INIMAGE/BLANK image.

#include "mapfile/map_def.h"
#include "wms/response.h"

#include <QString>

#include <optional>

namespace maptune {

// A WMS version as MapServer encodes it: major*10000 + minor*100 + patch.
enum WmsVersion : int {
    WmsVersionNotSet = -1,
    WmsVersionBad = -2,
    Wms100 = 10000,
    Wms107 = 10007,
    Wms110 = 10100,
    Wms111 = 10101,
    Wms130 = 10300,
};

// "1.3.0" or "1.3" → 10300; absent → WmsVersionNotSet; malformed → WmsVersionBad.
int parseWmsVersion(const std::optional<QString>& text);
QString wmsVersionString(int version);

// Escapes text for XML and HTML (&, <, >, both quotes); characters XML 1.0
// cannot carry (control characters, U+FFFE/FFFF) become U+FFFD.
QString markupEscape(const QString& text);

struct WmsError {
    QString code;      // empty: no code attribute
    QString message;
};

struct ExceptionImageSize {
    int width = -1;    // -1: the map SIZE
    int height = -1;
};

// The exception in the form EXCEPTIONS asks for (absent: the version's XML form).
Response serviceException(const MapDef& map, int version, const WmsError& error,
                          const std::optional<QString>& exceptionsFormat,
                          ExceptionImageSize size = {});

}  // namespace maptune
