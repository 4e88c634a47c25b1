// The WMS query string as a client sends it: KVP decoding, then the GetMap /
// GetFeatureInfo parameter checks against a small inline map. GetCapabilities
// requests go through the whole service (no drawing, but everything echoed
// into XML); GetMap itself is not rendered (that is not parsing any more).

#include "fuzz_targets.h"

#include "mapfile/map_loader.h"
#include "wms/get_map_params.h"
#include "wms/wms_context.h"
#include "wms/wms_request.h"
#include "wms/wms_service.h"

#include <QGuiApplication>

namespace maptune::fuzz {

namespace {

const char* const kMap = R"(MAP
  NAME "fuzz"
  SIZE 200 100
  EXTENT 0 0 20 10
  UNITS DD
  MAXSIZE 4096
  PROJECTION "init=epsg:4326" END
  WEB
    METADATA
      "wms_title" "Fuzz <map> & co"
      "wms_onlineresource" "http://localhost/wms?"
      "wms_srs" "EPSG:4326 EPSG:3857 EPSG:32632"
      "ows_enable_request" "*"
      "wms_layerlimit" "3"
      "ows_updatesequence" "10"
    END
  END
  LAYER
    NAME "points" GROUP "grp" TYPE POINT STATUS ON TEMPLATE "query"
    METADATA "wms_title" "Points" "wms_layer_group" "/top/mid" END
    FEATURE POINTS 5 5 END END
    CLASS NAME "red" GROUP "reds" STYLE COLOR 255 0 0 SIZE 8 END END
    CLASS NAME "blue" GROUP "blues" STYLE COLOR 0 0 255 SIZE 8 END END
  END
  LAYER
    NAME "lines" TYPE LINE STATUS OFF
    PROJECTION "init=epsg:3857" END
    METADATA "wms_enable_request" "!GetMap" END
    FEATURE POINTS 1 1 9 9 END END
    CLASS STYLE COLOR 0 0 0 END END
  END
END
)";

const PreparedMap& fuzzMap()
{
    static const PreparedMapPtr map = PreparedMap::prepare(parseMapText(QByteArray(kMap), QString()).map);
    check(map != nullptr, "the fuzz map parses");
    return *map;
}

// Capabilities measure legend text, and Qt's fonts need a QGuiApplication.
void ensureGuiApplication()
{
    if (QCoreApplication::instance()) return;
    static int argc = 1;
    static char name[] = "fuzz_wms_request";
    static char* argv[] = {name, nullptr};
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static QGuiApplication* app = new QGuiApplication(argc, argv);  // for the process's lifetime
    Q_UNUSED(app);
}

}  // namespace

int wmsRequest(const uint8_t* data, size_t size)
{
    const PreparedMap& prepared = fuzzMap();
    const MapDef& map = prepared.map();
    const WmsRequest request =
        WmsRequest::fromQueryString(QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size)));
    for (const auto& [key, value] : request.params) check(!key.isEmpty(), "no empty keys");

    std::optional<QString> version = request.value(QStringLiteral("VERSION"));
    if (!version) version = request.value(QStringLiteral("WMTVER"));
    WmsContext ctx{prepared, map, request, parseWmsVersion(version), request.value(QStringLiteral("EXCEPTIONS"))};
    if (ctx.version == WmsVersionBad) ctx.version = WmsVersionNotSet;

    for (const bool isGetMap : {true, false}) {
        const GetMapParamsResult result =
            loadGetMapParams(ctx, isGetMap ? QStringLiteral("GetMap") : QStringLiteral("GetFeatureInfo"), isGetMap);
        if (!result.error) {
            check(result.params.width > 0 && result.params.height > 0, "accepted GetMap sizes are positive");
            for (int layer : result.params.layers)
                check(layer >= 0 && layer < map.layers.size(), "accepted layers exist");
        }
    }
    for (const char* key : {"SRS", "CRS"})
        if (const auto srs = request.value(QLatin1String(key))) crsAxisInverted(*srs);

    const QString op = request.value(QStringLiteral("REQUEST")).value_or(QString());
    if (op.compare(QLatin1String("GetCapabilities"), Qt::CaseInsensitive) == 0
        || op.compare(QLatin1String("capabilities"), Qt::CaseInsensitive) == 0) {
        ensureGuiApplication();
        static const WmsService service(parseMapText(QByteArray(kMap), QString()).map);
        check(!service.handle(request).body.isEmpty(), "capabilities or an exception come back");
    }
    return 0;
}

}  // namespace maptune::fuzz
