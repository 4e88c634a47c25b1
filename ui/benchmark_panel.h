#pragma once
// The Benchmark dock: A/B load experiments from the workbench. Targets are
// the open map on the embedded server (the Server panel's WMS, so the
// Timings panel shows the served requests' per-layer times meanwhile) with
// the layers the canvas shows, as the panel says, any
// WMS URL templates, or the map variants of a preset (LUT on/off, raster
// formats, shapefile vs PostGIS, vs another WMS) served in process, whose
// requests come out as requestServed for the Timings panel as well. Run
// starts the experiment on a worker thread (BenchmarkJob) with a progress bar
// and Cancel; charts and the results table fill live; results save as JSON,
// CSV or a self-contained HTML report.

#include "benchmark_job.h"

#include "core/result.h"
#include "loadtest/embedded_server.h"
#include "loadtest/experiment.h"
#include "loadtest/experiment_preset.h"
#include "mapfile/map_def.h"
#include "server/request_observer.h"

#include <QElapsedTimer>
#include <QMap>
#include <QWidget>

#include <memory>
#include <optional>
#include <variant>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace maptune {

class BenchmarkCharts;
class BenchmarkResultsModel;
class BenchmarkSettings;
class BenchmarkTargetList;
class LayerListModel;
class MapDocument;
class RequestRelay;
class ServerPanel;

class BenchmarkPanel : public QWidget {
    Q_OBJECT
public:
    // server: the Server panel whose WMS the "this map" target measures (may be null).
    BenchmarkPanel(MapDocument* document, ServerPanel* server, QWidget* parent = nullptr);
    ~BenchmarkPanel() override;

    BenchmarkTargetList* targets() const { return m_targets; }
    BenchmarkSettings* settings() const { return m_settings; }
    BenchmarkCharts* charts() const { return m_charts; }
    BenchmarkResultsModel* results() const { return m_model; }
    QProgressBar* progressBar() const { return m_progress; }
    QTableView* table() const { return m_table; }
    QString statusText() const;

    // No preset: the checked targets are the configurations.
    void clearPreset();
    // A preset on a layer; extra: the other WMS URL (url) or the PostGIS conninfo (postgis).
    void setPreset(PresetKind kind, const QString& layer, const QString& extra = {});
    // Where presets write variant mapfiles and raster copies (default: the cache folder).
    void setWorkDir(const QString& dir) { m_workDir = dir; }

    // The layers the canvas shows (the Layers list's checked ones): what "this
    // map" requests. Until it is given, the map's STATUS ON and DEFAULT layers,
    // which is what the Layers list starts with.
    void setVisibleLayers(const QStringList& layers);
    // Follows the Layers list: its check boxes, and the rows it gets for a new map
    // (it does not signal visibilityChanged for those).
    void setLayerList(const LayerListModel* model);
    // The named layers "this map" requests, in drawing order.
    QStringList requestedLayers() const;
    // What the panel says about them: "Requests the 2 layers shown on the map: red, frame".
    QString requestedLayersText() const;

    bool isRunning() const;
    // Starts the experiment; an error (also shown on the panel) when it cannot.
    Status run();
    // The map as it is against a copy whose raster layer reads another file (a
    // converted raster): what the raster advisor's conversion gained. baseFile:
    // what the baseline's layer reads instead of its file as it is ("before"),
    // for a map that was already pointed at otherFile.
    Status runFileComparison(const QString& layer, const QString& otherFile, const QString& otherLabel,
                             const QString& baseFile = {});
    void cancel();
    const ExperimentResult& lastResult() const { return m_result; }
    // The last finished experiment before this one (for "before / after" gains).
    const ExperimentResult& previousResult() const { return m_previous; }

    // By the suffix: .json, .csv (summary; the runs go to <base>-runs.csv), .html.
    Status saveResults(const QString& path);

Q_SIGNALS:
    void started();
    void finished(const maptune::ExperimentResult& result);
    // A request the preset variants' in-process server answered (requests to
    // "this map" go through the Server panel and come out there).
    void requestServed(const maptune::ServedRequest& request);

private:
    struct Plan {
        ExperimentOptions options;
        QStringList descriptions;
        BenchmarkJob::Prepare prepare;
    };
    QWidget* createPresetRow();
    void updatePresetFields();
    void updateLayers();
    void updateRequestedLayers();
    using MakeVariants =
        std::function<Result<QList<MapVariant>>(const CancelToken&, const BenchmarkJob::PrepareProgress&)>;
    Result<Plan> planTargets();
    Result<Plan> planPreset();
    // Serves variants made on the worker (by makeVariants) and runs them, URL targets after them.
    Result<Plan> planVariants(MakeVariants makeVariants);
    Status start(Plan plan);
    // Shows the message on the panel; the error for the caller to return.
    Error fail(const QString& message);
    void onProgress(const ExperimentProgress& p);
    void onRunFinished(const LoadReport& report, int config, int round);
    void onFinished(const ExperimentResult& result);
    void stopVariantServer();
    void save();
    QString workDir() const;

    MapDocument* m_document;
    ServerPanel* m_server;
    BenchmarkTargetList* m_targets;
    QLabel* m_requested;   // which layers "this map" requests
    BenchmarkSettings* m_settings;
    QComboBox* m_preset;
    QComboBox* m_layer;
    QLineEdit* m_presetExtra;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_save;
    QProgressBar* m_progress;
    QLabel* m_status;
    BenchmarkCharts* m_charts;
    BenchmarkResultsModel* m_model;
    QTableView* m_table;
    BenchmarkJob* m_job;

    std::shared_ptr<EmbeddedServer> m_variantServer;   // serves preset variants during a run
    RequestRelay* m_relay;                             // its requests, to the GUI thread
    std::shared_ptr<QStringList> m_variantDescriptions; // written by the worker's preparation
    QString m_workDir;
    std::optional<QStringList> m_visibleLayers;
    QStringList m_labels, m_descriptions, m_notes;
    QList<LoadReport> m_runs;
    QList<int> m_runConfig;
    QMap<int, double> m_runStartS;    // run index -> start on the experiment clock
    QElapsedTimer m_clock;
    ExperimentResult m_result, m_previous;
};

}  // namespace maptune
