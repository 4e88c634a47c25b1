// Experiment reports: CSV columns and values from a hand-built ExperimentResult
// (medians over rounds worked out by hand below), CSV quoting, the HTML
// report well-formed XHTML with its two SVG charts and every label escaped.

#include "loadtest/experiment_report.h"
#include "loadtest/report_charts.h"

#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace maptune;

namespace {

LoadReport run(const QString& label, double reqPerMin, double p50, double p90, double p99, double max, double bytes,
               qint64 errors)
{
    LoadReport r;
    r.label = label;
    r.reqPerMin = reqPerMin;
    r.reqPerS = reqPerMin / 60;
    r.requests = 100;
    r.ok = 100 - errors;
    r.errors = errors;
    r.durationS = 100 * 60 / reqPerMin;
    r.p50Ms = p50;
    r.p90Ms = p90;
    r.p95Ms = p90;
    r.p99Ms = p99;
    r.maxMs = max;
    r.bytesMean = bytes;
    return r;
}

// Two configurations, two rounds, run A B A B.
ExperimentResult handBuilt(const QString& labelA, const QString& labelB)
{
    QList<ExperimentConfig> configs{{labelA, QStringLiteral("http://127.0.0.1/a?{BBOX}"), {}, false},
                                    {labelB, QStringLiteral("http://127.0.0.1/b?{BBOX}"), {}, false}};
    ExperimentResult r;
    r.runs << run(labelA + QStringLiteral(" round 1"), 600, 10, 20, 30, 50, 1000, 0)
           << run(labelB + QStringLiteral(" round 1"), 300, 20, 40, 60, 90, 2000, 1)
           << run(labelA + QStringLiteral(" round 2"), 660, 12, 22, 32, 70, 1100, 0)
           << run(labelB + QStringLiteral(" round 2"), 330, 22, 44, 66, 110, 2100, 2);
    r.runs[0].serverCpuMsPerRequest = 4;
    r.runs[2].serverCpuMsPerRequest = 6;
    r.runConfig = {0, 1, 0, 1};
    r.runRound = {0, 0, 1, 1};
    r.summary = Experiment::summarize(configs, r.runs, r.runConfig);
    return r;
}

// RFC 4180 fields of one line (quotes doubled inside quoted fields).
QStringList parseCsvLine(const QString& line)
{
    QStringList out;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) field += line[++i];
            else if (c == QLatin1Char('"')) quoted = false;
            else field += c;
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            out << field;
            field.clear();
        } else {
            field += c;
        }
    }
    return out << field;
}

QList<QStringList> parseCsv(const QString& text)
{
    QList<QStringList> rows;
    for (const QString& line : text.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts)) rows << parseCsvLine(line);
    return rows;
}

}  // namespace

class TestReports : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void summaryCsvValues()
    {
        const auto rows = parseCsv(ExperimentReport::summaryCsv(handBuilt(QStringLiteral("A"), QStringLiteral("B"))));
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[0], (QStringList{"label", "req_per_min", "req_per_s", "p50_ms", "p90_ms", "p99_ms", "max_ms",
                                       "bytes_mean", "errors", "ratio_to_baseline", "server_cpu_ms_per_request"}));
        // A: medians of (600, 660), (10, 12), (20, 22), (30, 32), (50, 70), (1000, 1100), CPU (4, 6)
        QCOMPARE(rows[1], (QStringList{"A", "630.0", "10.50", "11.00", "21.00", "31.00", "60.00", "1050", "0", "1.000", "5.00"}));
        // B: half the throughput (315 / 630), 3 errors over both rounds, no server CPU known
        QCOMPARE(rows[2], (QStringList{"B", "315.0", "5.25", "21.00", "42.00", "63.00", "100.00", "2050", "3", "0.500", ""}));
    }

    void runsCsvValues()
    {
        const auto rows = parseCsv(ExperimentReport::runsCsv(handBuilt(QStringLiteral("A"), QStringLiteral("B"))));
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows[0], ExperimentReport::runsColumns());
        QCOMPARE(rows[0].size(), 16);
        const QStringList run = rows[0];
        auto col = [&](const QString& name) { return int(run.indexOf(name)); };
        QCOMPARE(rows[2][col("run")], QStringLiteral("2"));
        QCOMPARE(rows[2][col("round")], QStringLiteral("1"));
        QCOMPARE(rows[2][col("config")], QStringLiteral("B"));
        QCOMPARE(rows[2][col("label")], QStringLiteral("B round 1"));
        QCOMPARE(rows[2][col("errors")], QStringLiteral("1"));
        QCOMPARE(rows[2][col("ok")], QStringLiteral("99"));
        QCOMPARE(rows[3][col("round")], QStringLiteral("2"));
        QCOMPARE(rows[3][col("req_per_min")], QStringLiteral("660.0"));
        QCOMPARE(rows[3][col("req_per_s")], QStringLiteral("11.00"));
        QCOMPARE(rows[3][col("duration_s")], QStringLiteral("9.091"));  // 100 requests at 660/min
        for (const QStringList& r : rows) QCOMPARE(r.size(), 16);
    }

    void csvQuoting_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::newRow("plain") << "COG" << "COG";
        QTest::newRow("comma") << "tiled, overviews" << "\"tiled, overviews\"";
        QTest::newRow("quote") << "the \"fast\" one" << "\"the \"\"fast\"\" one\"";
        QTest::newRow("newline") << "a\nb" << "\"a\nb\"";
    }
    void csvQuoting()
    {
        QFETCH(QString, text);
        QTEST(ExperimentReport::csvField(text), "field");
        // and a CSV written with such a label reads back as the label
        const auto rows = parseCsv(ExperimentReport::summaryCsv(handBuilt(text.remove(QLatin1Char('\n')), QStringLiteral("B"))));
        QCOMPARE(rows[1][0], text);
    }

    void xmlEscape_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("escaped");
        QTest::newRow("markup") << "<b>&" << "&lt;b&gt;&amp;";
        QTest::newRow("quotes") << "a\"b'c" << "a&quot;b&#39;c";
        QTest::newRow("control dropped") << QStringLiteral("a\x01\x1f" "b\tc") << "ab\tc";
        QTest::newRow("non-ASCII kept") << QStringLiteral("東京 ✓") << QStringLiteral("東京 ✓");
    }
    void xmlEscape()
    {
        QFETCH(QString, text);
        QTEST(ExperimentReport::xmlEscape(text), "escaped");
    }

    void htmlWellFormedAndEscaped()
    {
        const QString evil = QStringLiteral("<script>alert('x')</script> & \x01");
        ReportInfo info;
        info.title = QStringLiteral("LUT <on> & off");
        info.notes << QStringLiteral("layer \"ortho\"");
        info.descriptions << QStringLiteral("DATA /tmp/a&b.tif");
        const QString html = ExperimentReport::html(handBuilt(evil, QStringLiteral("LUT off")), info);
        QVERIFY(!html.contains(QLatin1String("<script")));
        QVERIFY(html.contains(QLatin1String("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; ")));
        QVERIFY(!html.contains(QLatin1String("src=")) && !html.contains(QLatin1String("href=")));  // self-contained

        QXmlStreamReader xml(html);
        int svgs = 0, rects = 0, rows = 0;
        QStringList texts;
        QString title;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement()) continue;
            if (xml.name() == QLatin1String("svg")) ++svgs;
            if (xml.name() == QLatin1String("rect")) ++rects;
            if (xml.name() == QLatin1String("tr")) ++rows;
            if (xml.name() == QLatin1String("h1")) title = xml.readElementText();
            else if (xml.name() == QLatin1String("text")) texts << xml.readElementText();
        }
        QVERIFY2(!xml.hasError(), qPrintable(QStringLiteral("%1 at line %2").arg(xml.errorString()).arg(xml.lineNumber())));
        QCOMPARE(title, QStringLiteral("LUT <on> & off"));
        QCOMPARE(svgs, 2);
        // throughput: 2 bars; latency: 3 legend keys + 3 bars per configuration
        QCOMPARE(rects, 2 + 3 + 6);
        QCOMPARE(rows, 1 + 2 + 1 + 4);   // summary head + 2, runs head + 4
        // the bar labels read back as the labels (the control character dropped), ratio on B's bar
        QVERIFY(texts.contains(QStringLiteral("<script>alert('x')</script>") + QChar(0x2026)));
        QVERIFY(texts.contains(QStringLiteral("315 (0.50x)")));
    }

    void htmlCancelledAndError()
    {
        ExperimentResult r = handBuilt(QStringLiteral("A"), QStringLiteral("B"));
        r.cancelled = true;
        r.error = QStringLiteral("B: connection <refused>");
        const QString html = ExperimentReport::html(r);
        QVERIFY(html.contains(QLatin1String("cancelled")));
        QVERIFY(html.contains(QLatin1String("connection &lt;refused&gt;")));
        QXmlStreamReader xml(html);
        while (!xml.atEnd()) xml.readNext();
        QVERIFY(!xml.hasError());
    }

    void niceMax_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("nice");
        QTest::newRow("zero") << 0.0 << 1.0;
        QTest::newRow("7") << 7.0 << 10.0;
        QTest::newRow("12") << 12.0 << 20.0;
        QTest::newRow("450") << 450.0 << 500.0;
        QTest::newRow("exact 1000") << 1000.0 << 1000.0;
        QTest::newRow("0.03") << 0.03 << 0.05;
    }
    void niceMax()
    {
        QFETCH(double, value);
        QFETCH(double, nice);
        QVERIFY2(qFuzzyCompare(ReportCharts::niceMax(value), nice), qPrintable(QString::number(ReportCharts::niceMax(value))));
    }

    void writeFileAtomically()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.csv"));
        QVERIFY(ExperimentReport::writeFile(path, QStringLiteral("a,b\r\n")).ok());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("a,b\r\n"));
        const Status refused = ExperimentReport::writeFile(dir.filePath(QStringLiteral("no/such/dir/r.csv")), QStringLiteral("x"));
        QVERIFY(!refused);
        QVERIFY2(refused.message().contains(QLatin1String("r.csv")), qPrintable(refused.message()));
    }
};

QTEST_GUILESS_MAIN(TestReports)
#include "test_reports.moc"
