// The SVG writer: cairo's numbers, cairo's path rules (1/256 grid, merged
// collinear segments, closes followed by a move back), the style attribute
// of fills, strokes and both, images as embedded PNGs.

#include "encode/svg_writer.h"
#include "encode/vector_surface.h"

#include <QPainter>
#include <QRegularExpression>
#include <QtTest>

using namespace maptune;

namespace {

QPainterPath polyline(std::initializer_list<QPointF> points)
{
    QPainterPath path;
    bool first = true;
    for (const QPointF& p : points) {
        if (first) path.moveTo(p);
        else path.lineTo(p);
        first = false;
    }
    return path;
}

// The d attributes of the document's paths, in order.
QStringList pathData(const QByteArray& svg)
{
    QStringList out;
    static const QRegularExpression d(QStringLiteral("<path style=\"[^\"]*\" d=\"([^\"]*)\"/>"));
    for (auto it = d.globalMatch(QString::fromUtf8(svg)); it.hasNext();) out << it.next().captured(1);
    return out;
}

QByteArray written(const QList<VectorItem>& items, std::optional<QColor> background = std::nullopt)
{
    VectorSurface surface(QSize(20, 10));
    surface.setBackground(background);
    for (const VectorItem& item : items) surface.add(item);
    return writeSvg(surface);
}

VectorItem stroke(const QPainterPath& path, QPen pen = QPen(Qt::black, 1))
{
    VectorItem item;
    item.path = path;
    item.stroke = pen;
    return item;
}

}  // namespace

class TestSvgWriter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void numbersAsCairoPrintsThem_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("integer") << 1.0 << QByteArray("1");
        QTest::newRow("half") << 0.5 << QByteArray("0.5");
        QTest::newRow("fixed grid") << 161.984375 << QByteArray("161.984375");
        QTest::newRow("six decimals, half to even") << 16.5859375 << QByteArray("16.585938");
        QTest::newRow("small keeps six significant") << 0.0390625 << QByteArray("0.0390625");
        QTest::newRow("tiny") << 0.001 << QByteArray("0.001");
        QTest::newRow("negative zero") << -0.0 << QByteArray("0");
        QTest::newRow("negative") << -49.25 << QByteArray("-49.25");
        QTest::newRow("percent of 200") << 200 / 255.0 * 100 << QByteArray("78.431373");
    }
    void numbersAsCairoPrintsThem()
    {
        QFETCH(double, value);
        QTEST(cairoNumber(value), "text");
    }

    void pathRules_data()
    {
        QTest::addColumn<QPainterPath>("path");
        QTest::addColumn<bool>("closeRings");
        QTest::addColumn<QString>("d");
        QTest::newRow("collinear segments merge") << polyline({{0, 0}, {1, 0}, {2, 0}, {2, 1}}) << false
                                                  << QStringLiteral("M 0 0 L 2 0 L 2 1 ");
        QTest::newRow("a turn back is kept") << polyline({{0, 0}, {2, 0}, {1, 0}}) << false << QStringLiteral("M 0 0 L 2 0 L 1 0 ");
        QTest::newRow("a degenerate first segment goes") << polyline({{0, 0}, {0, 0}, {1, 1}}) << false
                                                         << QStringLiteral("M 0 0 L 1 1 ");
        QTest::newRow("on the 1/256 grid") << polyline({{0.3, 0}, {1, 1}}) << false << QStringLiteral("M 0.300781 0 L 1 1 ");
        QTest::newRow("held at the fixed-point limit") << polyline({{1e12, 0}, {1, 1}}) << false
                                                       << QStringLiteral("M 8388607 0 L 1 1 ");
        QTest::newRow("a stroked ring stays open") << polyline({{0, 0}, {4, 0}, {4, 4}, {0, 0}}) << false
                                                   << QStringLiteral("M 0 0 L 4 0 L 4 4 L 0 0 ");
        QTest::newRow("a closed ring: Z and a move back") << polyline({{0, 0}, {4, 0}, {4, 4}, {0, 0}}) << true
                                                          << QStringLiteral("M 0 0 L 4 0 L 4 4 Z M 0 0 ");
        QPainterPath two = polyline({{0, 0}, {4, 0}, {4, 4}, {0, 0}});
        two.addPath(polyline({{10, 0}, {14, 0}, {14, 4}, {10, 0}}));
        QTest::newRow("two rings: only the last move stays") << two << true
                                                             << QStringLiteral("M 0 0 L 4 0 L 4 4 Z M 10 0 L 14 0 L 14 4 Z M 10 0 ");
        QPainterPath curve;
        curve.moveTo(2, 0);
        curve.cubicTo(2, 1, 1, 2, 0, 2);
        QTest::newRow("curves") << curve << false << QStringLiteral("M 2 0 C 2 1 1 2 0 2 ");
    }
    void pathRules()
    {
        QFETCH(QPainterPath, path);
        QFETCH(bool, closeRings);
        VectorItem item = stroke(path);
        item.closeRings = closeRings;
        const QStringList d = pathData(written({item}));
        QCOMPARE(d.size(), 1);
        QTEST(d.first(), "d");
    }

    void stylesOfFillsAndStrokes()
    {
        VectorItem fill;
        fill.path = polyline({{0, 0}, {4, 0}, {4, 4}});
        fill.fill = QColor(255, 0, 0, 51);
        QPen dashed(QColor(0, 0, 255), 3, Qt::CustomDashLine, Qt::FlatCap, Qt::RoundJoin);
        dashed.setDashPattern({4, 2});  // in widths: 12 and 6 pixels
        VectorItem both = fill;
        both.fill = QColor(200, 200, 200);
        both.evenOdd = false;
        both.stroke = QPen(Qt::black, 1, Qt::SolidLine, Qt::RoundCap, Qt::BevelJoin);
        const QByteArray svg = written({fill, stroke(fill.path, dashed), both}, QColor(255, 255, 255));
        QVERIFY(svg.contains("<rect x=\"0\" y=\"0\" width=\"20\" height=\"10\" style=\"fill:rgb(100%,100%,100%);fill-opacity:1;stroke:none;\"/>"));
        QVERIFY(svg.contains("<path style=\" stroke:none;fill-rule:evenodd;fill:rgb(100%,0%,0%);fill-opacity:0.2;\""));
        QVERIFY(svg.contains("<path style=\"fill:none;stroke-width:3;stroke-linecap:butt;stroke-linejoin:round;stroke:rgb(0%,0%,100%);"
                             "stroke-opacity:1;stroke-dasharray:12,6;stroke-miterlimit:10;\""));
        QVERIFY(svg.contains("<path style=\"fill-rule:nonzero;fill:rgb(78.431373%,78.431373%,78.431373%);fill-opacity:1;stroke-width:1;"
                             "stroke-linecap:round;stroke-linejoin:bevel;"));
        QVERIFY(svg.startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
        QVERIFY(svg.contains("width=\"20pt\" height=\"10pt\" viewBox=\"0 0 20 10\""));
        QVERIFY(!written({fill}).contains("<rect"));  // transparent: no background
    }

    void imagesAreEmbeddedPngs()
    {
        VectorSurface surface(QSize(20, 10));
        QImage tile(6, 4, QImage::Format_ARGB32_Premultiplied);
        tile.fill(QColor(0, 128, 0));
        {
            QPainter p(&surface);
            p.drawImage(QPointF(3, 2), tile);
        }
        const QByteArray svg = writeSvg(surface);
        static const QRegularExpression image(QStringLiteral("<image x=\"3\" y=\"2\" width=\"6\" height=\"4\" xlink:href=\"data:image/png;base64,([^\"]+)\"/>"));
        const QRegularExpressionMatch m = image.match(QString::fromUtf8(svg));
        QVERIFY2(m.hasMatch(), svg.constData());
        const QImage decoded = QImage::fromData(QByteArray::fromBase64(m.captured(1).toLatin1()), "PNG");
        QCOMPARE(decoded.size(), QSize(6, 4));
        QCOMPARE(QColor(decoded.pixel(2, 2)), QColor(0, 128, 0));
    }

    void stateCarriesAsCairosDoes()
    {
        VectorSurface surface(QSize(20, 10));
        QPainter p(&surface);
        const QPainterPath shape = polyline({{0, 0}, {4, 0}, {4, 4}, {0, 0}});
        surface.paintSymbol(p, shape, QColor(Qt::red), std::nullopt);  // before any polygon: non-zero
        surface.fillPolygon(p, shape, QColor(Qt::green));               // even-odd from here on, rings closed
        surface.strokeLine(p, shape, QPen(Qt::blue, 2, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
        surface.paintSymbol(p, shape, std::nullopt, QPen(Qt::black, 1, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.end();
        const QList<VectorItem>& items = surface.items();
        QCOMPARE(items.size(), 4);
        QVERIFY(!items[0].evenOdd);
        QVERIFY(items[1].evenOdd && items[1].closeRings);
        QVERIFY(!items[2].closeRings);
        // The symbol's outline takes the last line's caps and joins.
        QCOMPARE(items[3].stroke->capStyle(), Qt::FlatCap);
        QCOMPARE(items[3].stroke->joinStyle(), Qt::MiterJoin);
    }
};

QTEST_MAIN(TestSvgWriter)
#include "test_svg_writer.moc"
