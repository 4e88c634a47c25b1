#include "raster_advisor_panel.h"

#include "benchmark_panel.h"
#include "map_document.h"

#include "loadtest/raster_converter.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace maptune {

namespace {

constexpr int kProgressSteps = 1000;
enum Column { NameCol, FormatCol, SizeCol, BlocksCol, OverviewsCol, CompressionCol, BytesCol, ColumnCount };
enum Role { LayerRole = Qt::UserRole, PathRole, ActionsRole };

const RasterAction kActions[] = {RasterAction::BuildOverviews, RasterAction::ConvertToTiledGeoTiff,
                                 RasterAction::ConvertToCog};

QString bytesText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

QColor levelColour(AdviceLevel level)
{
    switch (level) {
    case AdviceLevel::Good: return QColor(0x20, 0x80, 0x20);
    case AdviceLevel::Info: return QColor(0x40, 0x40, 0x40);
    case AdviceLevel::Warning: return QColor(0xb0, 0x50, 0x00);
    }
    return {};
}

QTreeWidgetItem* fileItem(const QString& layer, const RasterFileInfo& f)
{
    auto* item = new QTreeWidgetItem;
    item->setText(NameCol, QFileInfo(f.path).fileName());
    item->setToolTip(NameCol, f.path);
    item->setData(NameCol, LayerRole, layer);
    item->setData(NameCol, PathRole, f.path);
    if (!f.ok()) {
        item->setText(FormatCol, f.error);
        item->setForeground(FormatCol, QColor(0xc0, 0x20, 0x20));
        return item;
    }
    item->setText(FormatCol, f.cog ? QStringLiteral("COG") : f.driver);
    item->setToolTip(FormatCol, f.driverLongName);
    item->setText(SizeCol, QStringLiteral("%1×%2×%3 %4").arg(f.width).arg(f.height).arg(f.bands).arg(f.dataType));
    item->setText(BlocksCol, f.tiled ? QObject::tr("tiled %1×%2").arg(f.blockWidth).arg(f.blockHeight)
                                     : QObject::tr("strips %1×%2").arg(f.blockWidth).arg(f.blockHeight));
    item->setText(OverviewsCol, f.overviews == 0 ? QObject::tr("none")
                                                 : QObject::tr("%1%2").arg(f.overviews).arg(f.externalOverviews ? QObject::tr(" (.ovr)") : QString()));
    item->setText(CompressionCol, f.compression.isEmpty() ? QStringLiteral("NONE") : f.compression);
    item->setText(BytesCol, bytesText(f.fileBytes));
    item->setTextAlignment(BytesCol, Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// The raster layers' names and files: what an inspection depends on.
QStringList rasterKey(const MapDef* map)
{
    QStringList key;
    if (!map) return key;
    for (const LayerDef& l : map->layers)
        if (l.type == LayerType::Raster) key << l.name + QLatin1Char('|') + l.data + QLatin1Char('|') + l.tileIndex;
    return key;
}

}  // namespace

RasterAdvisorPanel::RasterAdvisorPanel(MapDocument* document, BenchmarkPanel* benchmark, QWidget* parent)
    : QWidget(parent), m_document(document), m_benchmark(benchmark), m_tree(new QTreeWidget),
      m_refresh(new QPushButton(tr("Inspect again"))), m_cancel(new QPushButton(tr("Cancel"))),
      m_rerun(new QPushButton(tr("Re-run the benchmark to see the gain"))), m_progress(new QProgressBar),
      m_details(new QLabel), m_status(new QLabel)
{
    qRegisterMetaType<maptune::RasterJobResult>();
    m_tree->setHeaderLabels({tr("Layer / file"), tr("Format"), tr("Size"), tr("Blocks"), tr("Overviews"),
                             tr("Compression"), tr("Bytes")});
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    m_tree->setWordWrap(true);
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_cancel->setEnabled(false);
    m_rerun->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setText(tr("Select a file to see what its layout costs and what fixes it."));

    auto* buttons = new QHBoxLayout;
    for (RasterAction action : kActions) {
        const QString label = action == RasterAction::BuildOverviews      ? tr("Build overviews")
                              : action == RasterAction::ConvertToCog      ? tr("Convert to COG")
                                                                          : tr("Convert to tiled GeoTIFF");
        auto* button = new QPushButton(label);
        button->setToolTip(tr("For the selected file: %1").arg(RasterAdvisor::actionLabel(action)));
        connect(button, &QPushButton::clicked, this, [this, action] { apply(action); });
        buttons->addWidget(button);
        m_actions << button;
    }
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    buttons->addWidget(m_refresh);
    auto* progress = new QHBoxLayout;
    progress->addWidget(m_progress, 1);
    progress->addWidget(m_rerun);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_details);
    layout->addLayout(buttons);
    layout->addLayout(progress);
    layout->addWidget(m_status);

    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &RasterAdvisorPanel::updateButtons);
    connect(m_refresh, &QPushButton::clicked, this, &RasterAdvisorPanel::refresh);
    connect(m_cancel, &QPushButton::clicked, this, &RasterAdvisorPanel::cancel);
    connect(m_rerun, &QPushButton::clicked, this, [this] { (void)rerunBenchmark(); });  // the Benchmark panel shows a refusal
    connect(&m_inspect, &QFutureWatcher<QList<LayerRasterReport>>::finished, this, [this] {
        m_reports = m_inspect.result();
        showReports();
        Q_EMIT inspected();
        if (std::exchange(m_refreshAgain, false)) refresh();
    });
    connect(&m_action, &QFutureWatcher<RasterJobResult>::finished, this, &RasterAdvisorPanel::onActionDone);
    if (m_document) {
        connect(m_document, &MapDocument::mapChanged, this, [this](MapDefPtr map) {
            // Every pause in typing gives a new map: inspect only when the rasters changed.
            if (rasterKey(map.get()) != property("rasterKey").toStringList()) refresh();
        });
    }
    updateButtons();
    refresh();
}

RasterAdvisorPanel::~RasterAdvisorPanel()
{
    m_cancelToken.cancel();
    m_action.waitForFinished();
    m_inspect.waitForFinished();
}

QPushButton* RasterAdvisorPanel::actionButton(RasterAction action) const
{
    for (int i = 0; i < int(std::size(kActions)); ++i)
        if (kActions[i] == action) return m_actions[i];
    return nullptr;
}

void RasterAdvisorPanel::refresh()
{
    if (m_inspect.isRunning()) {
        m_refreshAgain = true;
        return;
    }
    const MapDefPtr map = m_document ? m_document->lastGoodMap() : nullptr;
    setProperty("rasterKey", rasterKey(map.get()));
    if (!map) {
        m_reports.clear();
        showReports();
        return;
    }
    m_status->setText(tr("Inspecting the raster files…"));
    m_inspect.setFuture(QtConcurrent::run([map] { return RasterAdvisor::inspectMap(*map); }));
}

void RasterAdvisorPanel::showReports()
{
    const QString selectedPath = selectedFileItem() ? selectedFileItem()->data(NameCol, PathRole).toString() : QString();
    m_tree->clear();
    for (const LayerRasterReport& r : std::as_const(m_reports)) {
        auto* layer = new QTreeWidgetItem(m_tree);
        layer->setText(NameCol, r.layer);
        QFont bold = layer->font(NameCol);
        bold.setBold(true);
        layer->setFont(NameCol, bold);
        layer->setText(FormatCol, !r.error.isEmpty() ? r.error
                                  : r.tileIndex      ? tr("tile index, %1 tiles").arg(r.tiles)
                                                     : QString());
        if (!r.error.isEmpty()) layer->setForeground(FormatCol, QColor(0xc0, 0x20, 0x20));
        layer->setText(BytesCol, bytesText(r.totalBytes));
        layer->setTextAlignment(BytesCol, Qt::AlignRight | Qt::AlignVCenter);
        QMap<QString, QTreeWidgetItem*> files;
        for (const RasterFileInfo& f : r.files) {
            QTreeWidgetItem* item = fileItem(r.layer, f);
            layer->addChild(item);
            files.insert(f.path, item);
            if (f.path == selectedPath) item->setSelected(true);
        }
        for (const RasterAdvice& a : r.advice) {
            QTreeWidgetItem* parent = files.value(a.path, layer);
            auto* item = new QTreeWidgetItem(parent);
            item->setText(NameCol, a.message);
            item->setToolTip(NameCol, a.message);
            item->setForeground(NameCol, levelColour(a.level));
            QVariantList actions;
            for (RasterAction action : a.actions) actions << int(action);
            item->setData(NameCol, ActionsRole, actions);
            item->setFirstColumnSpanned(true);
        }
    }
    m_tree->expandAll();
    if (!m_busy) m_status->setText(m_reports.isEmpty() ? tr("The map has no raster layer.") : QString());
    updateButtons();
}

QTreeWidgetItem* RasterAdvisorPanel::selectedFileItem() const
{
    const QList<QTreeWidgetItem*> selected = m_tree->selectedItems();
    if (selected.isEmpty()) return nullptr;
    QTreeWidgetItem* item = selected.first();
    // An advice row stands for its file.
    if (item->data(NameCol, PathRole).toString().isEmpty() && item->parent()) item = item->parent();
    return item->data(NameCol, PathRole).toString().isEmpty() ? nullptr : item;
}

bool RasterAdvisorPanel::selectFile(const QString& layer, const QString& path)
{
    const QString wanted = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* l = m_tree->topLevelItem(i);
        for (int j = 0; j < l->childCount(); ++j) {
            QTreeWidgetItem* f = l->child(j);
            if (f->data(NameCol, LayerRole).toString() == layer &&
                QFileInfo(f->data(NameCol, PathRole).toString()).absoluteFilePath() == wanted) {
                m_tree->setCurrentItem(f);
                return true;
            }
        }
    }
    return false;
}

QString RasterAdvisorPanel::detailsText() const
{
    return m_details->text();
}

void RasterAdvisorPanel::updateButtons()
{
    QSet<int> offered;
    QStringList advice;
    QTreeWidgetItem* file = selectedFileItem();
    if (file) {
        for (int i = 0; i < file->childCount(); ++i) {
            advice << file->child(i)->text(NameCol).toHtmlEscaped();
            for (const QVariant& a : file->child(i)->data(NameCol, ActionsRole).toList()) offered << a.toInt();
        }
        m_details->setText(QStringLiteral("<b>%1</b>: %2").arg(file->text(NameCol).toHtmlEscaped(),
                                                             advice.isEmpty() ? tr("no advice") : advice.join(QStringLiteral("<br>"))));
    }
    for (int i = 0; i < int(std::size(kActions)); ++i) m_actions[i]->setEnabled(!m_busy && offered.contains(int(kActions[i])));
    m_cancel->setEnabled(m_busy);
    m_refresh->setEnabled(!m_busy);
}

bool RasterAdvisorPanel::apply(RasterAction action)
{
    QTreeWidgetItem* file = selectedFileItem();
    if (m_busy || !file) return false;
    const QString path = file->data(NameCol, PathRole).toString();
    m_lastLayer = file->data(NameCol, LayerRole).toString();
    m_lastAction = action;
    m_cancelToken = CancelToken();
    m_busy = true;
    m_rerun->setVisible(false);
    m_progress->setValue(0);
    m_status->setText(tr("%1: %2…").arg(RasterAdvisor::actionLabel(action), QFileInfo(path).fileName()));
    updateButtons();
    const CancelToken cancel = m_cancelToken;
    m_action.setFuture(QtConcurrent::run([this, action, path, cancel] {
        return RasterAdvisor::apply(action, path, {}, cancel, [this](double fraction, const QString& stage) {
            QMetaObject::invokeMethod(this, [this, fraction, stage] {
                m_progress->setValue(int(fraction * kProgressSteps));
                if (!stage.isEmpty()) m_status->setText(stage);
            }, Qt::QueuedConnection);
        });
    }));
    return true;
}

void RasterAdvisorPanel::cancel()
{
    if (!m_busy) return;
    m_cancelToken.cancel();
    m_status->setText(tr("Cancelling…"));
}

void RasterAdvisorPanel::onActionDone()
{
    const RasterJobResult result = m_action.result();
    m_busy = false;
    m_lastResultPath = result.path;
    if (result.ok) {
        m_progress->setValue(kProgressSteps);
        m_status->setText(m_lastAction == RasterAction::BuildOverviews
                              ? tr("Overviews built: %1").arg(result.path)
                              : tr("Written %1%2").arg(result.path, result.reused ? tr(" (an up-to-date copy was kept)") : QString()));
        m_rerun->setVisible(m_benchmark != nullptr);
    } else if (result.cancelled) {
        m_progress->setValue(0);
        m_status->setText(tr("Cancelled: nothing was changed."));
    } else {
        m_status->setText(QStringLiteral("<span style='color:#c02020'>%1</span>").arg(result.error.toHtmlEscaped()));
    }
    updateButtons();
    refresh();
    Q_EMIT actionFinished(result);
}

Status RasterAdvisorPanel::rerunBenchmark()
{
    if (!m_benchmark) return Error(tr("No Benchmark panel to re-run"));
    if (m_lastResultPath.isEmpty()) return Error(tr("Nothing to re-run: build overviews or convert a file first"));
    m_rerun->setVisible(false);
    if (m_lastAction == RasterAction::BuildOverviews) return m_benchmark->run();
    const QString label = m_lastAction == RasterAction::ConvertToCog ? tr("COG") : tr("tiled GeoTIFF");
    return m_benchmark->runFileComparison(m_lastLayer, m_lastResultPath, label);
}

}  // namespace maptune
