#include "benchmark_panel.h"

#include "benchmark_charts.h"
#include "benchmark_results_model.h"
#include "benchmark_settings.h"
#include "benchmark_target_list.h"
#include "layer_list_model.h"
#include "map_document.h"
#include "request_relay.h"
#include "server_panel.h"

#include "loadtest/experiment_report.h"
#include "loadtest/url_template.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>

namespace maptune {

namespace {

constexpr int kProgressSteps = 1000;

// The preset combo's rows: none first, then the PresetKinds.
const std::pair<const char*, std::optional<PresetKind>> kPresets[] = {
    {"none: the checked targets", std::nullopt},
    {"LUT on vs off", PresetKind::Lut},
    {"raster formats (GDAL copies)", PresetKind::Formats},
    {"shapefile vs PostGIS", PresetKind::Postgis},
    {"this map vs another WMS", PresetKind::Url},
};

// GetMap on the Server panel's WMS for the open map: the given layers in its CRS.
Result<QString> embeddedTemplate(const QString& baseUrl, const MapDef& map, const QStringList& layers,
                                 const QString& format)
{
    if (EmbeddedServer::mapSrs(map).isEmpty())
        return Error(QObject::tr("The map has no EPSG code: add PROJECTION \"init=epsg:NNNN\" END to benchmark it"));
    BenchGetMapParams params;
    params.layers = layers.join(QLatin1Char(','));
    params.format = format;
    return baseUrl + QLatin1Char('?') + EmbeddedServer::getMapQuery(map, params);
}

// Labels name the lines and rows: repeats get " 2", " 3".
void makeLabelsUnique(QList<ExperimentConfig>& configs)
{
    QStringList seen;
    for (ExperimentConfig& c : configs) {
        const QString base = c.label;
        for (int n = 2; seen.contains(c.label); ++n) c.label = QStringLiteral("%1 %2").arg(base).arg(n);
        seen << c.label;
    }
}

// "this map: 1200 req/min · B: 2400 req/min (2.00×)", and against the run
// before when it had the same configuration (the gain of a change in place,
// such as new overviews).
QString summaryText(const ExperimentResult& result, const ExperimentResult& previous)
{
    QStringList parts;
    for (qsizetype k = 0; k < result.summary.size(); ++k) {
        const ConfigSummary& s = result.summary[k];
        QString part = QObject::tr("%1: %2 req/min").arg(s.label).arg(s.reqPerMin, 0, 'f', 0);
        if (k > 0 && s.ratioToBaseline) part += QObject::tr(" (%1×)").arg(*s.ratioToBaseline, 0, 'f', 2);
        for (const ConfigSummary& before : previous.summary)
            if (before.label == s.label && before.reqPerMin > 0 && !previous.cancelled)
                part += QObject::tr(", %1× the run before").arg(s.reqPerMin / before.reqPerMin, 0, 'f', 2);
        parts << part;
    }
    return parts.join(QStringLiteral(" · "));
}

}  // namespace

BenchmarkPanel::BenchmarkPanel(MapDocument* document, ServerPanel* server, QWidget* parent)
    : QWidget(parent), m_document(document), m_server(server), m_targets(new BenchmarkTargetList),
      m_requested(new QLabel), m_settings(new BenchmarkSettings), m_preset(new QComboBox), m_layer(new QComboBox), m_presetExtra(new QLineEdit),
      m_run(new QPushButton(tr("Run"))), m_cancel(new QPushButton(tr("Cancel"))),
      m_save(new QPushButton(tr("Save…"))), m_progress(new QProgressBar), m_status(new QLabel),
      m_charts(new BenchmarkCharts), m_model(new BenchmarkResultsModel(this)), m_table(new QTableView),
      m_job(new BenchmarkJob(this)), m_relay(new RequestRelay(this))
{
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_requested->setWordWrap(true);
    m_requested->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_cancel->setEnabled(false);
    m_save->setEnabled(false);
    m_save->setToolTip(tr("Save the results as JSON, CSV or a self-contained HTML report"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_save);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_charts);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_targets);
    layout->addWidget(m_requested);
    layout->addWidget(createPresetRow());
    layout->addWidget(m_settings);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    connect(m_run, &QPushButton::clicked, this, [this] { (void)run(); });  // a refusal shows on the panel
    connect(m_cancel, &QPushButton::clicked, this, &BenchmarkPanel::cancel);
    connect(m_save, &QPushButton::clicked, this, &BenchmarkPanel::save);
    connect(m_job, &BenchmarkJob::preparing, this, [this](double fraction, const QString& stage) {
        m_progress->setValue(int(fraction * kProgressSteps));
        m_status->setText(tr("Preparing: %1").arg(stage));
    });
    connect(m_job, &BenchmarkJob::prepared, this, [this](const QStringList& labels) {
        m_labels = labels;
        m_model->reset(labels);
        m_charts->reset(labels);
        m_progress->setValue(0);
    });
    connect(m_job, &BenchmarkJob::progress, this, &BenchmarkPanel::onProgress);
    connect(m_job, &BenchmarkJob::runFinished, this, &BenchmarkPanel::onRunFinished);
    connect(m_job, &BenchmarkJob::finished, this, &BenchmarkPanel::onFinished);
    connect(m_relay, &RequestRelay::served, this, &BenchmarkPanel::requestServed);
    if (m_document) connect(m_document, &MapDocument::mapChanged, this, &BenchmarkPanel::updateLayers);
    if (m_server) {
        connect(m_server, &ServerPanel::runningChanged, this, [this] {
            m_targets->setEmbeddedDescription(m_server->isRunning() ? m_server->baseUrl()
                                                                    : tr("embedded server (started on Run)"));
        });
    }
    m_status->setText(tr("Choose targets (or a preset) and press Run."));
}

BenchmarkPanel::~BenchmarkPanel()
{
    m_job->cancel();
    m_job->wait();  // the worker uses m_variantServer: it must be over first
    stopVariantServer();  // before m_relay, its observer, goes
}

void BenchmarkPanel::stopVariantServer()
{
    if (!m_variantServer) return;
    m_variantServer->stop();
    m_variantServer->setObserver(nullptr);
    m_variantServer.reset();
}

QWidget* BenchmarkPanel::createPresetRow()
{
    for (const auto& [name, kind] : kPresets) m_preset->addItem(tr(name));
    m_layer->setToolTip(tr("The layer the preset is about"));
    m_layer->setMinimumContentsLength(12);
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Preset")));
    layout->addWidget(m_preset);
    layout->addWidget(m_layer);
    layout->addWidget(m_presetExtra, 1);
    layout->addStretch(0);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &BenchmarkPanel::updatePresetFields);
    updatePresetFields();
    return row;
}

void BenchmarkPanel::updatePresetFields()
{
    const std::optional<PresetKind> kind = kPresets[m_preset->currentIndex()].second;
    m_layer->setVisible(kind && *kind != PresetKind::Url);
    m_presetExtra->setVisible(kind == PresetKind::Url || kind == PresetKind::Postgis);
    m_presetExtra->setPlaceholderText(kind == PresetKind::Url ? tr("the other WMS: GetMap URL template or base URL")
                                                              : tr("PostgreSQL conninfo, e.g. host=localhost dbname=gis"));
    m_targets->setEnabled(!kind);
    m_requested->setVisible(!kind);  // presets serve variants with every named layer
    updateLayers();
}

void BenchmarkPanel::updateLayers()
{
    const std::optional<PresetKind> kind = kPresets[m_preset->currentIndex()].second;
    const MapDefPtr map = m_document ? m_document->lastGoodMap() : nullptr;
    const QString current = m_layer->currentText();
    m_layer->clear();
    updateRequestedLayers();
    if (!map || !kind) return;
    for (const LayerDef& l : map->layers) {
        const bool raster = l.type == LayerType::Raster;
        const bool wanted = (*kind == PresetKind::Postgis) ? !raster : raster;
        if (wanted && !l.name.isEmpty()) m_layer->addItem(l.name);
    }
    if (m_layer->findText(current) >= 0) m_layer->setCurrentText(current);
}

void BenchmarkPanel::setVisibleLayers(const QStringList& layers)
{
    m_visibleLayers = layers;
    updateRequestedLayers();
}

void BenchmarkPanel::setLayerList(const LayerListModel* model)
{
    connect(model, &LayerListModel::visibilityChanged, this, &BenchmarkPanel::setVisibleLayers);
    connect(model, &QAbstractItemModel::modelReset, this, [this, model] { setVisibleLayers(model->visibleLayers()); });
    setVisibleLayers(model->visibleLayers());
}

QStringList BenchmarkPanel::requestedLayers() const
{
    QStringList names;
    const MapDefPtr map = m_document ? m_document->lastGoodMap() : nullptr;
    if (!map) return names;
    for (const LayerDef& l : map->layers) {
        if (l.name.isEmpty() || names.contains(l.name)) continue;
        const bool shown = m_visibleLayers ? m_visibleLayers->contains(l.name) : l.status != LayerStatus::Off;
        if (shown) names << l.name;
    }
    return names;
}

QString BenchmarkPanel::requestedLayersText() const
{
    return m_requested->text();
}

void BenchmarkPanel::updateRequestedLayers()
{
    const MapDefPtr map = m_document ? m_document->lastGoodMap() : nullptr;
    const QStringList requested = requestedLayers();
    QStringList hidden;
    if (map)
        for (const LayerDef& l : map->layers)
            if (!l.name.isEmpty() && !requested.contains(l.name) && !hidden.contains(l.name)) hidden << l.name;
    const QString list = requested.join(QStringLiteral(", "));
    QString text = !map                        ? tr("Open a map to benchmark it.")
                   : requested.isEmpty()       ? tr("No layer is shown on the map: check one in the Layers list to benchmark this map.")
                   : requested.size() == 1     ? tr("Requests the layer shown on the map: %1").arg(list)
                                               : tr("Requests the %1 layers shown on the map: %2").arg(requested.size()).arg(list);
    if (map && !requested.isEmpty() && !hidden.isEmpty())
        text += tr(" (not the switched-off %1)").arg(hidden.join(QStringLiteral(", ")));
    m_requested->setText(text);
    m_requested->setToolTip(tr("\"this map\" asks the embedded server for what the canvas shows; "
                               "check or uncheck layers in the Layers list to change it"));
}

void BenchmarkPanel::clearPreset()
{
    m_preset->setCurrentIndex(0);
}

void BenchmarkPanel::setPreset(PresetKind kind, const QString& layer, const QString& extra)
{
    for (int i = 0; i < int(std::size(kPresets)); ++i)
        if (kPresets[i].second == kind) m_preset->setCurrentIndex(i);
    updateLayers();
    m_layer->setCurrentText(layer);
    m_presetExtra->setText(extra);
}

bool BenchmarkPanel::isRunning() const
{
    return m_job->isRunning();
}

QString BenchmarkPanel::statusText() const
{
    return m_status->text();
}

QString BenchmarkPanel::workDir() const
{
    if (!m_workDir.isEmpty()) return m_workDir;
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/experiments");
}

Error BenchmarkPanel::fail(const QString& message)
{
    m_status->setText(QStringLiteral("<span style='color:#c02020'>%1</span>").arg(message.toHtmlEscaped()));
    return Error(message);
}

Status BenchmarkPanel::run()
{
    if (isRunning()) return fail(tr("An experiment is running: cancel it first"));
    const bool preset = kPresets[m_preset->currentIndex()].second.has_value();
    Result<Plan> plan = preset ? planPreset() : planTargets();
    if (!plan) return fail(plan.message());
    return start(std::move(plan).value());
}

Result<BenchmarkPanel::Plan> BenchmarkPanel::planTargets()
{
    Plan plan;
    const MapDefPtr map = m_document ? m_document->lastGoodMap() : nullptr;
    auto load = m_settings->loadOptions(map.get());
    if (auto* problem = std::get_if<QString>(&load)) return Error(*problem);
    plan.options.load = std::get<LoadOptions>(load);
    plan.options.rounds = m_settings->rounds();
    if (m_targets->embeddedChecked()) {
        if (!m_server) return Error(tr("No embedded server in this window"));
        if (!map) return Error(tr("Open a map that loads without errors first"));
        if (!m_server->isRunning()) {
            if (m_server->mapPath().isEmpty() && m_document) m_server->setMapPath(m_document->path());
            if (const Status started = m_server->start(); !started)
                return Error(tr("The embedded server does not start: %1").arg(started.message()));
        }
        const QStringList layers = requestedLayers();
        if (layers.isEmpty())
            return Error(tr("No layer is shown on the map: check one in the Layers list to benchmark this map"));
        const Result<QString> url = embeddedTemplate(m_server->baseUrl(), *map, layers, m_settings->format());
        if (!url) return url.error();
        plan.options.configs << ExperimentConfig{m_targets->embeddedLabel(), *url, {}, true};
        plan.descriptions << tr("%1 on the embedded server, layers %2")
                                 .arg(QFileInfo(m_server->mapPath()).fileName(), layers.join(QStringLiteral(", ")));
    }
    for (const UrlTarget& t : m_targets->checkedUrls()) {
        plan.options.configs << ExperimentConfig{t.label, t.urlTemplate, {}, false};
        plan.descriptions << t.urlTemplate;
    }
    if (plan.options.configs.isEmpty()) return Error(tr("Check at least one target, or choose a preset"));
    m_notes = {tr("Targets: %1").arg(plan.descriptions.join(QStringLiteral("; ")))};
    return plan;
}

Result<BenchmarkPanel::Plan> BenchmarkPanel::planPreset()
{
    const MapDefPtr map = m_document ? m_document->lastGoodMap() : nullptr;
    if (!map || map->path.isEmpty()) return Error(tr("Open and save a map first: presets make variants of the mapfile"));
    PresetOptions po;
    po.spec.kind = *kPresets[m_preset->currentIndex()].second;
    po.layer = m_layer->currentText();
    po.workDir = workDir();
    if (po.spec.kind == PresetKind::Url) po.spec.url = m_presetExtra->text().trimmed();
    if (po.spec.kind == PresetKind::Postgis) po.pgConnInfo = m_presetExtra->text().trimmed();
    if (po.spec.kind != PresetKind::Url && po.layer.isEmpty()) return Error(tr("The map has no layer this preset is about"));
    if (po.spec.kind == PresetKind::Url && po.spec.url.isEmpty()) return Error(tr("Give the other WMS's URL"));
    m_notes = {tr("Preset: %1%2").arg(m_preset->currentText(), po.layer.isEmpty() ? QString() : tr(", layer %1").arg(po.layer))};
    return planVariants([map, po](const CancelToken& cancel, const BenchmarkJob::PrepareProgress& progress)
                            -> Result<QList<MapVariant>> {
        const PresetBuild build = ExperimentPreset::build(*map, po, cancel, [&](const PresetProgress& p) {
            progress(p.fraction, p.stage);
        });
        if (build.cancelled) return Error(QObject::tr("cancelled"));
        if (!build.ok()) return Error(build.error);
        return build.variants;
    });
}

Status BenchmarkPanel::runFileComparison(const QString& layer, const QString& otherFile, const QString& otherLabel,
                                         const QString& baseFile)
{
    if (isRunning()) return fail(tr("An experiment is running: cancel it first"));
    const MapDefPtr map = m_document ? m_document->lastGoodMap() : nullptr;
    if (!map || !map->layer(layer)) return fail(tr("The map has no layer %1").arg(layer));
    m_notes = {baseFile.isEmpty() ? tr("Layer %1: its file as it is vs %2").arg(layer, otherFile)
                                  : tr("Layer %1: %2 before vs %3").arg(layer, baseFile, otherFile)};
    const QString dir = workDir();
    const QString baseLabel = baseFile.isEmpty() ? tr("as is") : tr("before");
    Result<Plan> plan = planVariants([map, layer, otherFile, otherLabel, baseFile, baseLabel, dir](
                                         const CancelToken&, const BenchmarkJob::PrepareProgress&) -> Result<QList<MapVariant>> {
        MapDef before = MapVariantWriter::relocatable(*map);
        MapDef after = before;
        if (!baseFile.isEmpty()) MapVariantWriter::layer(before, layer)->data = baseFile;
        MapVariantWriter::layer(after, layer)->data = otherFile;
        const QString base = MapVariantWriter::safeName(QFileInfo(map->path).completeBaseName());
        const VariantWrite a = MapVariantWriter::write(before, dir, base + QStringLiteral("-") + MapVariantWriter::safeName(baseLabel));
        const VariantWrite b = MapVariantWriter::write(after, dir, base + QStringLiteral("-") + MapVariantWriter::safeName(otherLabel));
        if (!a.path) return Error(a.error);
        if (!b.path) return Error(b.error);
        return QList<MapVariant>{{baseLabel, *a.path, {}, MapVariantWriter::layer(before, layer)->data},
                                 {otherLabel, *b.path, {}, otherFile}};
    });
    if (!plan) return fail(plan.message());
    return start(std::move(plan).value());
}

Result<BenchmarkPanel::Plan> BenchmarkPanel::planVariants(MakeVariants makeVariants)
{
    Plan plan;
    const MapDefPtr map = m_document ? m_document->lastGoodMap() : nullptr;
    auto load = m_settings->loadOptions(map.get());
    if (auto* problem = std::get_if<QString>(&load)) return Error(*problem);
    plan.options.load = std::get<LoadOptions>(load);
    plan.options.rounds = m_settings->rounds();
    m_variantServer = std::make_shared<EmbeddedServer>();
    m_variantServer->setObserver(m_relay);
    m_variantDescriptions = std::make_shared<QStringList>();
    BenchGetMapParams params;
    params.format = m_settings->format();
    plan.prepare = [server = m_variantServer, descriptions = m_variantDescriptions, params, makeVariants](
                       ExperimentOptions& options, const CancelToken& cancel, const BenchmarkJob::PrepareProgress& progress) {
        const Result<QList<MapVariant>> variants = makeVariants(cancel, progress);
        if (!variants) return variants.message();
        QList<ExperimentConfig> configs;
        if (const Status served = server->configsFor(*variants, params, configs); !served)
            return served.message();
        for (const MapVariant& v : *variants) *descriptions << v.description;
        options.configs = configs;
        makeLabelsUnique(options.configs);
        return QString();
    };
    return plan;
}

Status BenchmarkPanel::start(Plan plan)
{
    makeLabelsUnique(plan.options.configs);
    for (const ExperimentConfig& c : std::as_const(plan.options.configs)) {
        const std::optional<HttpTarget> target = UrlTemplate(c.urlTemplate).target();
        if (target && !UrlTemplate::isLoopbackHost(target->host)) plan.options.load.allowRemote = true;  // the user typed it
        LoadOptions o = plan.options.load;
        o.urlTemplate = c.urlTemplate;
        if (const Status valid = LoadRunner::validate(o); !valid) return fail(tr("%1: %2").arg(c.label, valid.message()));
    }
    m_labels.clear();
    for (const ExperimentConfig& c : std::as_const(plan.options.configs)) m_labels << c.label;
    m_descriptions = plan.descriptions;
    m_notes << tr("Load: %1").arg(m_settings->describe());
    m_runs.clear();
    m_runConfig.clear();
    m_runStartS.clear();
    m_model->reset(m_labels);
    m_charts->reset(m_labels);
    m_progress->setValue(0);
    m_clock.start();
    m_job->start(plan.options, plan.prepare);
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_status->setText(plan.prepare ? tr("Preparing…") : tr("Starting…"));
    Q_EMIT started();
    return {};
}

void BenchmarkPanel::cancel()
{
    if (!isRunning()) return;
    m_job->cancel();
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling…"));
}

void BenchmarkPanel::onProgress(const ExperimentProgress& p)
{
    const double clockS = double(m_clock.elapsed()) / 1000;
    const bool measuring = p.load.phase == LoadProgress::Phase::Measure;
    if (measuring && !m_runStartS.contains(p.run)) m_runStartS[p.run] = clockS - p.load.elapsedS;
    const double fraction = (p.run + (measuring ? p.load.fraction : 0)) / std::max(1, p.runs);
    m_progress->setValue(int(fraction * kProgressSteps));
    QString text = tr("Run %1 of %2: %3, round %4 — ").arg(p.run + 1).arg(p.runs).arg(p.label).arg(p.round + 1);
    text += measuring ? tr("%1 req/min, %2 ok, %3 errors").arg(p.load.reqPerMin, 0, 'f', 0).arg(p.load.ok).arg(p.load.errors)
                      : tr("warming up");
    if (!m_job->cancelToken().isCancelled()) m_status->setText(text);
    if (measuring) m_charts->addProgress(p.run, int(m_labels.indexOf(p.label)), m_runStartS[p.run], p.load.elapsedS, p.load.ok);
}

void BenchmarkPanel::onRunFinished(const LoadReport& report, int config, int)
{
    const int run = int(m_runs.size());
    m_runs << report;
    m_runConfig << config;
    const double start = m_runStartS.value(run, double(m_clock.elapsed()) / 1000 - report.durationS);
    m_charts->addRun(run, config, start, report);
    m_model->setRuns(m_runs, m_runConfig);
    m_charts->setLatencies(m_model->summary());
}

void BenchmarkPanel::onFinished(const ExperimentResult& result)
{
    stopVariantServer();
    if (m_variantDescriptions && !m_variantDescriptions->isEmpty()) m_descriptions = *m_variantDescriptions;
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    if (!result.runs.isEmpty()) {
        m_previous = m_result;
        m_result = result;
        m_model->setRuns(result.runs, result.runConfig);
        m_charts->setLatencies(result.summary);
        m_save->setEnabled(true);
    }
    if (!result.error.isEmpty() && !(result.cancelled && result.runs.isEmpty())) {
        fail(result.error);
    } else if (result.cancelled) {
        m_status->setText(tr("Cancelled after %1 runs").arg(result.runs.size()));
    } else {
        m_progress->setValue(kProgressSteps);
        m_status->setText(tr("Done. %1").arg(summaryText(result, m_previous)));
    }
    Q_EMIT finished(result);
}

Status BenchmarkPanel::saveResults(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    Status saved;
    if (m_result.runs.isEmpty()) {
        saved = Error(tr("Nothing to save yet: run an experiment first"));
    } else if (suffix == QLatin1String("json")) {
        QJsonObject json = m_result.toJson();
        json.insert(QStringLiteral("notes"), QJsonArray::fromStringList(m_notes));
        json.insert(QStringLiteral("descriptions"), QJsonArray::fromStringList(m_descriptions));
        saved = ExperimentReport::writeFile(path, QString::fromUtf8(QJsonDocument(json).toJson()));
    } else if (suffix == QLatin1String("csv")) {
        saved = ExperimentReport::writeFile(path, ExperimentReport::summaryCsv(m_result));
        const QFileInfo info(path);
        if (saved)
            saved = ExperimentReport::writeFile(info.dir().filePath(info.completeBaseName() + QStringLiteral("-runs.csv")),
                                                ExperimentReport::runsCsv(m_result));
    } else if (suffix == QLatin1String("html") || suffix == QLatin1String("htm")) {
        ReportInfo info;
        info.notes = m_notes;
        info.descriptions = m_descriptions;
        saved = ExperimentReport::writeFile(path, ExperimentReport::html(m_result, info));
    } else {
        saved = Error(tr("Save as .json, .csv or .html"));
    }
    if (!saved) return fail(saved.message());
    m_status->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return {};
}

void BenchmarkPanel::save()
{
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save results"), QDir::home().filePath(QStringLiteral("experiment.html")),
        tr("HTML report (*.html);;CSV (*.csv);;JSON (*.json)"), &filter);
    if (!path.isEmpty()) (void)saveResults(path);  // the outcome shows on the panel
}

}  // namespace maptune
