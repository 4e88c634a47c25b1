// The raster advisor dock against a real embedded WMS on loopback: it lists
// a striped GeoTIFF with the right advice, really builds its overviews,
// converts it where the user says and offers the before/after benchmark,
// and points the layer at the new file in the editor's text.

#include "benchmark_fixture.h"

#include "benchmark_results_model.h"
#include "raster_advisor_panel.h"

#include "render/engine.h"

#include <QFile>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTest>
#include <QTextDocument>
#include <QTreeWidget>

using namespace maptune;
using namespace maptune::testing;

namespace {

// The raster map opened in a Bench, with an advisor that has inspected it.
struct Advised {
    Bench bench;
    std::unique_ptr<RasterAdvisorPanel> advisor;
    QString tiff;
    QStringList suggested;   // what the advisor proposed to write
    QString chosen;          // the answer to "where to write": empty is the suggestion

    bool open()
    {
        tiff = bench.dir.filePath("striped.tif");
        if (!writeStripedTiff(tiff, 2048) || !bench.open(kStripedRasterMap)) return false;
        bench.panel->settings()->setRounds(1);
        advisor = std::make_unique<RasterAdvisorPanel>(&bench.document, bench.panel.get());
        advisor->setOutputPathChooser([this](const QString& path) {
            suggested << path;
            return chosen.isEmpty() ? path : chosen;
        });
        QSignalSpy inspected(advisor.get(), &RasterAdvisorPanel::inspected);
        return !advisor->reports().isEmpty() || inspected.wait(10000);
    }
    QTreeWidgetItem* fileItem() const
    {
        QTreeWidget* tree = advisor->tree();
        return tree->topLevelItemCount() == 1 && tree->topLevelItem(0)->childCount() > 0 ? tree->topLevelItem(0)->child(0)
                                                                                          : nullptr;
    }
    // The action by its button, as a user starts it.
    std::optional<RasterJobResult> applyAndWait(RasterAction action)
    {
        QSignalSpy done(advisor.get(), &RasterAdvisorPanel::actionFinished);
        QSignalSpy inspected(advisor.get(), &RasterAdvisorPanel::inspected);
        QPushButton* button = advisor->actionButton(action);
        if (!advisor->selectFile(QStringLiteral("ortho"), tiff) || !button->isEnabled()) return std::nullopt;
        QTest::mouseClick(button, Qt::LeftButton);
        if (!done.wait(60000)) return std::nullopt;
        if (!inspected.wait(10000)) return std::nullopt;  // the panel looks at the files again
        return done.first().at(0).value<RasterJobResult>();
    }
};

}  // namespace

class TestRasterAdvisorPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void advisorListsStripedTiff();
    void advisorBuildsOverviews();
    void advisorConversionOffersComparison();
    void advisorAsksWhereToWrite();
    void advisorPointsLayerAtNewFile();
};

void TestRasterAdvisorPanel::initTestCase()
{
    initEngine();
    QStandardPaths::setTestModeEnabled(true);
}

void TestRasterAdvisorPanel::advisorListsStripedTiff()
{
    Advised a;
    QVERIFY(a.open());
    QCOMPARE(a.advisor->reports().size(), 1);
    const LayerRasterReport& report = a.advisor->reports().first();
    QCOMPARE(report.layer, QStringLiteral("ortho"));
    QCOMPARE(report.files.size(), 1);
    QVERIFY(!report.files.first().tiled);
    QCOMPARE(report.files.first().overviews, 0);

    // The tree: the layer, its file with its layout, and advice that offers the fixes.
    QTreeWidget* tree = a.advisor->tree();
    QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("ortho"));
    QTreeWidgetItem* file = a.fileItem();
    QVERIFY(file);
    QCOMPARE(file->text(0), QStringLiteral("striped.tif"));
    QCOMPARE(file->text(1), QStringLiteral("GTiff"));
    QCOMPARE(file->text(2), QStringLiteral("2048×2048×1 Byte"));
    QVERIFY2(file->text(3).startsWith(QStringLiteral("strips 2048×")), qPrintable(file->text(3)));
    QCOMPARE(file->text(4), QStringLiteral("none"));
    QVERIFY(file->childCount() >= 1);
    bool warned = false;
    for (const RasterAdvice& advice : report.advice)
        warned |= advice.level == AdviceLevel::Warning && advice.actions.contains(RasterAction::BuildOverviews);
    QVERIFY(warned);

    // Nothing selected: no action; the file selected: the fixes its advice names.
    QVERIFY(!a.advisor->actionButton(RasterAction::BuildOverviews)->isEnabled());
    QVERIFY(a.advisor->selectFile(QStringLiteral("ortho"), a.tiff));
    QVERIFY(a.advisor->actionButton(RasterAction::BuildOverviews)->isEnabled());
    QVERIFY(a.advisor->detailsText().contains(report.advice.first().message.toHtmlEscaped()));
    QVERIFY(a.advisor->actionButton(RasterAction::ConvertToTiledGeoTiff)->isEnabled()
            || a.advisor->actionButton(RasterAction::ConvertToCog)->isEnabled());
}


void TestRasterAdvisorPanel::advisorBuildsOverviews()
{
    Advised a;
    QVERIFY(a.open());
    QCOMPARE(overviewCount(a.tiff), 0);
    const auto result = a.applyAndWait(RasterAction::BuildOverviews);
    QVERIFY(result);
    QVERIFY2(result->ok, qPrintable(result->error));
    // Read back with GDAL: 2048 down to 256 pixels is 2, 4, 8.
    QCOMPARE(overviewCount(a.tiff), 3);
    QCOMPARE(a.advisor->reports().first().files.first().overviews, 3);
    QCOMPARE(a.fileItem()->text(4), QStringLiteral("3"));
    QCOMPARE(a.advisor->progressBar()->value(), a.advisor->progressBar()->maximum());
    QVERIFY(!a.advisor->rerunButton()->isHidden());

    // The offer: the benchmark again, compared with the run before.
    QSignalSpy done(a.bench.panel.get(), &BenchmarkPanel::finished);
    const Status rerun = a.advisor->rerunBenchmark();
    QVERIFY2(rerun, qPrintable(rerun.message()));
    QVERIFY(done.wait(60000));
    QCOMPARE(done.first().at(0).value<ExperimentResult>().runs.first().ok, qint64(10));
}


void TestRasterAdvisorPanel::advisorConversionOffersComparison()
{
    Advised a;
    QVERIFY(a.open());
    const auto result = a.applyAndWait(RasterAction::ConvertToTiledGeoTiff);
    QVERIFY(result);
    QVERIFY2(result->ok, qPrintable(result->error));
    QVERIFY(result->path != a.tiff);
    QCOMPARE(overviewCount(a.tiff), 0);  // the source is never written
    QVERIFY(overviewCount(result->path) > 0);

    // Re-run: the map as it is against a copy that reads the tiled file, interleaved.
    QSignalSpy done(a.bench.panel.get(), &BenchmarkPanel::finished);
    const Status rerun = a.advisor->rerunBenchmark();
    QVERIFY2(rerun, qPrintable(rerun.message()));
    QVERIFY(done.wait(60000));
    const auto experiment = done.first().at(0).value<ExperimentResult>();
    QVERIFY2(experiment.error.isEmpty(), qPrintable(experiment.error));
    QCOMPARE(experiment.summary.size(), 2);
    QCOMPARE(experiment.summary[1].label, QStringLiteral("tiled GeoTIFF"));
    for (const LoadReport& r : experiment.runs) QCOMPARE(r.ok, qint64(10));
    QCOMPARE(a.bench.panel->results()->rowCount(), 2);
    QVERIFY(experiment.summary[1].ratioToBaseline.has_value());
}


void TestRasterAdvisorPanel::advisorAsksWhereToWrite()
{
    Advised a;
    QVERIFY(a.open());
    const RasterAction convert = a.advisor->actionButton(RasterAction::ConvertToTiledGeoTiff)->isEnabled()
                                     ? RasterAction::ConvertToTiledGeoTiff
                                     : RasterAction::ConvertToCog;
    const QString tag = convert == RasterAction::ConvertToCog ? QStringLiteral("cog") : QStringLiteral("tiled");
    const QString defaultPath = a.bench.dir.filePath(QStringLiteral("striped-%1.tif").arg(tag));

    // Declined: nothing runs, nothing is written.
    QVERIFY(a.advisor->selectFile(QStringLiteral("ortho"), a.tiff));
    a.advisor->setOutputPathChooser([&](const QString& path) {
        a.suggested << path;
        return QString();
    });
    QSignalSpy done(a.advisor.get(), &RasterAdvisorPanel::actionFinished);
    QTest::mouseClick(a.advisor->actionButton(convert), Qt::LeftButton);
    QCOMPARE(a.suggested, QStringList({defaultPath}));  // proposed in the data folder, under the usual name
    QVERIFY(!a.advisor->isBusy());
    QTest::qWait(200);
    QCOMPARE(done.count(), 0);
    QVERIFY(!QFile::exists(defaultPath));
    QVERIFY(a.advisor->statusText().contains(QStringLiteral("Not converted")));

    // Chosen elsewhere: written there only.
    a.suggested.clear();
    a.advisor->setOutputPathChooser([&](const QString& path) {
        a.suggested << path;
        return a.bench.dir.filePath(QStringLiteral("fast/ortho-fast.tif"));
    });
    const auto result = a.applyAndWait(convert);
    QVERIFY(result);
    QVERIFY2(result->ok, qPrintable(result->error));
    QCOMPARE(a.suggested.size(), 1);
    QCOMPARE(result->path, a.bench.dir.filePath(QStringLiteral("fast/ortho-fast.tif")));
    QVERIFY(overviewCount(result->path) > 0);
    QVERIFY(!QFile::exists(defaultPath));
    QCOMPARE(overviewCount(a.tiff), 0);
}


void TestRasterAdvisorPanel::advisorPointsLayerAtNewFile()
{
    Advised a;
    a.chosen = QStringLiteral("converted/striped-tiled.tif");
    QVERIFY(a.open());
    a.chosen = a.bench.dir.filePath(a.chosen);
    QVERIFY(!a.advisor->pointLayerButton()->isVisible());
    const QByteArray onDisk = readFile(a.bench.document.path());
    const QString before = a.bench.document.text();
    const auto result = a.applyAndWait(RasterAction::ConvertToTiledGeoTiff);
    QVERIFY(result);
    QVERIFY2(result->ok, qPrintable(result->error));
    QCOMPARE(result->path, a.chosen);
    QVERIFY(!a.advisor->pointLayerButton()->isHidden());

    // The offer edits the editor's text: DATA names the new file relative to the map; the file on disk is untouched.
    QTest::mouseClick(a.advisor->pointLayerButton(), Qt::LeftButton);
    QVERIFY2(a.bench.document.text().contains(QStringLiteral("DATA \"converted/striped-tiled.tif\"")),
             qPrintable(a.bench.document.text()));
    QVERIFY(!a.bench.document.text().contains(QStringLiteral("\"striped.tif\"")));
    QCOMPARE(a.bench.document.lastGoodMap()->layer(QStringLiteral("ortho"))->data, QStringLiteral("converted/striped-tiled.tif"));
    QVERIFY(a.bench.document.isModified());
    QCOMPARE(readFile(a.bench.document.path()), onDisk);
    QVERIFY(a.advisor->pointLayerButton()->isHidden());
    QVERIFY(a.advisor->statusText().contains(QStringLiteral("now reads")));

    // Re-run after pointing: the file before against the new one (not the new one against itself).
    QSignalSpy done(a.bench.panel.get(), &BenchmarkPanel::finished);
    QSignalSpy raise(a.advisor.get(), &RasterAdvisorPanel::showBenchmarkRequested);
    QVERIFY(!a.advisor->rerunButton()->isHidden());
    QTest::mouseClick(a.advisor->rerunButton(), Qt::LeftButton);
    QCOMPARE(raise.count(), 1);
    QVERIFY(done.wait(60000));
    const auto experiment = done.first().at(0).value<ExperimentResult>();
    QVERIFY2(experiment.error.isEmpty(), qPrintable(experiment.error));
    QCOMPARE(experiment.summary.size(), 2);
    QCOMPARE(experiment.summary[0].label, QStringLiteral("before"));
    QCOMPARE(experiment.summary[1].label, QStringLiteral("tiled GeoTIFF"));

    // One undo step brings the text back.
    QVERIFY(a.bench.document.textDocument()->isUndoAvailable());
    a.bench.document.textDocument()->undo();
    QCOMPARE(a.bench.document.text(), before);
}


QTEST_MAIN(TestRasterAdvisorPanel)
#include "test_raster_advisor_panel.moc"
