// An OGR CONNECTION that is a VRT document: its SrcDataSources found (for
// the data roots) and made absolute against the mapfile's folder (for OGR).

#include "mapfile/inline_vrt.h"

#include <QTest>

using namespace maptune;

class TestInlineVrt : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recognises()
    {
        QVERIFY(isInlineVrt(QStringLiteral("  <OGRVRTDataSource><OGRVRTLayer/></OGRVRTDataSource>")));
        QVERIFY(!isInlineVrt(QStringLiteral("data/x.vrt")));
        QVERIFY(!isInlineVrt(QStringLiteral("<GDAL_WMS/>")));
    }

    void sources()
    {
        const QString vrt = QStringLiteral(
            "<OGRVRTDataSource><OGRVRTLayer name=\"a\"><SrcDataSource relativeToVRT=\"0\">data/a&amp;b</SrcDataSource></OGRVRTLayer>"
            "<OGRVRTLayer name=\"b\"><SrcDataSource>/abs/b.shp</SrcDataSource></OGRVRTLayer>"
            "<OGRVRTLayer name=\"c\"><SrcDataSource>PG:dbname=x</SrcDataSource></OGRVRTLayer></OGRVRTDataSource>");
        QCOMPARE(inlineVrtSources(vrt), QStringList({"data/a&b", "/abs/b.shp", "PG:dbname=x"}));
        const QString absolute = withAbsoluteVrtSources(vrt, QStringLiteral("/maps/here"));
        QCOMPARE(inlineVrtSources(absolute), QStringList({"/maps/here/data/a&b", "/abs/b.shp", "PG:dbname=x"}));
        QVERIFY(absolute.contains(QStringLiteral("<SrcDataSource>/maps/here/data/a&amp;b</SrcDataSource>")));
        QVERIFY(absolute.startsWith(QStringLiteral("<OGRVRTDataSource><OGRVRTLayer name=\"a\">")));
        QVERIFY(absolute.endsWith(QStringLiteral("</OGRVRTLayer></OGRVRTDataSource>")));
        // "..": made absolute and cleaned, so the data roots see where it goes.
        QCOMPARE(inlineVrtSources(withAbsoluteVrtSources(QStringLiteral("<OGRVRTDataSource><SrcDataSource>../x.shp</SrcDataSource></OGRVRTDataSource>"),
                                                         QStringLiteral("/maps/here"))),
                 QStringList({"/maps/x.shp"}));
        QVERIFY(inlineVrtSources(QStringLiteral("<OGRVRTDataSource/>")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestInlineVrt)
#include "test_inline_vrt.moc"
