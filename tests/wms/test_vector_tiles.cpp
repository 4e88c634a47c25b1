// Mapbox vector tiles: the geometry encoding (commands, clipping, ring
// winding) against hand-worked examples, and whole tiles read back through
// GDAL's own MVT reader, an implementation independent of ours.

#include "encode/protobuf_writer.h"
#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "wms/vector_tile_geometry.h"
#include "wms/wms_service.h"

#include <cpl_vsi.h>
#include <gdal_priv.h>
#include <ogrsf_frmts.h>

#include <QTest>

#include "geometry_builder.h"

using namespace maptune;

namespace {

using testing::geometry;

// The command stream back to absolute vertices, one list per MoveTo.
QList<QList<QPointF>> decode(const std::vector<std::uint32_t>& commands)
{
    QList<QList<QPointF>> parts;
    long x = 0, y = 0;
    for (size_t i = 0; i < commands.size();) {
        const std::uint32_t id = commands[i] & 7, count = commands[i] >> 3;
        ++i;
        if (id == 7) continue;
        if (id == 1) parts.append(QList<QPointF>());
        for (std::uint32_t k = 0; k < count; ++k, i += 2) {
            x += long(commands[i] >> 1) ^ -long(commands[i] & 1);
            y += long(commands[i + 1] >> 1) ^ -long(commands[i + 1] & 1);
            if (id == 1 && k > 0) parts.append(QList<QPointF>());
            parts.last().append(QPointF(x, y));
        }
    }
    return parts;
}

// The shoelace sum in tile coordinates (y down): > 0 is clockwise on screen.
double winding(const QList<QPointF>& ring)
{
    double sum = 0;
    for (int i = 0; i < ring.size(); ++i) {
        const QPointF a = ring[i], b = ring[(i + 1) % ring.size()];
        sum += a.x() * b.y() - b.x() * a.y();
    }
    return sum;
}

const Rect kBox{0, 0, 100, 100};

}  // namespace

class TestVectorTiles : public QObject {
    Q_OBJECT
    std::unique_ptr<WmsService> m_service;

    Response ask(const QString& query) const { return m_service->handle(WmsRequest::fromQueryString(query.toUtf8())); }

    Response worldTile(const QString& format) const
    {
        return ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:3857&BBOX=-20037508.34,-20037508.34,"
                                  "20037508.34,20037508.34&WIDTH=256&HEIGHT=256&STYLES=&LAYERS=zones,roads,towns,picture&FORMAT=")
                   + format);
    }

    // The tile read by GDAL as tile 0/0/0 (coordinates in EPSG:3857).
    static std::unique_ptr<GDALDataset> openTile(const QByteArray& bytes)
    {
        VSILFILE* f = VSIFileFromMemBuffer("/vsimem/test_tile.mvt", reinterpret_cast<GByte*>(const_cast<char*>(bytes.constData())),
                                           vsi_l_offset(bytes.size()), FALSE);
        VSIFCloseL(f);
        const char* drivers[] = {"MVT", nullptr};
        const char* options[] = {"X=0", "Y=0", "Z=0", "METADATA_FILE=", "CLIP=NO", nullptr};
        return std::unique_ptr<GDALDataset>(GDALDataset::Open("/vsimem/test_tile.mvt", GDAL_OF_VECTOR, drivers, options));
    }

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        LoadResult loaded = loadMapFile(QStringLiteral(MAPTUNE_TEST_DATA "/wms/vector_tiles.map"));
        QVERIFY2(loaded.ok(), "wms/vector_tiles.map must load");
        m_service = std::make_unique<WmsService>(loaded.map);
    }
    void cleanup() { VSIUnlink("/vsimem/test_tile.mvt"); }

    void protobufWireFormat()
    {
        ProtobufWriter w;
        w.varint(300);
        QCOMPARE(w.data(), QByteArray("\xac\x02"));
        ProtobufWriter s;
        s.sint64(6, -1);
        QCOMPARE(s.data(), QByteArray("\x30\x01"));
        ProtobufWriter i;
        i.int64(4, -1);
        QCOMPARE(i.data().size(), 11);  // the key and ten bytes
        ProtobufWriter p;
        p.packed(2, {});
        QVERIFY(p.data().isEmpty());
    }

    // y flips; vertices are truncated onto the grid and written as zigzag deltas.
    void lineCommands()
    {
        const Geometry line = geometry(Geometry::Type::Line, {{0, 100, 10.9, 99.5, 10.2, 99.1}});
        const std::vector<std::uint32_t> c = encodeTileGeometry(line, TileGeometryType::Line, kBox, 100, 0);
        // (0,0) then (10,1): the third vertex truncates onto the second and is dropped.
        const std::vector<std::uint32_t> expected{1 | 1 << 3, 0, 0, 2 | 1 << 3, 20, 2};
        QCOMPARE(c, expected);
    }

    // A line leaving the tile and coming back is cut into two parts at the edge.
    void lineLeavingTheTileIsSplit()
    {
        const Geometry line = geometry(Geometry::Type::Line, {{50, 50, 150, 50, 150, 40, 50, 40}});
        const QList<QList<QPointF>> parts = decode(encodeTileGeometry(line, TileGeometryType::Line, kBox, 100, 0));
        QCOMPARE(parts.size(), 2);
        QCOMPARE(parts[0], (QList<QPointF>{{50, 50}, {100, 50}}));
        QCOMPARE(parts[1], (QList<QPointF>{{100, 60}, {50, 60}}));
    }

    // Outer rings come out clockwise on screen, holes counter-clockwise,
    // whatever their winding on the map.
    void ringWinding()
    {
        const Geometry polygon = geometry(Geometry::Type::Polygon, {{10, 10, 90, 10, 90, 90, 10, 90, 10, 10},
                                                                     {30, 30, 60, 30, 60, 60, 30, 60, 30, 30}});
        const QList<QList<QPointF>> rings = decode(encodeTileGeometry(polygon, TileGeometryType::Polygon, kBox, 100, 0));
        QCOMPARE(rings.size(), 2);
        QCOMPARE(rings[0].size(), 4);  // the closing vertex is implied by ClosePath
        QVERIFY(winding(rings[0]) > 0);
        QVERIFY(winding(rings[1]) < 0);
    }

    // A ring whose third vertex is less than a grid unit off its base is dropped.
    void sliverTriangleIsDropped()
    {
        const Geometry sliver = geometry(Geometry::Type::Polygon, {{10, 10, 90, 10, 50, 10.5, 10, 10}});
        QVERIFY(encodeTileGeometry(sliver, TileGeometryType::Polygon, kBox, 100, 0).empty());
    }

    void pointsShareOneMoveTo()
    {
        const Geometry points = geometry(Geometry::Type::Point, {{1, 99, 3, 99}});
        const std::vector<std::uint32_t> c = encodeTileGeometry(points, TileGeometryType::Point, kBox, 100, 0);
        const std::vector<std::uint32_t> expected{1 | 2 << 3, 2, 2, 4, 0};
        QCOMPARE(c, expected);
    }

    // A square over the rectangle's corner keeps the corner and its inside quarter.
    void polygonClipKeepsTheCorner()
    {
        const std::vector<TileLine> square{{{-10, -10}, {10, -10}, {10, 10}, {-10, 10}, {-10, -10}}};
        const std::vector<TileLine> clipped = clipPolygonRect(square, {0, 0, 100, 100});
        QCOMPARE(clipped.size(), size_t(1));
        const TileLine& ring = clipped[0];
        QCOMPARE(ring.front().x, ring.back().x);
        QCOMPARE(ring.front().y, ring.back().y);
        double area = 0;
        for (size_t i = 0; i + 1 < ring.size(); ++i) {
            QVERIFY(ring[i].x >= 0 && ring[i].x <= 10 && ring[i].y >= 0 && ring[i].y <= 10);
            area += ring[i].x * ring[i + 1].y - ring[i + 1].x * ring[i].y;
        }
        QCOMPARE(std::abs(area) / 2, 100.0);
    }

    // A whole tile read back by GDAL: layers, typed attributes, holes, the
    // clipped line, the FILTER; the raster layer is left out.
    void wholeTileReadByGdal()
    {
        const Response r = worldTile(QStringLiteral("mvt"));
        QCOMPARE(r.contentType(), QByteArray("application/vnd.mapbox-vector-tile"));
        const std::unique_ptr<GDALDataset> ds = openTile(r.body);
        QVERIFY2(ds, CPLGetLastErrorMsg());
        QCOMPARE(ds->GetLayerCount(), 3);

        OGRLayer* zones = ds->GetLayerByName("zones");
        QVERIFY(zones);
        std::unique_ptr<OGRFeature> zone(zones->GetNextFeature());
        QVERIFY(zone);
        QCOMPARE(QString::fromUtf8(zone->GetFieldAsString("label")), QStringLiteral("ring"));
        QCOMPARE(zone->GetFieldAsInteger64("pop"), GIntBig(1200));
        QCOMPARE(zone->GetFieldAsDouble("area"), 2.5);
        const OGRGeometry* g = zone->GetGeometryRef();
        // GDAL reads every polygon as a multipolygon.
        if (g && wkbFlatten(g->getGeometryType()) == wkbMultiPolygon && g->toMultiPolygon()->getNumGeometries() == 1)
            g = g->toMultiPolygon()->getGeometryRef(0);
        QVERIFY(g && wkbFlatten(g->getGeometryType()) == wkbPolygon);
        QCOMPARE(g->toPolygon()->getNumInteriorRings(), 1);
        OGREnvelope env;
        g->getEnvelope(&env);
        const double cell = 2 * 20037508.34 / 4096;
        QVERIFY(std::abs(env.MinX + 1e7) <= cell && std::abs(env.MaxY - 1e7) <= cell);

        OGRLayer* roads = ds->GetLayerByName("roads");
        std::unique_ptr<OGRFeature> road(roads->GetNextFeature());
        QVERIFY(road);
        road->GetGeometryRef()->getEnvelope(&env);
        // The default EDGE_BUFFER: 10 pixels of 16 grid units past the tile's edge.
        const double buffer = 10 * 16 * cell;
        QVERIFY2(std::abs(env.MaxX - (20037508.34 + buffer)) <= cell, QByteArray::number(env.MaxX).constData());

        OGRLayer* towns = ds->GetLayerByName("towns");
        QCOMPARE(towns->GetFeatureCount(), GIntBig(1));
        std::unique_ptr<OGRFeature> town(towns->GetNextFeature());
        QCOMPARE(QString::fromUtf8(town->GetFieldAsString("name")), QStringLiteral("shown"));
    }

    // FORMAT by the other MIME type; an OUTPUTFORMAT with its own grid and buffer.
    void formatsAndOptions()
    {
        const Response x = worldTile(QStringLiteral("application/x-protobuf"));
        QCOMPARE(x.contentType(), QByteArray("application/x-protobuf"));
        QCOMPARE(x.body, worldTile(QStringLiteral("mvt")).body);
        const Response small = worldTile(QStringLiteral("small"));
        QCOMPARE(small.contentType(), QByteArray("application/vnd.mapbox-vector-tile"));
        QVERIFY(small.body.contains(QByteArray("\x28\x80\x02\x78\x02", 5)));  // extent 256, version 2
        const std::unique_ptr<GDALDataset> ds = openTile(small.body);
        QVERIFY(ds);
        std::unique_ptr<OGRFeature> road(ds->GetLayerByName("roads")->GetNextFeature());
        OGREnvelope env;
        road->GetGeometryRef()->getEnvelope(&env);
        QVERIFY2(std::abs(env.MaxX - 20037508.34) < 1, QByteArray::number(env.MaxX).constData());  // EDGE_BUFFER=0
        const Response flat = worldTile(QStringLiteral("flat"));
        QVERIFY2(flat.body.contains("ServiceException") && flat.body.contains("EXTENT=0"), flat.body.constData());
    }

    // mapserv's mode=tile gives the WMS tile's bytes; mode=map cannot draw MVT.
    void mapservModes()
    {
        const Response tile = ask(QStringLiteral("mode=tile&tilemode=gmap&tile=0+0+0&layers=all&imagetype=mvt"));
        QCOMPARE(tile.contentType(), QByteArray("application/vnd.mapbox-vector-tile"));
        QCOMPARE(tile.body, worldTile(QStringLiteral("mvt")).body);
        const Response map = ask(QStringLiteral("mode=map&layers=all&imagetype=mvt"));
        QVERIFY2(map.body.contains("createImage not implemented"), map.body.constData());
    }
};

QTEST_GUILESS_MAIN(TestVectorTiles)
#include "test_vector_tiles.moc"
