// The keyword schema (renderer/mapfile/schema/*.json) is complete and
// consistent, agrees with the parser, and drives the syntax reader,
// completion and hover help.

#include "mapfile/map_parser.h"
#include "mapfile/schema/keyword_schema.h"
#include "mapfile/syntax/map_syntax.h"
#include "mapfile/syntax/mapfile_completion.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QJsonObject>
#include <QTest>

using namespace maptune;

namespace {

QStringList texts(const QList<CompletionItem>& items)
{
    QStringList out;
    for (const CompletionItem& i : items) out << i.text;
    return out;
}

// Completions with the cursor at the "|" of text.
QStringList completeAt(QByteArray text, const CompletionSources& sources = {})
{
    const int at = text.indexOf('|');
    text.remove(at, 1);
    return texts(completionsFor(completionContextAt(text, at), sources));
}

const char* kMap = R"(MAP
  NAME "demo"
  SYMBOL
    NAME "circle"
    TYPE ELLIPSE
    POINTS 1 1 END
  END
  LAYER
    NAME "roads"
    TYPE LINE
    METADATA
      "wms_title" "Roads"
    END
    CLASS
      STYLE
        SYMBOL "circle"
        COLOR 255 0 0
        WIDTH 2
      END
    END
  END
END
)";

}  // namespace

class TestKeywordSchema : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyKeywordIsDescribedAndTyped()
    {
        const KeywordSchema& schema = KeywordSchema::builtin();
        int keywords = 0;
        for (const BlockSpec* block : schema.blocks()) {
            QVERIFY2(!block->description.isEmpty(), qPrintable(block->name));
            for (const QString& parent : block->parents)
                QVERIFY2(schema.block(parent), qPrintable(block->name + " has unknown parent " + parent));
            for (const KeywordSpec& k : block->keywords) {
                const QString where = block->name + QLatin1Char('.') + k.name;
                QVERIFY2(k.description.size() >= 20, qPrintable(where + " has no description"));
                QVERIFY2(valueTypeFromName(k.typeName), qPrintable(where));
                if (k.type == ValueType::Enum) QVERIFY2(!k.values.isEmpty(), qPrintable(where + " enum without values"));
                if (k.type == ValueType::Block)
                    QVERIFY2(schema.blockOpenedBy(k), qPrintable(where + " opens an undefined block"));
                if (k.min && k.max) QVERIFY2(*k.min <= *k.max, qPrintable(where));
                ++keywords;
            }
        }
        QVERIFY2(keywords >= 300, qPrintable(QString::number(keywords)));
        for (const char* name : {"MAP", "LAYER", "CLASS", "STYLE", "LABEL", "WEB", "LEGEND", "SCALEBAR", "SYMBOL",
                                 "OUTPUTFORMAT", "QUERYMAP", "REFERENCE", "GRID", "JOIN", "CLUSTER", "COMPOSITE",
                                 "FEATURE", "LEADER", "SCALETOKEN", "SYMBOLSET"})
            QVERIFY2(schema.block(QLatin1String(name)), name);
        QCOMPARE(schema.block(QStringLiteral("MAP"))->parents, QStringList());
        QVERIFY(schema.topLevel().keyword(QStringLiteral("MAP")));
    }

    // What the parser reads, the schema knows, in the same block.
    void parserKeywordsAreInTheSchema_data()
    {
        QTest::addColumn<QString>("block");
        QTest::addColumn<QStringList>("keywords");
        QTest::newRow("MAP") << "MAP" << mapKeywords();
        QTest::newRow("LAYER") << "LAYER" << layerKeywords();
        QTest::newRow("CLASS") << "CLASS" << classKeywords();
        QTest::newRow("STYLE") << "STYLE" << styleKeywords();
        QTest::newRow("LABEL") << "LABEL" << labelKeywords();
        QTest::newRow("SYMBOL") << "SYMBOL" << symbolKeywords();
        QTest::newRow("WEB") << "WEB" << webKeywords();
        QTest::newRow("OUTPUTFORMAT") << "OUTPUTFORMAT" << outputFormatKeywords();
    }
    void parserKeywordsAreInTheSchema()
    {
        QFETCH(QString, block);
        QFETCH(QStringList, keywords);
        QStringList missing;
        for (const QString& k : keywords)
            if (k != QLatin1String("INCLUDE") && !KeywordSchema::builtin().keyword(block, k)) missing << k;
        QVERIFY2(missing.isEmpty(), qPrintable(block + ": " + missing.join(' ')));
    }

    // ...and what the schema offers (completion), the parser reads: a keyword
    // picked from the list is never "unknown".
    void schemaKeywordsAreParsed()
    {
        QFETCH(QString, block);
        QFETCH(QStringList, keywords);
        QStringList missing;
        for (const KeywordSpec& k : KeywordSchema::builtin().block(block)->keywords)
            if (!k.isRemoved() && k.name != QLatin1String("INCLUDE") && !keywords.contains(k.name)) missing << k.name;
        QVERIFY2(missing.isEmpty(), qPrintable(block + ": " + missing.join(' ')));
    }
    void schemaKeywordsAreParsed_data() { parserKeywordsAreInTheSchema_data(); }

    void jsonRoundTrips()
    {
        const QByteArray json = KeywordSchema::builtin().toJson();
        const QJsonObject root = QJsonDocument::fromJson(json).object();
        QVERIFY(root.contains(QLatin1String("LAYER")));
        QString error;
        const KeywordSchema again = KeywordSchema::fromJson({json}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(again.toJson(), json);
        KeywordSchema::fromJson({"{\"X\": {\"keywords\": {\"A\": {\"type\": \"colour\"}}}}"}, &error);
        QVERIFY2(error.contains(QLatin1String("colour")), qPrintable(error));
    }

    void syntaxFollowsTheBlocks()
    {
        const MapSyntax syntax = readMapSyntaxText(kMap, QStringLiteral("demo.map"));
        QCOMPARE(syntax.roots.size(), 1);
        const SyntaxNode& map = syntax.roots.first();
        QCOMPARE(map.name, QStringLiteral("MAP"));
        QVERIFY(map.end);
        const SyntaxNode* symbol = map.child(QStringLiteral("SYMBOL"));
        QVERIFY(symbol && symbol->opensBlock());
        QCOMPARE(symbol->child(QStringLiteral("POINTS"))->values.size(), 2);
        const SyntaxNode* layer = map.child(QStringLiteral("LAYER"));
        QVERIFY(layer && layer->end);
        QCOMPARE(layer->child(QStringLiteral("METADATA"))->values.size(), 2);
        const SyntaxNode* style = layer->child(QStringLiteral("CLASS"))->child(QStringLiteral("STYLE"));
        QVERIFY(style);
        // SYMBOL in a STYLE is a value, not a block.
        const SyntaxNode* styleSymbol = style->child(QStringLiteral("SYMBOL"));
        QVERIFY(styleSymbol && !styleSymbol->opensBlock());
        QCOMPARE(styleSymbol->text(), QStringLiteral("circle"));
        QCOMPARE(style->child(QStringLiteral("COLOR"))->values.size(), 3);
        QCOMPARE(style->child(QStringLiteral("WIDTH"))->keyword.pos.line, 18);
        QCOMPARE(style->block, QStringLiteral("CLASS"));
    }

    void completionKnowsTheCursorsBlock()
    {
        const QStringList atMap = completeAt("MAP\n  |\nEND\n");
        QVERIFY(atMap.contains(QLatin1String("LAYER")) && atMap.contains(QLatin1String("EXTENT")));
        QVERIFY(!atMap.contains(QLatin1String("COLOR")));

        const QStringList atLayer = completeAt("MAP\n  LAYER\n    NAME \"x\"\n    |\n  END\nEND\n");
        QVERIFY(atLayer.contains(QLatin1String("DATA")) && atLayer.contains(QLatin1String("CLASS")));
        QVERIFY(atLayer.contains(QLatin1String("END")));
        QVERIFY(!atLayer.contains(QLatin1String("IMAGETYPE")));

        const QStringList atStyle = completeAt("MAP\n LAYER\n  CLASS\n   STYLE\n    CO|\n");
        QVERIFY(atStyle.contains(QLatin1String("COLOR")));
        for (const QString& s : atStyle) QVERIFY2(s.startsWith(QLatin1String("CO")), qPrintable(s));

        // After the END of a CLASS the cursor is back in the LAYER.
        const QStringList afterClass = completeAt("MAP\n LAYER\n  CLASS\n  END\n  |\n");
        QVERIFY(afterClass.contains(QLatin1String("CLASSITEM")));
        QVERIFY(!afterClass.contains(QLatin1String("EXPRESSION")));
    }

    void completionOffersValues()
    {
        const QStringList status = completeAt("MAP\n LAYER\n  STATUS |\n");
        QVERIFY(status.contains(QLatin1String("ON")) && status.contains(QLatin1String("OFF")) &&
                status.contains(QLatin1String("DEFAULT")));
        const QStringList type = completeAt("MAP\n LAYER\n  TYPE PO|\n");
        QVERIFY(type.contains(QLatin1String("POINT")) && type.contains(QLatin1String("POLYGON")));
        QVERIFY(!type.contains(QLatin1String("LINE")));

        CompletionSources sources;
        sources.symbols = {QStringLiteral("circle"), QStringLiteral("square")};
        sources.attributes = {QStringLiteral("name"), QStringLiteral("pop")};
        const QStringList symbol = completeAt("MAP\n LAYER\n  CLASS\n   STYLE\n    SYMBOL |\n", sources);
        QVERIFY2(symbol.contains(QLatin1String("\"circle\"")) && symbol.contains(QLatin1String("\"square\"")),
                 qPrintable(symbol.join(' ')));
        QVERIFY(!symbol.contains(QLatin1String("COLOR")));
        const QStringList classItem = completeAt("MAP\n LAYER\n  CLASSITEM |\n", sources);
        QVERIFY(classItem.contains(QLatin1String("\"pop\"")));
        const QStringList size = completeAt("MAP\n LAYER\n  CLASS\n   STYLE\n    SIZE |\n", sources);
        QVERIFY2(size.contains(QLatin1String("[pop]")), qPrintable(size.join(' ')));

        // Nothing inside a string or comment.
        QVERIFY(completeAt("MAP\n NAME \"ab|c\"\n").isEmpty());
    }

    void stringsCompleteFilesAndCrsCodes()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("data/roads")));
        QFile(dir.filePath(QStringLiteral("data/rivers.shp"))).open(QIODevice::WriteOnly);
        QFile(dir.filePath(QStringLiteral("other.map"))).open(QIODevice::WriteOnly);
        CompletionSources sources;
        sources.mapPath = dir.filePath(QStringLiteral("x.map"));
        // DATA from SHAPEPATH, folders first and ending in '/'.
        QCOMPARE(completeAt("MAP\n SHAPEPATH \"data\"\n LAYER\n  DATA \"r|\"\n", sources),
                 (QStringList{QStringLiteral("roads/"), QStringLiteral("rivers.shp")}));
        // INCLUDE from the mapfile's folder.
        QCOMPARE(completeAt("MAP\n SHAPEPATH \"data\"\n INCLUDE \"oth|", sources), QStringList{QStringLiteral("other.map")});
        // EPSG codes in a PROJECTION, in the form typed.
        const QStringList crs = completeAt("MAP\n PROJECTION\n  \"init=epsg:432|\"\n END\n");
        QVERIFY2(crs.contains(QLatin1String("init=epsg:4326")), qPrintable(crs.join(' ')));
        QVERIFY(completeAt("MAP\n PROJECTION\n  \"EPSG:3857|").contains(QLatin1String("EPSG:3857")));
        bool wgs84 = false;
        for (const auto& [code, name] : epsgCodes()) wgs84 = wgs84 || (code == QLatin1String("4326") && name == QLatin1String("WGS 84"));
        QVERIFY(wgs84);
        // A plain string value completes nothing.
        QVERIFY(completeAt("MAP\n NAME \"wor|\"\n").isEmpty());
    }

    void contextNamesTheLayer()
    {
        QByteArray text = "MAP\n LAYER\n  NAME \"roads\"\n  CLASS\n   |\n";
        const int at = text.indexOf('|');
        text.remove(at, 1);
        const CompletionContext ctx = completionContextAt(text, at);
        QCOMPARE(ctx.blocks, (QStringList{QStringLiteral("MAP"), QStringLiteral("LAYER"), QStringLiteral("CLASS")}));
        QCOMPARE(ctx.layerName, QStringLiteral("roads"));
    }

    void hoverExplainsTheKeyword()
    {
        const QByteArray text(kMap);
        const KeywordAt width = keywordAt(text, text.indexOf("WIDTH") + 2);
        QVERIFY(width.spec);
        QCOMPARE(width.spec->name, QStringLiteral("WIDTH"));
        QCOMPARE(width.block, QStringLiteral("STYLE"));
        QCOMPARE(width.offset, text.indexOf("WIDTH"));
        const QString html = keywordHelpHtml(*width.spec, width.block);
        QVERIFY(html.contains(QLatin1String("<b>WIDTH</b>")) && html.contains(QLatin1String("STYLE")));
        QVERIFY(html.contains(width.spec->description.left(20).toHtmlEscaped()));
        QVERIFY(!keywordAt(text, text.indexOf("Roads")).spec);  // a value, not a keyword
    }
};

QTEST_GUILESS_MAIN(TestKeywordSchema)
#include "test_keyword_schema.moc"
