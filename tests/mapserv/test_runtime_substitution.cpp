// Runtime substitution as MapServer 8 restricts it: which VALIDATION pattern
// lets a request value replace %key% where, the default_ values, "immutable",
// the environment beating the request, the prepared maps kept per value set,
// and values that would make a map read outside its data roots.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/prepared_map.h"
#include "render/runtime_substitution.h"
#include "wms/wms_service.h"

#include <QTemporaryDir>
#include <QTest>

using namespace maptune;

namespace {

const QByteArray kMap = R"(MAP
  NAME "sub"
  SIZE 10 10
  EXTENT 0 0 10 10
  WEB
    VALIDATION
      "color" "^[a-z]+$"
      "shared" "^[0-9]+$"
      "default_shared" "7"
      "default_fname" "out"
    END
    METADATA "wms_title" "Map %color%" END
  END
  OUTPUTFORMAT
    NAME "csv"
    DRIVER "OGR/CSV"
    FORMATOPTION "FILENAME=%fname%.csv"
    FORMATOPTION "LCO:SEPARATOR=%color%"
  END
  LAYER
    NAME "own"
    TYPE POLYGON
    STATUS ON
    DATA "%file%"
    FILTER ([v] = %shared%)
    PROCESSING "BANDS=%band%"
    VALIDATION
      "file" "^(alpha|beta)$"
      "band" "^[1-3]$"
      "shared" "^[0-9]$"
      "color" "^red$"
    END
    METADATA "wms_title" "Own %COLOR% %file%" END
    CLASS
      NAME "%file%"
      TITLE "class %band%"
      EXPRESSION ([v] > %band%)
      TEXT "%band%"
      STYLE COLOR 1 2 3 SIZE 4 END
    END
  END
  LAYER
    NAME "web"
    TYPE POLYGON
    STATUS ON
    DATA "fixed"
    FILTER ("[name]" = "%color%")
    CLASS
      VALIDATION "mine" "^x+$" "default_mine" "none" END
      EXPRESSION ("[k]" = "%mine%")
      TITLE "%shared%"
      STYLE COLOR 1 2 3 END
    END
    CLASS
      EXPRESSION ("[k]" = "%mine%")
      STYLE COLOR 1 2 3 END
    END
  END
END
)";

MapDef parse(const QByteArray& text)
{
    LoadResult loaded = parseMapText(text, QStringLiteral("/virtual/sub.map"));
    if (!loaded.ok()) qFatal("test map does not parse");
    return *loaded.map;
}

using Pairs = QList<std::pair<QString, QString>>;

}  // namespace

class TestRuntimeSubstitution : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEngine(); }

    // The layer's own patterns cover DATA, FILTER, PROCESSING, METADATA and
    // its classes' EXPRESSION, TEXT and TITLE -- never NAME or STYLE.
    void layerPatternsScope()
    {
        const SubstitutionOutcome out = RuntimeSubstitution::apply(parse(kMap), Pairs{{"file", "alpha"}, {"band", "2"}});
        QVERIFY(out.errors.isEmpty());
        QVERIFY(out.map);
        const LayerDef& own = out.map->layers[0];
        QCOMPARE(own.data, QStringLiteral("alpha"));
        QCOMPARE(own.processing, QStringList{QStringLiteral("BANDS=2")});
        QCOMPARE(own.metadata.value(QStringLiteral("wms_title")), QStringLiteral("Own %COLOR% alpha"));
        const ClassDef& c = own.classes[0];
        QCOMPARE(c.title, QStringLiteral("class 2"));
        QCOMPARE(c.expression.text, QStringLiteral("[v] > 2"));
        QCOMPARE(c.expression.type, ExpressionDef::Type::Logical);
        QCOMPARE(c.text.text, QStringLiteral("2"));
        QCOMPARE(c.name, QStringLiteral("%file%"));
        // Another layer's tokens are not its business.
        QCOMPARE(out.map->layers[1].data, QStringLiteral("fixed"));
    }

    // A refused value leaves the token (for a default to fill) and records
    // MapServer's error; the WEB's looser pattern does not apply to a layer
    // that has a pattern of its own for the key.
    void refusedValues()
    {
        const SubstitutionOutcome out = RuntimeSubstitution::apply(parse(kMap), Pairs{{"file", "../../etc/passwd"}, {"color", "blue"}});
        QCOMPARE(out.errors, QStringList{QStringLiteral("msApplySubstitutions(): Regular expression error. Parameter pattern validation failed.")});
        QVERIFY(out.map);
        const LayerDef& own = out.map->layers[0];
        QCOMPARE(own.data, QStringLiteral("%file%"));
        QCOMPARE(own.metadata.value(QStringLiteral("wms_title")), QStringLiteral("Own %COLOR% %file%"));  // "blue" is not ^red$
        QCOMPARE(out.map->layers[1].filter.text, QStringLiteral("\"[name]\" = \"blue\""));           // the WEB pattern
        QCOMPARE(out.map->web.metadata.value(QStringLiteral("wms_title")), QStringLiteral("Map blue"));
        QCOMPARE(out.map->outputFormats[0].formatOptions.value(QStringLiteral("LCO:SEPARATOR")), QStringLiteral("blue"));
    }

    // POSIX '$' ends the string: a trailing newline does not slip through
    // "^(alpha|beta)$" as it would through PCRE's '$'.
    void dollarIsTheEnd()
    {
        const SubstitutionOutcome out = RuntimeSubstitution::apply(parse(kMap), Pairs{{"file", "alpha\n"}});
        QCOMPARE(out.errors.size(), 1);
        QVERIFY(!out.map);  // nothing the request sent was substituted
    }

    // Tokens and keys compare case-insensitively; the pattern itself is
    // POSIX extended and unanchored, as regexec() is.
    void caseAndAnchoring()
    {
        MapDef map = parse(kMap);
        map.layers[0].validation.set(QStringLiteral("color"), QStringLiteral("red"));
        const SubstitutionOutcome out = RuntimeSubstitution::apply(map, Pairs{{"Color", "darkredish"}});
        QVERIFY(out.errors.isEmpty());
        QCOMPARE(out.map->layers[0].metadata.value(QStringLiteral("wms_title")), QStringLiteral("Own darkredish %file%"));
    }

    // default_ values: the class's first, then the layer's, then the WEB's;
    // for output formats only FILENAME (and JSONP) take them.
    void defaults()
    {
        const std::optional<MapDef> map = RuntimeSubstitution::applyDefaults(parse(kMap));
        QVERIFY(map);
        QCOMPARE(map->layers[0].filter.text, QStringLiteral("[v] = 7"));        // the WEB default
        const LayerDef& web = map->layers[1];
        QCOMPARE(web.classes[0].expression.text, QStringLiteral("\"[k]\" = \"none\""));  // its own class default
        QCOMPARE(web.classes[1].expression.text, QStringLiteral("\"[k]\" = \"%mine%\""));  // not another class's
        QCOMPARE(web.classes[0].title, QStringLiteral("7"));
        QCOMPARE(map->outputFormats[0].formatOptions.value(QStringLiteral("FILENAME")), QStringLiteral("out.csv"));
        QCOMPARE(map->outputFormats[0].formatOptions.value(QStringLiteral("LCO:SEPARATOR")), QStringLiteral("%color%"));
        // A request value goes first; the default fills only what is left.
        const SubstitutionOutcome out = RuntimeSubstitution::apply(parse(kMap), Pairs{{"shared", "3"}});
        QCOMPARE(out.map->layers[0].filter.text, QStringLiteral("[v] = 3"));
        QCOMPARE(out.map->layers[1].classes[0].title, QStringLiteral("3"));
        // A URL parameter named like a default is not a value.
        const SubstitutionOutcome named = RuntimeSubstitution::apply(parse(kMap), Pairs{{"default_shared", "1"}});
        QVERIFY(!named.map);
        QVERIFY(named.errors.isEmpty());
    }

    void immutableTurnsItOff()
    {
        MapDef map = parse(kMap);
        map.web.validation.set(QStringLiteral("immutable"), QStringLiteral("1"));
        QVERIFY(!RuntimeSubstitution::applyDefaults(map));
        QVERIFY(!RuntimeSubstitution::apply(map, Pairs{{"file", "alpha"}}).map);
    }

    // A pattern that backtracks catastrophically refuses in bounded time
    // (PCRE2's match limit) instead of holding the worker.
    void regexBomb()
    {
        MapDef map = parse(kMap);
        map.layers[0].validation.set(QStringLiteral("file"), QStringLiteral("^(a+)+$"));
        const SubstitutionOutcome out = RuntimeSubstitution::apply(map, Pairs{{"file", QString(64, QLatin1Char('a')) + QLatin1Char('!')}});
        QCOMPARE(out.errors.size(), 1);
        QVERIFY(!out.map);
    }

    // The prepared map a request reads: the same one without substitution
    // values, one kept per value set, defaults already in place.
    void preparedPerValueSet()
    {
        const PreparedMapPtr base = PreparedMap::prepare(std::make_shared<const MapDef>(parse(kMap)));
        QCOMPARE(base->map().layers[0].filter.text, QStringLiteral("[v] = 7"));
        QCOMPARE(base->forRequest(Pairs{{"mode", "map"}, {"layers", "all"}}), base);
        QStringList errors;
        const PreparedMapPtr alpha = base->forRequest(Pairs{{"FILE", "alpha"}, {"mode", "map"}}, &errors);
        QVERIFY(alpha != base);
        QVERIFY(errors.isEmpty());
        QCOMPARE(alpha->map().layers[0].data, QStringLiteral("alpha"));
        QCOMPARE(alpha->map().layers[0].filter.text, QStringLiteral("[v] = 7"));
        const qint64 built = PreparedMap::preparedCount();
        QCOMPARE(base->forRequest(Pairs{{"file", "alpha"}}), alpha);
        QCOMPARE(PreparedMap::preparedCount(), built);
        // The last of a repeated parameter wins.
        QCOMPARE(base->forRequest(Pairs{{"file", "beta"}, {"file", "alpha"}}), alpha);
        // A refused value: the map of defaults, and the error each time it is asked.
        QCOMPARE(base->forRequest(Pairs{{"file", "gamma"}}, &errors), base);
        QCOMPARE(base->forRequest(Pairs{{"file", "gamma"}}, &errors), base);
        QCOMPARE(errors.size(), 2);
    }

    // An environment variable of the key's name beats the request.
    void environmentBeatsRequest()
    {
        const PreparedMapPtr base = PreparedMap::prepare(std::make_shared<const MapDef>(parse(kMap)));
        qputenv("band", "3");
        const PreparedMapPtr map = base->forRequest(Pairs{{"band", "1"}});
        qunsetenv("band");
        QCOMPARE(map->map().layers[0].processing, QStringList{QStringLiteral("BANDS=3")});
    }

    // A value its pattern accepts may still not name a file outside the
    // directories the map may read: the values are not applied.
    void valuesStayInsideDataRoots()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("maps/data")));
        QByteArray text = kMap;
        text.replace("\"file\" \"^(alpha|beta)$\"", "\"file\" \".\"");
        text.replace("DATA \"%file%\"", "DATA \"data/%file%\"");
        LoadResult loaded = parseMapText(text, dir.filePath(QStringLiteral("maps/sub.map")));
        QVERIFY(loaded.ok());
        const PreparedMapPtr base = PreparedMap::prepare(loaded.map);
        QStringList errors;
        const PreparedMapPtr inside = base->forRequest(Pairs{{"file", "roads.shp"}}, &errors);
        QVERIFY(errors.isEmpty());
        QCOMPARE(inside->map().layers[0].data, QStringLiteral("data/roads.shp"));
        for (const char* hostile : {"../../../etc/passwd", "../../outside.shp"}) {
            errors.clear();
            QCOMPARE(base->forRequest(Pairs{{"file", QString::fromLatin1(hostile)}}, &errors), base);
            QCOMPARE(errors.size(), 1);
            QVERIFY2(errors[0].contains(QLatin1String("outside the directories")), qPrintable(errors[0]));
        }
    }

    // mapserv's error page lists a refused value's error after the error
    // that failed the request (MapServer prints the newest first).
    void errorPageListsRefusedValue()
    {
        const WmsService service(std::make_shared<const MapDef>(parse(kMap)));
        const Response r = service.handle(WmsRequest::fromQueryString("mode=map&layers=own&file=nope"));
        QCOMPARE(r.contentType(), QByteArray("text/html"));
        const QString page = QString::fromUtf8(r.body);
        const qsizetype draw = page.indexOf(QLatin1String("msDrawMap()"));
        const qsizetype sub = page.indexOf(QLatin1String("msApplySubstitutions(): Regular expression error. Parameter pattern validation failed."));
        QVERIFY2(draw >= 0 && sub > draw, qPrintable(page));
        QVERIFY(page.endsWith(QLatin1String("</BODY></HTML>")));
    }
};

QTEST_MAIN(TestRuntimeSubstitution)
#include "test_runtime_substitution.moc"
