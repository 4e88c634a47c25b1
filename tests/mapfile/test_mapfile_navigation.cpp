// Go to definition, find references and the outline, on files in a
// temporary folder: INCLUDE, SYMBOLSET, FONTSET and DATA through SHAPEPATH.

#include "mapfile/syntax/mapfile_navigation.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace maptune;

namespace {

const char* kMap = R"(MAP
  NAME "nav"
  SHAPEPATH "data"
  SYMBOLSET "symbols.sym"
  FONTSET "fonts.txt"
  INCLUDE "layers.inc"
  SYMBOL
    NAME "local"
    TYPE ELLIPSE
    POINTS 1 1 END
  END
  LAYER
    NAME "roads"
    TYPE LINE
    DATA "roads"
    CLASS
      STYLE
        SYMBOL "local"
      END
      LABEL
        FONT "sans"
        TYPE TRUETYPE
      END
    END
    CLASS
      STYLE
        SYMBOL "fromset"
      END
    END
  END
  LAYER
    NAME "db"
    CONNECTIONTYPE POSTGIS
    DATA "geom from roads"
    CLASS
      STYLE
        SYMBOL "local"
      END
    END
  END
END
)";

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// The byte offset of the n-th occurrence of `needle` (plus `into` bytes).
int at(const QByteArray& text, const char* needle, int n = 0, int into = 1)
{
    int from = -1;
    for (int i = 0; i <= n; ++i) from = text.indexOf(needle, from + 1);
    return from + into;
}

}  // namespace

class TestMapfileNavigation : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_map;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("data")));
        write(m_dir.filePath(QStringLiteral("data/roads.shp")), "not really a shapefile");
        write(m_dir.filePath(QStringLiteral("symbols.sym")),
              "SYMBOLSET\n  SYMBOL\n    NAME \"other\"\n  END\n  SYMBOL\n    NAME \"fromset\"\n    TYPE VECTOR\n  END\nEND\n");
        write(m_dir.filePath(QStringLiteral("fonts.txt")), "# fonts\nserif  serif.ttf\nsans   sans.ttf\n");
        write(m_dir.filePath(QStringLiteral("layers.inc")), "LAYER\n  NAME \"inc\"\nEND\n");
        m_map = m_dir.filePath(QStringLiteral("nav.map"));
        write(m_map, kMap);
    }

    void filesOpenAtTheirPath()
    {
        const QByteArray text(kMap);
        const NavigationTarget include = definitionAt(text, at(text, "layers.inc"), m_map);
        QCOMPARE(include.file, m_dir.filePath(QStringLiteral("layers.inc")));
        QVERIFY(include.exists);
        QCOMPARE(definitionAt(text, at(text, "FONTSET", 0, 2), m_map).file, m_dir.filePath(QStringLiteral("fonts.txt")));
        // DATA through SHAPEPATH, the .shp added as MapServer does.
        const NavigationTarget data = definitionAt(text, at(text, "DATA \"roads\"", 0, 7), m_map);
        QCOMPARE(data.file, m_dir.filePath(QStringLiteral("data/roads.shp")));
        QVERIFY(data.exists);
        // A PostGIS layer's DATA is SQL: nothing to open.
        QVERIFY(!definitionAt(text, at(text, "geom from"), m_map).found());
        // Nowhere to go from a plain keyword.
        QVERIFY(!definitionAt(text, at(text, "TYPE LINE"), m_map).found());
    }

    void symbolsAndFontsGoToTheirDefinition()
    {
        const QByteArray text(kMap);
        const NavigationTarget local = definitionAt(text, at(text, "SYMBOL \"local\"", 0, 9), m_map);
        QCOMPARE(local.file, m_map);
        QCOMPARE(local.line, 7);
        QCOMPARE(local.column, 3);
        const NavigationTarget fromSet = definitionAt(text, at(text, "\"fromset\""), m_map);
        QCOMPARE(fromSet.file, m_dir.filePath(QStringLiteral("symbols.sym")));
        QCOMPARE(fromSet.line, 5);
        const NavigationTarget font = definitionAt(text, at(text, "\"sans\""), m_map);
        QCOMPARE(font.file, m_dir.filePath(QStringLiteral("fonts.txt")));
        QCOMPARE(font.line, 3);
    }

    void referencesListEveryUse()
    {
        const QByteArray text(kMap);
        const auto [keyword, name] = referenceNameAt(text, at(text, "\"local\"", 1));
        QCOMPARE(keyword, QStringLiteral("SYMBOL"));
        QCOMPARE(name, QStringLiteral("local"));
        // From the definition's NAME as well.
        QCOMPARE(referenceNameAt(text, at(text, "\"local\"", 0)).second, QStringLiteral("local"));
        const QList<Reference> uses = referencesTo(text, m_map, keyword, name);
        QCOMPARE(uses.size(), 2);
        QCOMPARE(uses[0].pos.line, 18);
        QCOMPARE(uses[1].pos.line, 37);
        QCOMPARE(uses[0].block, QStringLiteral("STYLE"));
        QCOMPARE(referencesTo(text, m_map, QStringLiteral("FONT"), QStringLiteral("SANS")).size(), 1);
    }

    void outlineNestsTheBlocks()
    {
        const QList<OutlineItem> outline = outlineOf(kMap);
        QCOMPARE(outline.size(), 1);
        const OutlineItem& map = outline.first();
        QCOMPARE(map.keyword, QStringLiteral("MAP"));
        QCOMPARE(map.name, QStringLiteral("nav"));
        QCOMPARE(map.line, 1);
        QCOMPARE(map.endLine, 41);
        QStringList children;
        for (const OutlineItem& c : map.children) children << c.keyword + QLatin1Char(' ') + c.name;
        QCOMPARE(children, (QStringList{QStringLiteral("SYMBOL local"), QStringLiteral("LAYER roads"), QStringLiteral("LAYER db")}));
        const OutlineItem& roads = map.children[1];
        QCOMPARE(roads.children.size(), 2);
        QCOMPARE(roads.children[0].children.size(), 2);  // STYLE, LABEL
        QCOMPARE(roads.children[0].children[1].keyword, QStringLiteral("LABEL"));

        // An INCLUDE fragment: its LAYER at the top is a block too.
        const QList<OutlineItem> fragment = outlineOf("LAYER\n  NAME \"inc\"\n  CLASS\n    STYLE END\n  END\nEND\n");
        QCOMPARE(fragment.size(), 1);
        QCOMPARE(fragment[0].keyword + QLatin1Char(' ') + fragment[0].name, QStringLiteral("LAYER inc"));
        QCOMPARE(fragment[0].children.size(), 1);
        QCOMPARE(fragment[0].children[0].children.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestMapfileNavigation)
#include "test_mapfile_navigation.moc"
