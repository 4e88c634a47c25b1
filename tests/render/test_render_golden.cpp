// Golden images: the demo map (generated deterministically) rendered at a
// few views and formats, compared with references in tests/data/render/.
// Tolerance: a pixel differs when any channel differs by more than 24; at
// most 1% of pixels may differ (text antialiasing varies with FreeType
// versions; geometry and raster pixels must not). On failure the actual image
// and a difference mask are written next to the build for inspection.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/map_renderer.h"

#include <QtTest>

using namespace maptune;

namespace {

constexpr int kChannelTolerance = 24;
constexpr double kMaxDifferingFraction = 0.01;

struct Diff {
    double fraction = 1;
    QImage mask;
};

Diff compareImages(const QImage& a0, const QImage& b0)
{
    Diff d;
    const QImage a = a0.convertToFormat(QImage::Format_ARGB32);
    const QImage b = b0.convertToFormat(QImage::Format_ARGB32);
    if (a.size() != b.size()) return d;
    d.mask = QImage(a.size(), QImage::Format_RGB32);
    qint64 differing = 0;
    for (int y = 0; y < a.height(); ++y) {
        const QRgb* ra = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const QRgb* rb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        QRgb* rm = reinterpret_cast<QRgb*>(d.mask.scanLine(y));
        for (int x = 0; x < a.width(); ++x) {
            const int dm = std::max({std::abs(qRed(ra[x]) - qRed(rb[x])), std::abs(qGreen(ra[x]) - qGreen(rb[x])),
                                     std::abs(qBlue(ra[x]) - qBlue(rb[x])), std::abs(qAlpha(ra[x]) - qAlpha(rb[x]))});
            const bool differs = dm > kChannelTolerance;
            differing += differs;
            rm[x] = differs ? qRgb(255, 0, 0) : qRgb(dm * 4, dm * 4, dm * 4);
        }
    }
    d.fraction = double(differing) / (qint64(a.width()) * a.height());
    return d;
}

}  // namespace

class TestRenderGolden : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        QVERIFY(m_demo.isValid());
        QCOMPARE(QProcess::execute(QStringLiteral(MAPTUNE_DEMO_DATA), {m_demo.path()}), 0);
        LoadResult r = loadMapFile(m_demo.filePath("demo.map"));
        QVERIFY2(r.ok(), r.diagnostics.isEmpty() ? "" : qPrintable(r.diagnostics.first().toString()));
        m_map = r.map;
    }

    void demo_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("layers");
        QTest::addColumn<QString>("format");
        QTest::addColumn<double>("zoom");   // fraction of the map extent
        QTest::addColumn<double>("shift");  // centre moved east by this fraction of the extent
        QTest::newRow("all layers") << "demo_all" << "" << "png" << 1.0 << 0.0;
        QTest::newRow("raster with LUT") << "demo_ortho" << "ortho" << "png" << 0.5 << 0.0;
        QTest::newRow("vectors zoomed") << "demo_vectors" << "roads,buildings" << "png" << 0.3 << 0.35;
        QTest::newRow("png8 palette") << "demo_png8" << "" << "png8" << 1.0 << 0.0;
    }
    void demo()
    {
        QFETCH(QString, name);
        QFETCH(QString, layers);
        QFETCH(QString, format);
        QFETCH(double, zoom);
        QFETCH(double, shift);
        RenderRequest req;
        req.width = 320;
        req.height = 240;
        req.format = format;
        if (!layers.isEmpty()) {
            req.layers = layers.split(',');
            req.layersGiven = true;
        }
        const Rect e = m_map->extent;
        const double cx = (e.minx + e.maxx) / 2 + shift * e.width(), cy = (e.miny + e.maxy) / 2;
        const double hw = e.width() * zoom / 2, hh = hw * 240 / 320;
        req.bbox = Rect{cx - hw, cy - hh, cx + hw, cy + hh};
        const RenderResult r = MapRenderer(m_map).render(req);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join('\n')));
        const QImage actual = QImage::fromData(r.bytes);
        QCOMPARE(actual.size(), QSize(320, 240));

        const QString golden = QStringLiteral(MAPTUNE_TEST_DATA "/render/%1.png").arg(name);
        if (qEnvironmentVariableIsSet("MAPTUNE_REGENERATE_GOLDEN")) {
            QVERIFY(actual.save(golden));
            QSKIP("golden image regenerated");
        }
        const QImage expected(golden);
        QVERIFY2(!expected.isNull(), qPrintable("missing golden image " + golden));
        const Diff d = compareImages(actual, expected);
        if (d.fraction > kMaxDifferingFraction) {
            const QString out = QStringLiteral(MAPTUNE_BINARY_DIR "/golden-failures");
            QDir().mkpath(out);
            actual.save(out + "/" + name + "_actual.png");
            d.mask.save(out + "/" + name + "_diff.png");
        }
        QVERIFY2(d.fraction <= kMaxDifferingFraction,
                 qPrintable(QStringLiteral("%1: %2% of pixels differ by more than %3 (see golden-failures/)")
                                .arg(name)
                                .arg(d.fraction * 100, 0, 'f', 3)
                                .arg(kChannelTolerance)));
    }

private:
    QTemporaryDir m_demo;
    MapDefPtr m_map;
};

QTEST_MAIN(TestRenderGolden)
#include "test_render_golden.moc"
