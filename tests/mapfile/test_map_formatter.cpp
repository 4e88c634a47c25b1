// The lossless formatter: it may change indentation, keyword case, quoting and
// spacing, and nothing else -- every comment, blank-line group and explicitly
// written value survives, and the parsed model is the same.

#include "mapfile/map_formatter.h"
#include "mapfile/map_lexer.h"
#include "mapfile/map_loader.h"
#include "mapfile_corpus.h"

#include <QFile>
#include <QTest>

using namespace maptune;

namespace {

QStringList comments(const QByteArray& text)
{
    Diagnostics ignored;
    QStringList out;
    for (const Token& t : MapLexer::scanSourceTokens(text, QString(), ignored))
        if (t.kind == Token::Kind::Comment) out << t.text;
    return out;
}

QString joined(const Diagnostics& ds)
{
    QStringList lines;
    for (const auto& d : ds) lines << d.toString();
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

class TestMapFormatter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void formatsOnlyLayout_data();
    void formatsOnlyLayout();
    void refusesBrokenText();
    void keepsIncludeDirective();
    void corpus_data();
    void corpus();
};

void TestMapFormatter::formatsOnlyLayout_data()
{
    QTest::addColumn<QByteArray>("in");
    QTest::addColumn<QString>("expected");

    QTest::newRow("comments, blank lines, defaults")
        << QByteArray("# The demo map.\n"
                      "map\n"
                      "\tname 'demo'   # trailing\n"
                      "  maxsize 4096\n"
                      "\n\n\n"
                      "   # a whole-line comment, indented wrongly\n"
                      "layer\n"
                      "name \"roads\" type line status off\n"
                      "      class\n"
                      "style color 1 2 3 width 1 end # one-line style\n"
                      "end\n"
                      "end\n"
                      "end   \n")
        << QStringLiteral("# The demo map.\n"
                          "MAP\n"
                          "  NAME \"demo\" # trailing\n"
                          "  MAXSIZE 4096\n"
                          "\n"
                          "  # a whole-line comment, indented wrongly\n"
                          "  LAYER\n"
                          "    NAME \"roads\" TYPE LINE STATUS OFF\n"
                          "    CLASS\n"
                          "      STYLE COLOR 1 2 3 WIDTH 1 END # one-line style\n"
                          "    END\n"
                          "  END\n"
                          "END\n");
    // Values are never re-cased or re-quoted where that could change them.
    QTest::newRow("values as written")
        << QByteArray("MAP\n"
                      "shapepath 'Data/Roads'\n"
                      "LAYER NAME 'roads' DATA point TYPE point\n"
                      "FILTER ([a] = 'x' AND \"[b]\" ~* 'y')\n"
                      "CLASS EXPRESSION 'a\"b' END\n"
                      "METADATA 'wms_title' 'Roads' \"ows_srs\" 'EPSG:4326' END\n"
                      "PROJECTION 'init=epsg:4326' END\n"
                      "END\n"
                      "END\n")
        << QStringLiteral("MAP\n"
                          "  SHAPEPATH \"Data/Roads\"\n"
                          "  LAYER NAME \"roads\" DATA point TYPE POINT\n"
                          "    FILTER ([a] = 'x' AND \"[b]\" ~* 'y')\n"
                          "    CLASS EXPRESSION 'a\"b' END\n"
                          "    METADATA \"wms_title\" \"Roads\" \"ows_srs\" \"EPSG:4326\" END\n"
                          "    PROJECTION \"init=epsg:4326\" END\n"
                          "  END\n"
                          "END\n");
    // Blocks kept verbatim in the model (LEADER) keep their words' case.
    QTest::newRow("block comments, verbatim blocks")
        << QByteArray("MAP\n"
                      "/* multi\n"
                      "   line */\n"
                      "LAYER NAME 'a' TYPE POINT\n"
                      "CLASS\n"
                      "leader\n"
                      "maxdistance 30\n"
                      "style\n"
                      "color 1 2 3\n"
                      "end\n"
                      "end\n"
                      "END END END\n")
        << QStringLiteral("MAP\n"
                          "  /* multi\n"
                          "   line */\n"
                          "  LAYER NAME \"a\" TYPE POINT\n"
                          "    CLASS\n"
                          "      LEADER\n"
                          "        maxdistance 30\n"
                          "        style\n"
                          "          color 1 2 3\n"
                          "        end\n"
                          "      end\n"
                          "    END END END\n");
    QTest::newRow("metadata values in a column")
        << QByteArray("MAP WEB METADATA\n"
                      "'wms_title' 'Roads'   # t\n"
                      "\"ows_enable_request\"\t\"*\"\n"
                      "\n"
                      "'x'      'y'\n"
                      "END END END\n")
        << QStringLiteral("MAP WEB METADATA\n"
                          "      \"wms_title\"          \"Roads\" # t\n"
                          "      \"ows_enable_request\" \"*\"\n"
                          "\n"
                          "      \"x\" \"y\"\n"
                          "    END END END\n");
    QTest::newRow("multi-line expression kept verbatim")
        << QByteArray("MAP LAYER NAME 'a' TYPE POLYGON\n"
                      "  CLASS\n"
                      "  EXPRESSION ([v] > 1 AND\n"
                      "       [v] < 5)\n"
                      "  END END END\n")
        << QStringLiteral("MAP LAYER NAME \"a\" TYPE POLYGON\n"
                          "    CLASS\n"
                          "      EXPRESSION ([v] > 1 AND\n"
                          "       [v] < 5)\n"
                          "    END END END\n");
}

void TestMapFormatter::formatsOnlyLayout()
{
    QFETCH(QByteArray, in);
    QFETCH(QString, expected);
    const FormatResult once = formatMapText(in, QString());
    QVERIFY2(once.ok(), qPrintable(joined(once.diagnostics)));
    QCOMPARE(once.text, expected);
    const FormatResult twice = formatMapText(once.text.toUtf8(), QString());
    QCOMPARE(twice.text, once.text);
}

void TestMapFormatter::refusesBrokenText()
{
    const FormatResult r = formatMapText("MAP\n  LAYER\n    STYEL\n  END\nEND\n", QStringLiteral("broken.map"));
    QVERIFY(!r.ok());
    QVERIFY(r.text.isEmpty());
    QVERIFY2(joined(r.diagnostics).contains("broken.map:3:5: error: unknown keyword 'STYEL'"), qPrintable(joined(r.diagnostics)));
    QVERIFY(!formatMapText("# only a comment\n", QString()).ok());
}

void TestMapFormatter::keepsIncludeDirective()
{
    const QString path = QStringLiteral(MAPTUNE_TEST_DATA "/mapfile/full.map");
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("INCLUDE"));
    const FormatResult r = formatMapText(text, path);
    QVERIFY2(r.ok(), qPrintable(joined(r.diagnostics)));
    QCOMPARE(r.text.count(QStringLiteral("INCLUDE \"")), QString::fromUtf8(text).count(QStringLiteral("INCLUDE \"")));
}

void TestMapFormatter::corpus_data()
{
    addMapfileCorpusRows();
}

// Every mapfile: the same comments in the same order, the same model, and a
// second format changes nothing.
void TestMapFormatter::corpus()
{
    QFETCH(QString, path);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    const FormatResult once = formatMapText(text, path);
    QVERIFY2(once.ok(), qPrintable(joined(once.diagnostics)));
    QCOMPARE(comments(once.text.toUtf8()), comments(text));

    const FormatResult twice = formatMapText(once.text.toUtf8(), path);
    QVERIFY2(twice.ok(), qPrintable(joined(twice.diagnostics)));
    QCOMPARE(twice.text, once.text);

    LoadResult before = parseMapText(text, path), after = parseMapText(once.text.toUtf8(), path);
    QVERIFY(before.map && after.map);
    clearPositions(*before.map);
    clearPositions(*after.map);
    QVERIFY2(*before.map == *after.map, qPrintable(once.text));
}

QTEST_GUILESS_MAIN(TestMapFormatter)
#include "test_map_formatter.moc"
