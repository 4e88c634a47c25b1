// mapserv's template language: the input is a template, expanded as a page
// (with result sets) and as one feature's text over a fixed map, fixed query
// results and a fixed request. Values carry markup, format strings and
// brackets so that escaping and tag parsing meet them.

#include "fuzz_targets.h"

#include "mapfile/map_loader.h"
#include "wms/mapserv/query_template.h"

#include <QString>

namespace maptune::fuzz {

namespace {

struct Fixture {
    MapDefPtr map;
    CgiQueryResults results;
    WmsRequest request;
};

const Fixture& fixture()
{
    static const Fixture f = [] {
        Fixture out;
        // No file is ever found next to this map: [include] reads nothing.
        LoadResult loaded = parseMapText("MAP NAME 'fuzz' EXTENT 0 0 100 100 SIZE 100 100 "
                                         "LAYER NAME 'areas' TYPE POLYGON STATUS ON TEMPLATE 'x.html' END END",
                                         QStringLiteral("/nonexistent/fuzz/fuzz.map"));
        out.map = loaded.map;
        QueryLayerResult layer;
        layer.layer = 0;
        layer.selected.fields = {QStringLiteral("name"), QStringLiteral("code"), QStringLiteral("NUM")};
        layer.selected.searched = true;
        const QList<QStringList> rows = {{QStringLiteral("<b>\"A\" & 'b'</b>"), QStringLiteral("%s%n[item]"), QStringLiteral("1234567.891")},
                                         {QString(), QStringLiteral("]]>[/feature]"), QStringLiteral("-0")}};
        qint64 id = 0;
        for (const QStringList& values : rows) {
            Feature feature;
            feature.id = id++;
            feature.geometry = geometryFromWkt(QStringLiteral("POLYGON((0 0,10 0,10 10,0 10,0 0))")).valueOr(Geometry());
            feature.values = values;
            layer.selected.features << feature;
            layer.selected.classes << -1;
            layer.selected.distances << 0.0;
        }
        out.results.layers << layer;
        out.results.extent = Rect{0, 0, 100, 100};
        out.results.width = out.results.height = 100;
        out.results.layersOn = {0};
        out.request = WmsRequest::fromQueryString("mode=nquery&qlayer=areas&qstring=%3Cscript%3E&map=fuzz");
        return out;
    }();
    return f;
}

}  // namespace

int queryTemplate(const uint8_t* data, size_t size)
{
    const Fixture& f = fixture();
    if (!f.map) return -1;
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    const TemplateContext ctx{*f.map, f.results, f.request, size % 2 == 0};
    const Result<QString> page = processPageTemplate(text, ctx);
    check(page || !page.message().isEmpty(), "a failed page says why");
    for (int i = 0; i < f.results.layers.first().selected.features.size(); ++i) {
        const Result<QString> one = processFeatureTemplate(text, ctx, TemplateFeature{f.results.layers.first(), i, i + 1, i + 1});
        check(one || !one.message().isEmpty(), "a failed feature text says why");
    }
    return 0;
}

}  // namespace maptune::fuzz
