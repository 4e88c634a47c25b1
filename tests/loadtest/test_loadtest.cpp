// Load generator: bbox sequences identical to ../shared/bench/benchlib.py
// (expected values below were printed by CPython 3.11's random.Random and
// benchlib.make_bboxes/fill, the reference implementation), URL templates,
// statistics, response classification, and real HTTP runs against a small
// in-process httplib server (concurrency, keep-alive, errors, cancellation).

#include "loadtest/bbox_sequence.h"
#include "loadtest/experiment.h"
#include "loadtest/latency_stats.h"
#include "loadtest/load_runner.h"
#include "loadtest/python_random.h"
#include "loadtest/response_check.h"
#include "loadtest/url_template.h"

#include <httplib.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

using namespace maptune;

namespace {

// The signature and IHDR of a PNG: all the load generator looks at.
QByteArray pngHeader(int w, int h)
{
    QByteArray b("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR", 16);
    for (int v : {w, h})
        for (int shift : {24, 16, 8, 0}) b.append(char((v >> shift) & 0xff));
    b.append("\x08\x02\x00\x00\x00", 5);
    return b + QByteArray(200, 'x');
}

// A fake WMS on 127.0.0.1: /png answers a PNG of WIDTH x HEIGHT, /slow the
// same after a delay, /fail 500, /xml a ServiceException with status 200,
// /magic "image/png" that is not one. Counts connections (distinct client
// ports) and the largest number of requests in flight.
class FakeWms {
public:
    explicit FakeWms(int delayMs = 0) : m_delayMs(delayMs)
    {
        m_server.set_keep_alive_max_count(100000);
        m_server.Get(R"(/(\w+))", [this](const httplib::Request& req, httplib::Response& res) { answer(req, res); });
        m_port = m_server.bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server.listen_after_bind(); });
        while (!m_server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~FakeWms()
    {
        m_server.stop();
        m_thread.join();
    }
    QString url(const QString& route) const
    {
        return QStringLiteral("http://127.0.0.1:%1/%2?BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=image/png&SEQ={SEQ}")
            .arg(m_port)
            .arg(route);
    }
    int connections() const
    {
        std::lock_guard lock(m_mutex);
        return int(m_ports.size());
    }
    int maxInFlight() const { return m_maxInFlight; }
    int requests() const { return m_requests; }

private:
    void answer(const httplib::Request& req, httplib::Response& res)
    {
        {
            std::lock_guard lock(m_mutex);
            m_ports.insert(req.remote_port);
        }
        ++m_requests;
        const int now = ++m_inFlight;
        int seen = m_maxInFlight;
        while (now > seen && !m_maxInFlight.compare_exchange_weak(seen, now)) {
        }
        const std::string route = req.matches[1];
        if (m_delayMs > 0 || route == "slow") std::this_thread::sleep_for(std::chrono::milliseconds(m_delayMs ? m_delayMs : 200));
        const int w = std::stoi(req.get_param_value("WIDTH")), h = std::stoi(req.get_param_value("HEIGHT"));
        if (route == "fail") {
            res.status = 500;
            res.set_content("mapserv crashed", "text/plain");
        } else if (route == "xml") {
            res.set_content("<?xml version='1.0'?><ServiceExceptionReport><ServiceException code=\"InvalidSRS\">bad</ServiceException></ServiceExceptionReport>",
                            "application/vnd.ogc.se_xml");
        } else if (route == "magic") {
            res.set_content("GARBAGE-not-a-png", "image/png");
        } else if (route == "small") {
            res.set_content(pngHeader(w / 2, h / 2).toStdString(), "image/png");
        } else {
            res.set_content(pngHeader(w, h).toStdString(), "image/png");
        }
        --m_inFlight;
    }

    httplib::Server m_server;
    std::thread m_thread;
    int m_port = 0;
    int m_delayMs = 0;
    mutable std::mutex m_mutex;
    std::set<int> m_ports;
    std::atomic<int> m_inFlight{0}, m_maxInFlight{0}, m_requests{0};
};

BboxSpec rasterSpec(int w = 512, int h = 512, std::uint64_t seed = 42)
{
    BboxOptions o;
    o.preset = QStringLiteral("raster");
    o.size = QStringLiteral("%1x%2").arg(w).arg(h);
    o.seed = seed;
    return *resolveBboxSpec(o).spec;
}

LoadOptions smallRun(const QString& url, qint64 requests, int concurrency = 1)
{
    LoadOptions o;
    o.urlTemplate = url;
    o.bbox = rasterSpec(64, 32);
    o.concurrency = concurrency;
    o.durationS = 0;
    o.maxRequests = requests;
    o.warmup = 0;
    o.timeoutS = 10;
    return o;
}

}  // namespace

class TestLoadtest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pythonRandom_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<double>("first");
        QTest::addColumn<double>("second");
        QTest::newRow("42") << quint64(42) << 0.6394267984578837 << 0.025010755222666936;
        QTest::newRow("0") << quint64(0) << 0.8444218515250481 << 0.7579544029403025;
        QTest::newRow("2^40+5, two key words") << (quint64(1) << 40) + 5 << 0.5043802970418443 << -1.0;
    }
    void pythonRandom()
    {
        QFETCH(quint64, seed);
        QFETCH(double, first);
        QFETCH(double, second);
        PythonRandom r(seed);
        QCOMPARE(r.random(), first);
        if (second >= 0) QCOMPARE(r.random(), second);
    }

    void sequenceMatchesBenchlib_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<quint64>("offset");
        QTest::addColumn<int>("index");
        QTest::addColumn<QList<double>>("expected");
        QTest::newRow("raster 0") << "raster" << quint64(0) << 0
                                  << QList<double>{-9259.756578748598, -36107.60075887121, -8292.147567137861, -35139.99174726047};
        QTest::newRow("raster 2") << "raster" << quint64(0) << 2
                                  << QList<double>{-9124.187828795595, -35930.350682462486, -7487.528088352549, -34293.690942019435};
        QTest::newRow("raster warm-up") << "raster" << quint64(BboxSequence::kWarmupSeedOffset) << 0
                                        << QList<double>{-7910.0850304096675, -36120.13359974121, -5892.3448396567655, -34102.39340898831};
        QTest::newRow("roads 0") << "roads" << quint64(0) << 0 << QList<double>{139.7367426798458, 35.66085, 139.7967426798458, 35.70955};
        QTest::newRow("roads 1") << "roads" << quint64(0) << 1
                                 << QList<double>{139.70030293183692, 35.66085, 139.76030293183692, 35.70955};
        QTest::newRow("roads warm-up") << "roads" << quint64(BboxSequence::kWarmupSeedOffset) << 0
                                       << QList<double>{139.77208415686874, 35.66085, 139.83208415686875, 35.70955};
    }
    void sequenceMatchesBenchlib()
    {
        QFETCH(QString, preset);
        QFETCH(quint64, offset);
        QFETCH(int, index);
        QFETCH(QList<double>, expected);
        BboxOptions o;
        o.preset = preset;
        const auto spec = resolveBboxSpec(o).spec;
        QVERIFY(spec);
        const Bbox b = BboxSequence::first(*spec, index + 1, offset).last();
        QCOMPARE(b.minx, expected[0]);
        QCOMPARE(b.miny, expected[1]);
        QCOMPARE(b.maxx, expected[2]);
        QCOMPARE(b.maxy, expected[3]);
    }

    void extentModeSmallExtent()
    {
        // benchlib with extent 0,0,100,100, res 0.5..4, 256x128, seed 7: the
        // window is clamped to the extent when it would not fit.
        BboxOptions o;
        o.extent = QStringLiteral("0,0,100,100");
        o.res = QStringLiteral("0.5,4");
        o.size = QStringLiteral("256x128");
        o.seed = 7;
        const auto spec = resolveBboxSpec(o).spec;
        QVERIFY(spec);
        const auto b = BboxSequence::first(*spec, 2);
        QCOMPARE(b[0], (Bbox{0, 0, 100, 100}));
        QCOMPARE(b[1].miny, 9.36016254819323);
        QCOMPARE(b[1].maxy, 83.76419254391035);
    }

    void presetBounds_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::newRow("raster") << "raster";
        QTest::newRow("roads") << "roads";
    }
    void presetBounds()
    {
        QFETCH(QString, preset);
        BboxOptions o;
        o.preset = preset;
        o.seed = 1234;
        const BboxSpec spec = *resolveBboxSpec(o).spec;
        const auto boxes = BboxSequence::first(spec, 2000);
        for (const Bbox& b : boxes) {
            if (preset == QLatin1String("raster")) {
                // fully inside the orthophoto, 0.5..4 m per pixel, square pixels
                QVERIFY(b.minx >= -9338.0 && b.maxx <= -5242.0 && b.miny >= -36968.0 && b.maxy <= -32872.0);
                const double res = (b.maxx - b.minx) / 512;
                QVERIFY(res >= 0.5 - 1e-9 && res <= 4.0 + 1e-9);
                QVERIFY(qAbs((b.maxy - b.miny) / 512 - res) < 1e-9);
            } else {
                QVERIFY(qAbs((b.maxx - b.minx) - 0.06) < 1e-9);
                QVERIFY(qAbs((b.maxy - b.miny) - 0.0487) < 1e-9);
                QVERIFY(qAbs((b.minx + b.maxx) / 2 - 139.7528) <= 0.05 + 1e-9);
                QVERIFY(qAbs((b.miny + b.maxy) / 2 - 35.6852) < 1e-9);
            }
        }
        // same seed, same sequence; another seed, another one
        QCOMPARE(BboxSequence::first(spec, 50), boxes.mid(0, 50));
        BboxSpec other = spec;
        other.seed = 1235;
        QVERIFY(BboxSequence::first(other, 50) != boxes.mid(0, 50));
    }

    void specOptions_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("extent");
        QTest::addColumn<QString>("res");
        QTest::addColumn<QString>("center");
        QTest::addColumn<QString>("span");
        QTest::addColumn<QString>("size");
        QTest::addColumn<QString>("error");  // a word of the message; empty: valid
        QTest::newRow("nothing") << "" << "" << "" << "" << "" << "512" << "no request sequence";
        QTest::newRow("extent without res") << "" << "0,0,1,1" << "" << "" << "" << "512" << "--res";
        QTest::newRow("raster preset, own extent keeps res") << "raster" << "0,0,10,10" << "" << "" << "" << "512" << "";
        QTest::newRow("center without span") << "" << "" << "" << "1,2" << "" << "512" << "--span";
        QTest::newRow("roads preset, own centre keeps span") << "roads" << "" << "" << "1,2" << "" << "512" << "";
        QTest::newRow("unknown preset") << "tiles" << "" << "" << "" << "" << "512" << "unknown preset";
        QTest::newRow("bad size") << "raster" << "" << "" << "" << "" << "0x5" << "--size";
        QTest::newRow("span with one value") << "" << "" << "" << "0,0" << "10" << "200x100" << "";
    }
    void specOptions()
    {
        QFETCH(QString, preset);
        QFETCH(QString, extent);
        QFETCH(QString, res);
        QFETCH(QString, center);
        QFETCH(QString, span);
        QFETCH(QString, size);
        QFETCH(QString, error);
        BboxOptions o{preset, extent, res, center, QStringLiteral("0,0"), span, {}, size, 42};
        const BboxSpecResult r = resolveBboxSpec(o);
        QCOMPARE(r.spec.has_value(), error.isEmpty());
        if (!error.isEmpty()) QVERIFY2(r.error.contains(error), qPrintable(r.error));
        if (QTest::currentDataTag() == QByteArray("raster preset, own extent keeps res")) {
            QCOMPARE(r.spec->extent, (std::array<double, 4>{0, 0, 10, 10}));
            QCOMPARE(r.spec->res, (std::array<double, 2>{0.5, 4.0}));
        }
        if (QTest::currentDataTag() == QByteArray("roads preset, own centre keeps span"))
            QCOMPARE(r.spec->span, (std::array<double, 2>{0.06, 0.0487}));
        if (QTest::currentDataTag() == QByteArray("span with one value"))  // h = w * HEIGHT / WIDTH
            QCOMPARE(r.spec->span, (std::array<double, 2>{10, 5}));
    }

    void bboxFileReplay()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("b.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# my list\n1,2,3,4\n\n5 6 7 8\n 9,10,11,12 \n");
        f.close();
        BboxOptions o;
        o.bboxFile = path;
        o.preset = QStringLiteral("raster");  // the file wins, as in benchlib
        const auto spec = resolveBboxSpec(o).spec;
        QVERIFY(spec);
        QCOMPARE(spec->mode, BboxSpec::Mode::File);
        const QList<Bbox> expected{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {1, 2, 3, 4}, {5, 6, 7, 8}};
        QCOMPARE(BboxSequence::first(*spec, 5), expected);
        // warm-up starts at 1000003 mod 3 = 1
        QCOMPARE(BboxSequence::first(*spec, 1, BboxSequence::kWarmupSeedOffset).first(), (Bbox{5, 6, 7, 8}));

        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("1,2,3\n");
        f.close();
        QVERIFY(resolveBboxSpec(o).error.contains(QStringLiteral(":1:")));
    }

    void templateFill_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("expected");
        // benchlib.fill of the third bbox of each preset
        QTest::newRow("raster") << "raster"
                                << "/x?BBOX=-9124.1878288,-35930.35068246,-7487.52808835,-34293.69094202&W=512&H=512&S=2&a=-9124.1878288,-35930.35068246,-7487.52808835,-34293.69094202";
        QTest::newRow("roads") << "roads"
                               << "/x?BBOX=139.74644712,35.66085,139.80644712,35.70955&W=512&H=512&S=2&a=139.74644712,35.66085,139.80644712,35.70955";
    }
    void templateFill()
    {
        QFETCH(QString, preset);
        QFETCH(QString, expected);
        BboxOptions o;
        o.preset = preset;
        const auto spec = *resolveBboxSpec(o).spec;
        const UrlTemplate t(QStringLiteral("/x?BBOX={BBOX}&W={WIDTH}&H={HEIGHT}&S={SEQ}&a={MINX},{MINY},{MAXX},{MAXY}"));
        QCOMPARE(t.fill(BboxSequence::first(spec, 3)[2], 512, 512, 2), expected);
    }

    void formatNumber_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("tiny negative") << -0.0000000001 << "0";
        QTest::newRow("tiny") << 1e-9 << "0";
        QTest::newRow("short") << 139.75 << "139.75";
        QTest::newRow("rounded") << -7289.123456789 << "-7289.12345679";
        QTest::newRow("integer") << 100.0 << "100";
    }
    void formatNumber()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(UrlTemplate::formatNumber(value), text);
    }

    void templateCheck_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("allowRemote");
        QTest::addColumn<QString>("error");
        QTest::newRow("loopback") << "http://127.0.0.1:8081/mapserv?BBOX={BBOX}" << false << "";
        QTest::newRow("localhost") << "http://localhost/wms?BBOX={MINX},{MINY},{MAXX},{MAXY}" << false << "";
        QTest::newRow("ipv6") << "http://[::1]:9000/?BBOX={BBOX}" << false << "";
        QTest::newRow("remote") << "http://example.com/wms?BBOX={BBOX}" << false << "non-loopback";
        QTest::newRow("remote allowed") << "http://example.com/wms?BBOX={BBOX}" << true << "";
        QTest::newRow("no placeholder") << "http://127.0.0.1/wms?BBOX=1,2,3,4" << false << "placeholder";
        QTest::newRow("https") << "https://127.0.0.1/wms?BBOX={BBOX}" << false << "http://";
    }
    void templateCheck()
    {
        QFETCH(QString, url);
        QFETCH(bool, allowRemote);
        QFETCH(QString, error);
        const Status checked = UrlTemplate(url).check(allowRemote);
        QCOMPARE(!checked.ok(), !error.isEmpty());
        if (!checked) QVERIFY2(checked.message().contains(error), qPrintable(checked.message()));
    }

    void targetAndPath()
    {
        const UrlTemplate t(QStringLiteral("http://[::1]:9000/wms/x?BBOX={BBOX}"));
        QCOMPARE(t.target()->host, QStringLiteral("::1"));
        QCOMPARE(t.target()->port, 9000);
        QCOMPARE(UrlTemplate::pathAndQuery(QStringLiteral("http://h:1/a?b=c,d")), QByteArray("/a?b=c,d"));
        QCOMPARE(UrlTemplate::pathAndQuery(QStringLiteral("http://h?x=1")), QByteArray("/?x=1"));
        QCOMPARE(UrlTemplate(QStringLiteral("http://h/{BBOX}")).target()->port, 80);
    }

    void percentiles_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("expected");
        // closest-rank interpolation: k = (n-1) p/100
        QTest::newRow("p50 even") << QList<double>{1, 2, 3, 4} << 50.0 << 2.5;
        QTest::newRow("p95 of 4") << QList<double>{1, 2, 3, 4} << 95.0 << 3.85;
        QTest::newRow("p99 of 4") << QList<double>{1, 2, 3, 4} << 99.0 << 3.97;
        QTest::newRow("p0") << QList<double>{5, 7} << 0.0 << 5.0;
        QTest::newRow("p100") << QList<double>{5, 7} << 100.0 << 7.0;
        QTest::newRow("one value") << QList<double>{9} << 99.0 << 9.0;
        QTest::newRow("p90 of 11") << QList<double>{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100} << 90.0 << 90.0;
    }
    void percentiles()
    {
        QFETCH(QList<double>, values);
        QFETCH(double, p);
        QFETCH(double, expected);
        QVERIFY(qAbs(*LatencyStats::percentile(values, p) - expected) < 1e-12);
    }

    void medians()
    {
        QVERIFY(!LatencyStats::percentile({}, 50));
        QCOMPARE(*LatencyStats::median({3, 1, 2}), 2.0);
        QCOMPARE(*LatencyStats::median({4, 1, 3, 2}), 2.5);
        QVERIFY(!LatencyStats::median({}));
    }

    void classify_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expectedKind");
        QTest::addColumn<QString>("reason");  // empty: ok
        QTest::newRow("png") << 200 << QByteArray("image/png") << pngHeader(256, 128) << "png" << "";
        QTest::newRow("png mode") << 200 << QByteArray("image/png; mode=8bit") << pngHeader(256, 128) << "png" << "";
        QTest::newRow("png wrong size") << 200 << QByteArray("image/png") << pngHeader(128, 128) << "png" << "png size (128, 128)";
        QTest::newRow("500") << 500 << QByteArray("text/plain") << QByteArray("oops") << "png" << "HTTP 500";
        QTest::newRow("exception 200") << 200 << QByteArray("application/vnd.ogc.se_xml")
                                       << QByteArray("<ServiceExceptionReport><ServiceException>x") << "png"
                                       << "ServiceException (application/vnd.ogc.se_xml)";
        QTest::newRow("html") << 200 << QByteArray("text/html") << QByteArray("<html>") << "png" << "content-type text/html";
        QTest::newRow("wrong magic") << 200 << QByteArray("image/png") << QByteArray("GARBAGE") << "png" << "body is not an image";
        QTest::newRow("jpeg for png") << 200 << QByteArray("image/jpeg") << QByteArray("\xff\xd8\xff\xe0rest") << "png"
                                      << "jpeg body, png asked";
        QTest::newRow("jpeg any") << 200 << QByteArray("image/jpeg") << QByteArray("\xff\xd8\xff\xe0rest") << "" << "";
    }
    void classify()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(QString, expectedKind);
        QFETCH(QString, reason);
        const ResponseVerdict v = ResponseCheck::classify(status, contentType, body, 256, 128, true, expectedKind);
        QCOMPARE(v.ok, reason.isEmpty());
        QCOMPARE(v.reason, reason);
    }

    void preview()
    {
        QCOMPARE(ResponseCheck::preview(QByteArray("ab\x01\ncd", 6)), QStringLiteral("ab\\x01 cd"));
        QCOMPARE(ResponseCheck::preview(QByteArray(10, 'z'), 4), QStringLiteral("zzzz..."));
        QCOMPARE(ResponseCheck::kindOfFormat(QStringLiteral("image/png; mode=8bit")), QStringLiteral("png"));
        QCOMPARE(ResponseCheck::kindOfFormat(QStringLiteral("image/jpg")), QStringLiteral("jpeg"));
    }

    void liveErrors_data()
    {
        QTest::addColumn<QString>("route");
        QTest::addColumn<QString>("reason");   // empty: all good
        QTest::addColumn<QString>("bytes");    // in the first bytes of the example
        QTest::newRow("png") << "png" << "" << "";
        QTest::newRow("500") << "fail" << "HTTP 500" << "mapserv crashed";
        QTest::newRow("exception") << "xml" << "ServiceException (application/vnd.ogc.se_xml)" << "InvalidSRS";
        QTest::newRow("wrong magic") << "magic" << "body is not an image" << "GARBAGE";
        QTest::newRow("wrong size") << "small" << "png size (32, 16)" << "\\x89PNG";
    }
    void liveErrors()
    {
        QFETCH(QString, route);
        QFETCH(QString, reason);
        QFETCH(QString, bytes);
        FakeWms wms;
        const LoadRun run = LoadRunner(smallRun(wms.url(route), 12, 2)).run();
        QVERIFY2(run.result, qPrintable(run.error));
        const LoadReport& r = *run.result;
        QCOMPARE(r.requests, 12);
        QCOMPARE(wms.requests(), 12);
        if (reason.isEmpty()) {
            QCOMPARE(r.ok, 12);
            QCOMPARE(r.errors, 0);
            QVERIFY(r.p50Ms && r.p99Ms && *r.p50Ms <= *r.p99Ms);
            QCOMPARE(r.bytesMean, double(pngHeader(64, 32).size()));
            QVERIFY(r.reqPerMin > 0);
            QVERIFY(qAbs(r.reqPerMin - 60.0 * 12 / r.durationS) < 1e-6 * r.reqPerMin);
        } else {
            QCOMPARE(r.ok, 0);
            QCOMPARE(r.errors, 12);
            QCOMPARE(r.errorReasons.value(reason), 12);
            QCOMPARE(r.errorExamples.size(), 1);
            QVERIFY2(r.errorExamples[0].firstBytes.contains(bytes), qPrintable(r.errorExamples[0].firstBytes));
            QVERIFY(r.errorExamples[0].url.contains(QStringLiteral("WIDTH=64&HEIGHT=32")));
            QCOMPARE(r.reqPerMin, 0.0);
        }
        QCOMPARE(r.toJson().value(QStringLiteral("errors")).toInt(), int(r.errors));
    }

    void refusedConnection()
    {
        // a port nobody listens on: transport errors, no HTTP status
        FakeWms* wms = new FakeWms;
        const QString url = wms->url(QStringLiteral("png"));
        delete wms;
        const LoadRun run = LoadRunner(smallRun(url, 3)).run();
        QVERIFY(run.result);
        QCOMPARE(run.result->errors, 3);
        QCOMPARE(run.result->errorExamples.value(0).status, 0);
    }

    void concurrencyReached()
    {
        FakeWms wms(60);
        LoadOptions o = smallRun(wms.url(QStringLiteral("png")), 24, 4);
        const LoadRun run = LoadRunner(o).run();
        QVERIFY(run.result);
        QCOMPARE(run.result->ok, 24);
        QCOMPARE(wms.maxInFlight(), 4);
        // 24 requests of >= 60 ms over 4 connections take at least 6 x 60 ms
        QVERIFY(run.result->durationS >= 0.36);
    }

    void keepAlive()
    {
        FakeWms wms;
        LoadOptions o = smallRun(wms.url(QStringLiteral("png")), 60, 3);
        o.warmup = 6;
        const LoadRun run = LoadRunner(o).run();
        QVERIFY(run.result);
        QCOMPARE(run.result->ok, 60);
        QCOMPARE(wms.requests(), 66);
        QCOMPARE(wms.connections(), 3);           // one connection per worker, warm-up included
        QCOMPARE(run.result->connections, 0);     // none opened while measuring
        QCOMPARE(run.result->warmupRequests, 6);
    }

    void durationBound()
    {
        FakeWms wms(20);
        LoadOptions o = smallRun(wms.url(QStringLiteral("png")), 100000, 2);
        o.durationS = 0.5;
        const LoadRun run = LoadRunner(o).run();
        QVERIFY(run.result);
        QVERIFY(run.result->durationS >= 0.5 && run.result->durationS < 3);
        QVERIFY(run.result->ok > 4 && run.result->ok <= 2 * 0.6 / 0.02 + 2);
        QVERIFY(run.result->clientCpuPctOfOneCore.has_value());
        int perSecond = 0;
        for (int n : run.result->okPerSecond) perSecond += n;
        QCOMPARE(perSecond, int(run.result->ok));
    }

    void cancellation()
    {
        FakeWms wms(300);
        LoadOptions o = smallRun(wms.url(QStringLiteral("png")), 100000, 2);
        o.durationS = 30;
        LoadRunner runner(o);
        CancelToken token;
        runner.setCancelToken(token);
        QList<LoadProgress> seen;
        runner.setProgressCallback([&](const LoadProgress& p) {
            seen << p;
            if (p.phase == LoadProgress::Phase::Measure && p.elapsedS > 0.4) token.cancel();
        }, 50);
        QElapsedTimer timer;
        timer.start();
        const LoadRun run = runner.run();
        QVERIFY(run.result);
        QVERIFY(run.result->cancelled);
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(run.result->errors, 0);          // aborted requests are not counted as errors
        QVERIFY(!seen.isEmpty());
    }

    void progressReported()
    {
        FakeWms wms(10);
        LoadOptions o = smallRun(wms.url(QStringLiteral("png")), 30, 1);
        LoadRunner runner(o);
        LoadProgress last;
        int calls = 0;
        runner.setProgressCallback([&](const LoadProgress& p) {
            last = p;
            ++calls;
        }, 20);
        QVERIFY(runner.run().result);
        QVERIFY(calls >= 2);
        QCOMPARE(last.phase, LoadProgress::Phase::Measure);
        QCOMPARE(last.done, 30);
        QCOMPARE(last.fraction, 1.0);
    }

    void validation()
    {
        LoadOptions o = smallRun(QStringLiteral("http://10.1.2.3/?BBOX={BBOX}"), 5);
        QVERIFY(LoadRunner(o).run().error.contains(QStringLiteral("non-loopback")));
        o = smallRun(QStringLiteral("http://127.0.0.1:1/?BBOX={BBOX}"), 100000);
        QVERIFY(LoadRunner::validate(o).message().contains(QStringLiteral("unbounded")));
        o.maxRequests = 5;
        o.concurrency = 0;
        QVERIFY(LoadRunner::validate(o).message().contains(QStringLiteral("concurrency")));
    }

    void schedule_data()
    {
        QTest::addColumn<bool>("abba");
        QTest::addColumn<QList<int>>("configs");
        QTest::newRow("ABAB") << false << QList<int>{0, 1, 0, 1, 0, 1};
        QTest::newRow("ABBA") << true << QList<int>{0, 1, 1, 0, 0, 1};
    }
    void schedule()
    {
        QFETCH(bool, abba);
        QFETCH(QList<int>, configs);
        const auto order = Experiment::schedule(2, 3, abba);
        QList<int> got;
        for (const auto& [round, k] : order) got << k;
        QCOMPARE(got, configs);
        QCOMPARE(order[2].first, 1);
    }

    void summarizeMedians()
    {
        QList<ExperimentConfig> configs{{QStringLiteral("a"), {}, {}, false}, {QStringLiteral("b"), {}, {}, false}};
        QList<LoadReport> runs;
        const QList<double> rpm{100, 150, 300, 160, 110, 140};   // a: 100 300 110, b: 150 160 140
        for (double v : rpm) {
            LoadReport r;
            r.reqPerMin = v;
            r.p50Ms = v / 10;
            runs << r;
        }
        const auto s = Experiment::summarize(configs, runs, {0, 1, 0, 1, 0, 1});
        QCOMPARE(s[0].reqPerMin, 110.0);
        QCOMPARE(s[1].reqPerMin, 150.0);
        QCOMPARE(*s[1].ratioToBaseline, 150.0 / 110.0);
        QCOMPARE(*s[0].ratioToBaseline, 1.0);
        QCOMPARE(*s[1].p50Ms, 15.0);
    }

    void liveExperiment()
    {
        FakeWms good, bad;
        ExperimentOptions o;
        o.configs = {{QStringLiteral("good"), good.url(QStringLiteral("png")), {}, false},
                     {QStringLiteral("bad"), bad.url(QStringLiteral("fail")), {}, false}};
        o.load = smallRun({}, 5);
        o.rounds = 2;
        Experiment e(o);
        QStringList order;
        e.setRunCallback([&](const LoadReport& r) { order << r.label; });
        const ExperimentResult r = e.run();
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(order, (QStringList{"good round 1", "bad round 1", "good round 2", "bad round 2"}));
        QCOMPARE(good.requests(), 10);
        QCOMPARE(bad.requests(), 10);
        QCOMPARE(r.summary[1].errors, 10);
        QCOMPARE(*r.summary[1].ratioToBaseline, 0.0);
        const QJsonObject json = r.toJson();
        QCOMPARE(json.value(QStringLiteral("runs")).toArray().size(), 4);
        QVERIFY(r.table().contains(QStringLiteral("bad")));
    }
};

QTEST_GUILESS_MAIN(TestLoadtest)
#include "test_loadtest.moc"
