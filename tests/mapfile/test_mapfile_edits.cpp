// Structured edits keep every other byte of the text: each test compares
// the whole text after the edit with what a careful person would have typed.

#include "mapfile/map_loader.h"
#include "mapfile/syntax/mapfile_edits.h"

#include <QTest>

using namespace maptune;

namespace {

const QByteArray kMap = "MAP\n"
                        "  # the roads first\n"
                        "  LAYER\n"
                        "    NAME \"roads\"   # keep me\n"
                        "    TYPE LINE\n"
                        "    STATUS ON\n"
                        "    CLASS\n"
                        "      NAME \"main\"\n"
                        "      STYLE\n"
                        "        COLOR 255 0 0\n"
                        "        WIDTH 2\n"
                        "      END\n"
                        "    END\n"
                        "  END\n"
                        "  LAYER\n"
                        "    NAME \"rivers\"\n"
                        "    TYPE LINE\n"
                        "    CLASS\n"
                        "      STYLE COLOR 0 0 255 END\n"
                        "    END\n"
                        "  END\n"
                        "END\n";

QByteArray apply(const std::optional<TextEdit>& edit)
{
    if (!edit) return "(no edit)";
    return edit->applied(kMap);
}

}  // namespace

class TestMapfileEdits : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void statusReplacesOrAddsALine()
    {
        QByteArray expected = kMap;
        expected.replace("    STATUS ON\n", "    STATUS OFF\n");
        QCOMPARE(apply(setLayerStatus(kMap, QStringLiteral("roads"), QStringLiteral("off"))), expected);
        expected = kMap;
        expected.replace("    NAME \"rivers\"\n", "    NAME \"rivers\"\n    STATUS DEFAULT\n");
        QCOMPARE(apply(setLayerStatus(kMap, QStringLiteral("rivers"), QStringLiteral("DEFAULT"))), expected);
        QVERIFY(!setLayerStatus(kMap, QStringLiteral("nosuch"), QStringLiteral("ON")));
    }

    void moveLayerMovesItsLines()
    {
        const int roadsStart = kMap.indexOf("  LAYER\n");
        const int riversStart = kMap.indexOf("  LAYER\n", roadsStart + 1);
        const int riversEnd = kMap.lastIndexOf("  END\n") + 6;
        const QByteArray roads = kMap.mid(roadsStart, riversStart - roadsStart);
        const QByteArray rivers = kMap.mid(riversStart, riversEnd - riversStart);
        const QByteArray swapped = kMap.left(roadsStart) + rivers + roads + kMap.mid(riversEnd);
        QCOMPARE(apply(moveLayer(kMap, QStringLiteral("rivers"), QStringLiteral("roads"))), swapped);
        QCOMPARE(apply(moveLayer(kMap, QStringLiteral("roads"), QString())), swapped);
        QVERIFY(!moveLayer(kMap, QStringLiteral("roads"), QStringLiteral("roads")));
        const QByteArray moved = apply(moveLayer(kMap, QStringLiteral("roads"), QString()));
        QVERIFY(moved.contains("    NAME \"roads\"   # keep me\n"));  // comments travel with their layer
        QVERIFY(parseMapText(moved, QString()).ok());
    }

    void classesAreAddedDuplicatedRemoved()
    {
        const QByteArray cls = "    CLASS\n      NAME \"main\"\n      STYLE\n        COLOR 255 0 0\n        WIDTH 2\n"
                               "      END\n    END\n";
        QByteArray expected = kMap;
        expected.replace(cls, cls + cls);
        QCOMPARE(apply(duplicateClass(kMap, QStringLiteral("roads"), 0)), expected);
        expected = kMap;
        expected.replace(cls, "");
        QCOMPARE(apply(removeClass(kMap, QStringLiteral("roads"), 0)), expected);
        const QByteArray added = apply(addClass(kMap, QStringLiteral("rivers")));
        QVERIFY(added.contains("    END\n    CLASS\n      NAME \"new class\"\n      STYLE\n        COLOR 128 128 128\n"
                               "      END\n    END\n  END\nEND\n"));
        const LoadResult loaded = parseMapText(added, QString());
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.map->layers[1].classes.size(), 2);
        QVERIFY(!removeClass(kMap, QStringLiteral("roads"), 5));
    }

    void layoutsPeopleWrite()
    {
        // A comment after END: the block still owns its lines.
        const QByteArray commented = "MAP\n  LAYER\n    NAME \"a\"\n  END # LAYER a\n  LAYER\n    NAME \"b\"\n  END # LAYER b\nEND\n";
        const auto moved = moveLayer(commented, QStringLiteral("b"), QStringLiteral("a"));
        QVERIFY(moved);
        QCOMPARE(moved->applied(commented),
                 QByteArray("MAP\n  LAYER\n    NAME \"b\"\n  END # LAYER b\n  LAYER\n    NAME \"a\"\n  END # LAYER a\nEND\n"));
        // LAYER and NAME on one line: STATUS goes after NAME, indented by white space only.
        const QByteArray oneLine = "MAP\n  LAYER NAME \"a\"\n    TYPE POINT\n  END\nEND\n";
        QCOMPARE(setLayerStatus(oneLine, QStringLiteral("a"), QStringLiteral("ON"))->applied(oneLine),
                 QByteArray("MAP\n  LAYER NAME \"a\" STATUS ON\n    TYPE POINT\n  END\nEND\n"));
        const QByteArray packed = "MAP\n  LAYER NAME \"a\" TYPE POINT END\nEND\n";
        const QByteArray status = setLayerStatus(packed, QStringLiteral("a"), QStringLiteral("OFF"))->applied(packed);
        QCOMPARE(status, QByteArray("MAP\n  LAYER NAME \"a\" STATUS OFF TYPE POINT END\nEND\n"));
        QVERIFY(parseMapText(status, QString()).ok());
        // A layer that shares its lines with another is not moved (rather than half of it).
        QVERIFY(!moveLayer("MAP\n  LAYER NAME \"a\" END LAYER NAME \"b\" END\nEND\n", QStringLiteral("b"), QStringLiteral("a")));
    }

    void stylesOnOneLineOrMany()
    {
        QByteArray expected = kMap;
        expected.replace("      STYLE COLOR 0 0 255 END\n", "      STYLE COLOR 0 0 255 END\n      STYLE COLOR 0 0 255 END\n");
        QCOMPARE(apply(duplicateStyle(kMap, QStringLiteral("rivers"), 0, 0)), expected);
        expected = kMap;
        expected.replace("        COLOR 255 0 0\n", "        COLOR 10 20 30\n");
        QCOMPARE(apply(setStyleValue(kMap, QStringLiteral("roads"), 0, 0, QStringLiteral("COLOR"), QStringLiteral("10 20 30"))),
                 expected);
        expected = kMap;
        expected.replace("      STYLE\n        COLOR", "      STYLE\n        OPACITY 50\n        COLOR");
        QCOMPARE(apply(setStyleValue(kMap, QStringLiteral("roads"), 0, 0, QStringLiteral("opacity"), QStringLiteral("50"))),
                 expected);
        expected = kMap;
        expected.replace("STYLE COLOR 0 0 255 END", "STYLE WIDTH 3 COLOR 0 0 255 END");
        QCOMPARE(apply(setStyleValue(kMap, QStringLiteral("rivers"), 0, 0, QStringLiteral("WIDTH"), QStringLiteral("3"))),
                 expected);
        expected = kMap;
        expected.replace("      STYLE COLOR 0 0 255 END\n", "");
        QCOMPARE(apply(removeStyle(kMap, QStringLiteral("rivers"), 0, 0)), expected);
    }
};

QTEST_GUILESS_MAIN(TestMapfileEdits)
#include "test_mapfile_edits.moc"
