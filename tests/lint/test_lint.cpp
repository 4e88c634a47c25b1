// maptune lint: every rule on a mapfile that breaks it and on one that does
// not, the quick-fix edits, and the text/JSON/SARIF reports (SARIF checked
// against the OASIS 2.1.0 JSON schema, copied into data/).

#include "lint_fixture.h"

#include "lint/lint_report.h"
#include "lint/map_linter.h"
#include "render/engine.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace maptune;

namespace {

// Line numbers below count from this text's first line.
const char* kBadMap = R"(MAP
  NAME "bad"
  EXTENT 0 0 100 100
  SIZE 200 200 IMAGETYPE "png"
  DEBUG 5
  CONFIG "MS_ERRORFILE" "/tmp/maptune-lint-test.log"
  DATAPATTERN "^places$"
  PROJECTION
    "init=epsg:4326"
  END
  WEB MINSCALE 1000
    METADATA
      "wms_getmap_formatlist" "image/png"
    END
  END
  OUTPUTFORMAT
    NAME "tiffout"
    DRIVER "GDAL/GTiff"
    MIMETYPE "image/tiff"
  END
  SYMBOL
    NAME "unusedsym"
    TYPE ELLIPSE
    POINTS 1 1 END
  END
  LAYER
    NAME "roads"
    TYPE LINE
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION "host=localhost dbname=gis user=u password=secret"
    DATA "geom from roads"
  END
  LAYER
    NAME "places"
    TYPE POINT
    STATUS ON
    DATA "places"
    CLASSITEM "pop"
    LABELITEM "name"
    CLASS
      EXPRESSION "big"
      LABEL
        SIZE 8
      END
    END
    CLASS
      EXPRESSION ([nosuch] > 3)
    END
  END
  LAYER
    NAME "dem"
    TYPE RASTER
    STATUS ON
    DATA "dem.tif"
    PROCESSING "SCALE=AUTO"
  END
  LAYER
    NAME "outside"
    TYPE POINT
    STATUS ON
    DATA "/etc/hostname"
  END
END
)";

const char* kGoodMap = R"(MAP
  NAME "good"
  EXTENT 0 0 100 100
  SIZE 200 200
  IMAGETYPE "png"
  PROJECTION
    "init=epsg:4326"
  END
  WEB
    METADATA
      "wms_title" "good"
      "wms_srs" "EPSG:4326 EPSG:3857"
      "wms_enable_request" "*"
    END
  END
  SYMBOL
    NAME "dot"
    TYPE ELLIPSE
    POINTS 1 1 END
    FILLED TRUE
  END
  LAYER
    NAME "roads"
    TYPE LINE
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION "service=gis"
    PROCESSING "CLOSE_CONNECTION=DEFER"
    DATA "geom from roads using unique gid using srid=4326"
  END
  LAYER
    NAME "places"
    TYPE POINT
    STATUS ON
    DATA "places"
    CLASSITEM "pop"
    LABELITEM "name"
    LABELMAXSCALEDENOM 50000
    CLASS
      EXPRESSION "100"
      STYLE
        SYMBOL "dot"
        SIZE 4
        COLOR 0 0 0
      END
      LABEL
        SIZE 8
      END
    END
    CLASS
      EXPRESSION ([pop] > 3)
      STYLE
        SYMBOL "dot"
      END
    END
  END
  LAYER
    NAME "dem"
    TYPE RASTER
    STATUS ON
    DATA "dem.tif"
    PROCESSING "SCALE=0,255"
  END
END
)";

QString writeMap(const QString& dir, const QString& name, const char* text)
{
    const QString path = dir + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text);
    return path;
}

QSet<QString> ruleIds(const LintFindings& findings)
{
    QSet<QString> ids;
    for (const LintFinding& f : findings) ids.insert(f.ruleId);
    return ids;
}

QString describe(const LintFindings& findings)
{
    QStringList lines;
    for (const LintFinding& f : findings) lines << f.toString();
    return lines.join(QLatin1Char('\n'));
}

const LintFinding* firstOf(const LintFindings& findings, const QString& id)
{
    for (const LintFinding& f : findings)
        if (f.ruleId == id) return &f;
    return nullptr;
}

// The text with every edit applied (non-overlapping, last first).
QByteArray applyEdits(QByteArray text, LintFindings findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const LintFinding& a, const LintFinding& b) {
        return (a.edit ? a.edit->offset : -1) > (b.edit ? b.edit->offset : -1);
    });
    for (const LintFinding& f : findings)
        if (f.edit && f.edit->offset >= 0) text.replace(f.edit->offset, f.edit->length, f.edit->replacement.toUtf8());
    return text;
}

}  // namespace

class TestLint : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_bad, m_good;
    QString m_badMap, m_goodMap;
    LintOptions m_options;

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        QVERIFY(m_bad.isValid() && m_good.isValid());
        QVERIFY(test::makePlaces(m_bad.path(), 20, false));
        QVERIFY(test::makeRaster(m_bad.path(), false));
        QVERIFY(test::makePlaces(m_good.path(), 20, true));
        QVERIFY(test::makeRaster(m_good.path(), true));
        m_badMap = writeMap(m_bad.path(), QStringLiteral("bad.map"), kBadMap);
        m_goodMap = writeMap(m_good.path(), QStringLiteral("good.map"), kGoodMap);
        m_options.denseFeatureCount = 10;  // the test data has 20 places
    }

    void everyRuleHasItsTexts()
    {
        QSet<QString> ids;
        for (const LintRule& r : lintRules()) {
            QVERIFY2(!ids.contains(r.id), qPrintable(r.id));
            ids.insert(r.id);
            QVERIFY(r.id.startsWith(QLatin1String("MT")));
            QVERIFY2(!r.name.isEmpty() && !r.summary.isEmpty() && !r.explanation.isEmpty() && !r.fix.isEmpty(),
                     qPrintable(r.id));
        }
        QCOMPARE(ids.size(), 17);
    }

    void goodMapHasNoFindings()
    {
        const LintFindings findings = lintMapFile(m_goodMap, m_options);
        QVERIFY2(findings.isEmpty(), qPrintable(describe(findings)));
    }

    void badMapBreaksEveryRule_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<int>("line");   // where the finding points (0: any)
        QTest::newRow("MT101 using unique/srid") << "MT101" << 32;
        QTest::newRow("MT102 password") << "MT102" << 31;
        QTest::newRow("MT103 close connection") << "MT103" << 26;
        QTest::newRow("MT104 DEBUG") << "MT104" << 5;
        QTest::newRow("MT105 no .qix") << "MT105" << 38;
        QTest::newRow("MT106 no overviews") << "MT106" << 55;
        QTest::newRow("MT107 striped") << "MT107" << 55;
        QTest::newRow("MT108 SCALE=AUTO") << "MT108" << 56;
        QTest::newRow("MT109 dense labels") << "MT109" << 34;
        QTest::newRow("MT110 wms_srs") << "MT110" << 12;
        QTest::newRow("MT111 enable_request") << "MT111" << 12;
        QTest::newRow("MT112 outside roots") << "MT112" << 0;
        QTest::newRow("MT113 never matches") << "MT113" << 0;
        QTest::newRow("MT114 unused symbol") << "MT114" << 21;
        QTest::newRow("MT115 unused format") << "MT115" << 16;
        QTest::newRow("MT116 removed keyword") << "MT116" << 7;
    }
    void badMapBreaksEveryRule()
    {
        QFETCH(QString, rule);
        QFETCH(int, line);
        const LintFindings findings = lintMapFile(m_badMap, m_options);
        const LintFinding* f = firstOf(findings, rule);
        QVERIFY2(f, qPrintable(rule + QStringLiteral(" missing in:\n") + describe(findings)));
        QCOMPARE(f->pos.file, m_badMap);
        if (line) QCOMPARE(f->pos.line, line);
        QVERIFY(!f->message.isEmpty());
        QCOMPARE(f->severity, lintRule(rule)->severity);
    }

    void neverMatchesSaysWhy()
    {
        const LintFindings findings = lintMapFile(m_badMap, m_options);
        QStringList messages;
        for (const LintFinding& f : findings)
            if (f.ruleId == QLatin1String("MT113")) messages << f.message;
        QCOMPARE(messages.size(), 2);
        QVERIFY2(messages.join(' ').contains(QLatin1String("pop is numeric")), qPrintable(messages.join('\n')));
        QVERIFY2(messages.join(' ').contains(QLatin1String("nosuch"), Qt::CaseInsensitive), qPrintable(messages.join('\n')));
    }

    void quickFixesRemoveTheirFindings()
    {
        QFile f(m_badMap);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        const LintFindings findings = lintMapText(before, m_badMap, m_options);
        const QByteArray after = applyEdits(before, findings);
        QVERIFY(after != before);
        const LintFindings again = lintMapText(after, m_badMap, m_options);
        const QSet<QString> left = ruleIds(again);
        for (const char* fixed : {"MT103", "MT104", "MT110", "MT111", "MT114"})
            QVERIFY2(!left.contains(QLatin1String(fixed)), fixed);
        // MINSCALE is renamed; DATAPATTERN has no one-word replacement and stays.
        QVERIFY(after.contains("WEB MINSCALEDENOM 1000"));
        const auto count = [](const LintFindings& fs, const char* id) {
            return std::count_if(fs.begin(), fs.end(), [id](const LintFinding& f) { return f.ruleId == QLatin1String(id); });
        };
        QCOMPARE(count(findings, "MT116"), 2);
        QCOMPARE(count(again, "MT116"), 1);
        QVERIFY(after.contains("PROCESSING \"CLOSE_CONNECTION=DEFER\""));
        QVERIFY(after.contains("DEBUG OFF"));
        QVERIFY(after.contains("\"wms_enable_request\" \"*\""));
        QVERIFY(after.contains("using srid=4326"));
        QVERIFY(!after.contains("unusedsym"));
        // Nothing else moved: every line of the original that no edit touched is still there.
        for (const QByteArray& line : before.split('\n'))
            if (!line.contains("DEBUG") && !line.contains("MS_ERRORFILE") && !line.contains("DATAPATTERN") &&
                !line.contains("DATA \"geom") && !line.contains("unusedsym") && line.trimmed() != "SYMBOL" &&
                !line.contains("MINSCALE") && !line.contains("METADATA") &&
                !line.contains("TYPE ELLIPSE") && !line.contains("POINTS 1 1"))
                QVERIFY2(after.contains(line), line.constData());
    }

    void symbolsByNumberCountFromOne()
    {
        // SYMBOL 1 is the first SYMBOL (0 is the default one): neither is reported unused wrongly.
        QTemporaryDir dir;
        const QString map = writeMap(dir.path(), QStringLiteral("n.map"),
                                     "MAP\n  EXTENT 0 0 10 10\n  SIZE 10 10\n"
                                     "  SYMBOL\n    NAME \"first\"\n    TYPE ELLIPSE\n    POINTS 1 1 END\n  END\n"
                                     "  SYMBOL\n    NAME \"second\"\n    TYPE ELLIPSE\n    POINTS 1 1 END\n  END\n"
                                     "  LAYER\n    NAME \"p\"\n    TYPE POINT\n    FEATURE POINTS 1 1 END END\n"
                                     "    CLASS\n      STYLE\n        SYMBOL 1\n      END\n    END\n  END\nEND\n");
        QStringList unused;
        for (const LintFinding& f : lintMapFile(map, m_options))
            if (f.ruleId == QLatin1String("MT114")) unused << f.message;
        QCOMPARE(unused, QStringList{QStringLiteral("SYMBOL 'second' is never used")});
    }

    void networkSourcesAreNeverOpened()
    {
        QVERIFY(isLocalSource(QStringLiteral("data/roads.shp")));
        QVERIFY(isLocalSource(QStringLiteral("/srv/data/ortho.tif")));
        for (const char* remote : {"/vsicurl/http://169.254.169.254/x.tif", "https://example.org/a.tif", "PG:dbname=gis",
                                   "WFS:http://example.org/wfs", "NETCDF:\"f.nc\":v"})
            QVERIFY2(!isLocalSource(QLatin1String(remote)), remote);
    }

    void findingsOfIncludedFilesNameThem()
    {
        QTemporaryDir dir;
        QVERIFY(test::makePlaces(dir.path(), 3, false));
        writeMap(dir.path(), QStringLiteral("layer.inc"), "LAYER\n  NAME \"places\"\n  TYPE POINT\n  DATA \"places\"\n  DEBUG ON\nEND\n");
        const QString map = writeMap(dir.path(), QStringLiteral("main.map"),
                                     "MAP\n  EXTENT 0 0 100 100\n  SIZE 10 10\n  INCLUDE \"layer.inc\"\nEND\n");
        const LintFindings findings = lintMapFile(map, m_options);
        const LintFinding* debug = firstOf(findings, QStringLiteral("MT104"));
        QVERIFY2(debug, qPrintable(describe(findings)));
        QVERIFY2(debug->pos.file.endsWith(QLatin1String("layer.inc")), qPrintable(debug->pos.file));
        QCOMPARE(debug->pos.line, 5);
        const LintFinding* qix = firstOf(findings, QStringLiteral("MT105"));
        QVERIFY(qix && qix->pos.file.endsWith(QLatin1String("layer.inc")) && qix->pos.line == 4);
    }

    void reportsAreWellFormed()
    {
        const LintFindings findings = lintMapFile(m_badMap, m_options);
        const QByteArray text = lintText(findings);
        QVERIFY(text.contains(QStringLiteral("%1:5:3: warning:").arg(m_badMap).toUtf8()));
        QVERIFY(text.contains("[MT104]") && text.contains("  fix: "));
        const QJsonArray json = QJsonDocument::fromJson(lintJson(findings)).array();
        QCOMPARE(json.size(), findings.size());
        QCOMPARE(json.first().toObject().value(QLatin1String("file")).toString(), m_badMap);

        const QJsonObject sarif = QJsonDocument::fromJson(lintSarif(findings, m_bad.path(), QStringLiteral("1.0"))).object();
        QCOMPARE(sarif.value(QLatin1String("version")).toString(), QStringLiteral("2.1.0"));
        const QJsonObject run = sarif.value(QLatin1String("runs")).toArray().first().toObject();
        QCOMPARE(run.value(QLatin1String("results")).toArray().size(), findings.size());
        const QJsonObject first = run.value(QLatin1String("results")).toArray().first().toObject();
        const QJsonObject location = first.value(QLatin1String("locations")).toArray().first().toObject()
                                         .value(QLatin1String("physicalLocation")).toObject();
        QCOMPARE(location.value(QLatin1String("artifactLocation")).toObject().value(QLatin1String("uri")).toString(),
                 QStringLiteral("bad.map"));
    }

    void sarifValidatesAgainstItsSchema()
    {
        const QString schema = QStringLiteral(MAPTUNE_SOURCE_DIR "/tests/lint/data/sarif-schema-2.1.0.json");
        QVERIFY(QFile::exists(schema));
        const QString sarifPath = m_bad.path() + QStringLiteral("/lint.sarif");
        QFile out(sarifPath);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(lintSarif(lintMapFile(m_badMap, m_options), m_bad.path(), QStringLiteral("1.0")));
        out.close();
        // python3-jsonschema (installed by scripts/setup) implements JSON Schema draft 7, which SARIF uses.
        const QString script = QStringLiteral(
            "import json, sys, jsonschema\n"
            "schema = json.load(open(sys.argv[1]))\n"
            "log = json.load(open(sys.argv[2]))\n"
            "errors = list(jsonschema.Draft7Validator(schema).iter_errors(log))\n"
            "for e in errors: print(list(e.path), e.message)\n"
            "sys.exit(1 if errors else 0)\n");
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), script, schema, sarifPath});
        QVERIFY(python.waitForFinished(60000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardOutput() + python.readAllStandardError());

        // The validator does reject a broken log (so the pass above means something).
        QFile in(sarifPath);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject broken = QJsonDocument::fromJson(in.readAll()).object();
        broken.insert(QStringLiteral("version"), QStringLiteral("9.9"));
        QFile brokenFile(sarifPath + QStringLiteral(".broken"));
        QVERIFY(brokenFile.open(QIODevice::WriteOnly));
        brokenFile.write(QJsonDocument(broken).toJson());
        brokenFile.close();
        python.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), script, schema, brokenFile.fileName()});
        QVERIFY(python.waitForFinished(60000));
        QCOMPARE(python.exitCode(), 1);
    }
};

QTEST_GUILESS_MAIN(TestLint)
#include "test_lint.moc"
