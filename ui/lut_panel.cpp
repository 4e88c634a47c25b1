#include "lut_panel.h"

#include "io/atomic_write.h"
#include "lut_curve_widget.h"
#include "map_document.h"

#include "mapfile/map_loader.h"
#include "render/map_renderer.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace maptune {

namespace {

constexpr int kHistogramMaxSide = 512;  // a view-sized sample is plenty for a histogram

const QColor kBandColours[3] = {QColor(0xd0, 0x30, 0x30), QColor(0x30, 0xa0, 0x30), QColor(0x30, 0x50, 0xd0)};

// The worker entry of the histogram render: one of the places exceptions are
// caught, and said -- the histogram then stays empty.
QImage renderWithoutLut(const MapDefPtr& map, const EngineContextPtr& context, const RenderRequest& request)
{
    try {
        const RenderResult r = MapRenderer(PreparedMap::prepare(map, context)).render(request);
        if (!r.ok()) qWarning("maptune: LUT histogram: %s", qPrintable(r.error));
        return r.ok() ? r.image : QImage();
    } catch (const std::exception& e) {
        qWarning("maptune: LUT histogram render failed: %s", e.what());
    } catch (...) {
        qWarning("maptune: LUT histogram render failed with an unknown error");
    }
    return {};
}

}  // namespace

LutPanel::LutPanel(MapDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_layers(new QComboBox), m_channels(new QComboBox),
      m_curve(new LutCurveWidget), m_note(new QLabel),
      m_compare(new QCheckBox(tr("Before/after split on the map"))), m_histogram(new QCustomPlot)
{
    m_channels->addItems({tr("Master (LUT)"), tr("Red (LUT_1)"), tr("Green (LUT_2)"), tr("Blue (LUT_3)")});
    m_channels->setToolTip(tr("As in MapServer, a band's LUT_n replaces the master LUT for that band"));
    connect(m_layers, &QComboBox::currentTextChanged, this, [this] {
        loadCurves();
        emitCompare();
    });
    connect(m_channels, &QComboBox::currentIndexChanged, this, &LutPanel::setChannel);
    connect(m_curve, &LutCurveWidget::pointsChanged, this, &LutPanel::curveEdited);
    m_compare->setToolTip(tr("The canvas shows the layer without its LUT left of a divider you can drag"));
    m_compare->setChecked(QSettings().value(QStringLiteral("lut/split")).toBool());  // as the user left it
    connect(m_compare, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("lut/split"), on);
        emitCompare();
    });

    auto* write = new QPushButton(tr("Write to mapfile"));
    write->setToolTip(tr("Update the layer's PROCESSING \"LUT=...\" lines in the editor (one undo step)"));
    connect(write, &QPushButton::clicked, this, &LutPanel::writeToMapfile);
    auto* resetButton = new QPushButton(tr("Reset"));
    resetButton->setToolTip(tr("Back to the curves in the mapfile"));
    connect(resetButton, &QPushButton::clicked, this, &LutPanel::reset);

    auto* presets = new QHBoxLayout;
    for (const QString& name : {tr("Identity"), tr("Contrast"), tr("Brighten"), tr("Invert")}) {
        auto* b = new QPushButton(name);
        connect(b, &QPushButton::clicked, this, [this, name] { applyPreset(name); });
        presets->addWidget(b);
    }

    m_note->setWordWrap(true);
    m_note->setVisible(false);
    for (int band = 0; band < 3; ++band) {
        QCPGraph* before = m_histogram->addGraph();
        before->setPen(QPen(kBandColours[band].lighter(140), 1, Qt::DotLine));
        before->setName(tr("before"));
        QCPGraph* after = m_histogram->addGraph();
        after->setPen(QPen(kBandColours[band], 1.5));
        after->setName(tr("after"));
    }
    m_histogram->xAxis->setRange(0, 255);
    m_histogram->yAxis->setTickLabels(false);
    m_histogram->setMinimumHeight(120);

    auto* top = new QGridLayout;
    top->addWidget(new QLabel(tr("Layer")), 0, 0);
    top->addWidget(m_layers, 0, 1);
    top->addWidget(new QLabel(tr("Channel")), 1, 0);
    top->addWidget(m_channels, 1, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(resetButton);
    buttons->addStretch(1);
    buttons->addWidget(write);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(top);
    layout->addWidget(m_curve, 3);
    layout->addLayout(presets);
    layout->addLayout(buttons);
    layout->addLayout(createFileButtons());
    layout->addWidget(m_compare);
    layout->addWidget(m_note);
    layout->addWidget(m_histogram, 2);

    connect(&m_watcher, &QFutureWatcher<QImage>::finished, this, &LutPanel::histogramRendered);
    setEnabled(false);
}

LutPanel::~LutPanel() { m_watcher.waitForFinished(); }

void LutPanel::setMap(MapDefPtr map)
{
    const QString previous = layerName();
    m_map = std::move(map);
    const QSignalBlocker block(m_layers);
    m_layers->clear();
    if (m_map)
        for (const LayerDef& layer : m_map->layers)
            if (layer.type == LayerType::Raster) m_layers->addItem(layer.name);
    if (!previous.isEmpty() && m_layers->findText(previous) >= 0) m_layers->setCurrentText(previous);
    setEnabled(m_layers->count() > 0);
    loadCurves();
    emitCompare();
}

QLayout* LutPanel::createFileButtons()
{
    auto* exportButton = new QPushButton(tr("Export GIMP curves…"));
    exportButton->setToolTip(tr("Save the curves as a GIMP curves file (PROCESSING \"LUT=file.curves\" reads it)"));
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export GIMP curves"), layerName() + QStringLiteral(".curves"),
                                                          tr("GIMP curves (*.curves);;All files (*)"));
        if (path.isEmpty()) return;
        if (const Status saved = exportGimpCurves(path); !saved)
            QMessageBox::warning(this, tr("Export GIMP curves"), saved.message());
    });
    auto* importButton = new QPushButton(tr("Import…"));
    importButton->setToolTip(tr("Load the curves of a GIMP curves file into the editor"));
    connect(importButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import GIMP curves"), {},
                                                          tr("GIMP curves (*.curves);;All files (*)"));
        if (path.isEmpty()) return;
        if (const Status loaded = importGimpCurves(path); !loaded)
            QMessageBox::warning(this, tr("Import GIMP curves"), loaded.message());
    });
    auto* row = new QHBoxLayout;
    row->addWidget(importButton);
    row->addStretch(1);
    row->addWidget(exportButton);
    return row;
}

Status LutPanel::exportGimpCurves(const QString& path) const
{
    const Result<QByteArray> text = m_curves.toGimpCurves();
    if (!text) return text.error();
    return writeFileAtomically(path, *text);
}

Status LutPanel::importGimpCurves(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return Error(tr("cannot open %1: %2").arg(path, f.errorString()));
    const Result<LutCurves> curves = LutCurves::fromGimpCurves(f.read(64 * 1024));
    if (!curves) return curves.error();
    setCurves(*curves);
    Q_EMIT previewChanged(previewMap());
    return {};
}

void LutPanel::setCompareEnabled(bool on) { m_compare->setChecked(on); }
bool LutPanel::isCompareEnabled() const { return m_compare->isChecked(); }

void LutPanel::emitCompare()
{
    Q_EMIT compareChanged(m_compare->isChecked() && isEnabled() ? mapWithoutLut() : nullptr);
}

MapDefPtr LutPanel::mapWithoutLut() const
{
    if (!m_map) return nullptr;
    auto copy = std::make_shared<MapDef>(*m_map);
    for (LayerDef& layer : copy->layers)
        if (layer.name == layerName()) layer.processing = replaceLutDirectives(layer.processing, {});
    return copy;
}

QString LutPanel::layerName() const { return m_layers->currentText(); }
void LutPanel::setLayer(const QString& name) { m_layers->setCurrentText(name); }

void LutPanel::setChannel(int channel)
{
    m_channel = std::clamp(channel, 0, LutCurves::kChannels - 1);
    if (m_channels->currentIndex() != m_channel) m_channels->setCurrentIndex(m_channel);
    static const QColor colours[] = {Qt::black, kBandColours[0], kBandColours[1], kBandColours[2]};
    m_curve->setCurveColour(colours[m_channel]);
    m_curve->setPoints(m_curves.points(m_channel));
}

void LutPanel::loadCurves()
{
    const LayerDef* layer = m_map ? m_map->layer(layerName()) : nullptr;
    QString note;
    setCurves(layer ? LutCurves::fromProcessing(layer->processing, &note) : LutCurves());
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

void LutPanel::setCurves(const LutCurves& curves)
{
    m_curves = curves;
    setChannel(m_channel);
    plotHistograms();
}

void LutPanel::reset() { loadCurves(); Q_EMIT previewChanged(previewMap()); }

void LutPanel::curveEdited(const QList<QPoint>& points)
{
    m_curves.setPoints(m_channel, points);
    plotHistograms();
    Q_EMIT previewChanged(previewMap());
}

void LutPanel::applyPreset(const QString& name)
{
    QList<QPoint> points = LutCurves::identity();
    if (name == tr("Contrast")) points = {{0, 0}, {64, 40}, {192, 215}, {255, 255}};
    else if (name == tr("Brighten")) points = {{0, 0}, {128, 170}, {255, 255}};
    else if (name == tr("Invert")) points = {{0, 255}, {255, 0}};
    m_curve->setPoints(points);
    curveEdited(m_curve->points());
}

MapDefPtr LutPanel::previewMap() const
{
    if (!m_map) return nullptr;
    auto copy = std::make_shared<MapDef>(*m_map);
    for (LayerDef& layer : copy->layers)
        if (layer.name == layerName()) layer.processing = replaceLutDirectives(layer.processing, m_curves.directives());
    return copy;
}

bool LutPanel::writeToMapfile()
{
    // Against the text as it is now: positions must match the document.
    const LoadResult parsed = parseMapText(m_document->text().toUtf8(), m_document->path());
    QString error;
    if (!parsed.map) {
        error = tr("the mapfile does not parse: fix it first");
    } else {
        const Status written =
            writeLutToText(m_document->textDocument(), *parsed.map, layerName(), m_curves.directives());
        if (written) return true;
        error = written.message();
    }
    QMessageBox::warning(this, tr("Write LUT"), error);
    return false;
}

void LutPanel::setHistogramView(const Rect& bbox, const QSize& size)
{
    if (!m_map || layerName().isEmpty() || m_watcher.isRunning() || size.isEmpty()) return;
    RenderRequest request;
    request.bbox = bbox;
    const QSize scaled = size.scaled(kHistogramMaxSide, kHistogramMaxSide, Qt::KeepAspectRatio);
    request.width = std::min(size.width(), scaled.width());
    request.height = std::min(size.height(), scaled.height());
    request.layers = {layerName()};
    request.layersGiven = true;
    request.encode = false;
    request.transparent = true;  // background pixels stay out of the histogram
    const MapDefPtr map = mapWithoutLut();
    m_watcher.setFuture(QtConcurrent::run([map, context = m_context, request] { return renderWithoutLut(map, context, request); }));
}

void LutPanel::histogramRendered()
{
    const QImage image = m_watcher.result().convertToFormat(QImage::Format_ARGB32);
    m_before = QList<QList<double>>(3, QList<double>(256, 0.0));
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            if (qAlpha(line[x]) == 0) continue;
            m_before[0][qRed(line[x])] += 1;
            m_before[1][qGreen(line[x])] += 1;
            m_before[2][qBlue(line[x])] += 1;
        }
    }
    plotHistograms();
    Q_EMIT histogramReady();
}

void LutPanel::plotHistograms()
{
    if (m_before.size() != 3) return;
    QVector<double> keys(256);
    for (int i = 0; i < 256; ++i) keys[i] = i;
    double maxCount = 1;
    for (int band = 0; band < 3; ++band) {
        // After = the band's table applied to the before counts, exactly per value.
        const Lut lut = m_curves.lutForBand(band + 1);
        QVector<double> after(256, 0.0);
        for (int v = 0; v < 256; ++v) after[lut[v]] += m_before[band][v];
        for (int v = 0; v < 256; ++v) maxCount = std::max({maxCount, after[v], m_before[band][v]});
        m_histogram->graph(band * 2)->setData(keys, QVector<double>(m_before[band].begin(), m_before[band].end()), true);
        m_histogram->graph(band * 2 + 1)->setData(keys, after, true);
    }
    m_histogram->yAxis->setRange(0, maxCount * 1.05);
    m_histogram->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace maptune
