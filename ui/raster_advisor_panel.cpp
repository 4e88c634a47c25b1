#include "raster_advisor_panel.h"

#include "benchmark_panel.h"
#include "map_document.h"

#include "loadtest/raster_converter.h"
#include "mapfile/map_lexer.h"
#include "mapfile/map_paths.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
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

QString cleanAbsolute(const QString& path)
{
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

// What to write as DATA for file: relative when the map's own lookup (SHAPEPATH,
// then the mapfile's folder) finds it that way, so the map stays movable with its data.
QString dataValueFor(const MapDef& map, const QString& file)
{
    const QString absolute = cleanAbsolute(file);
    const QString mapDir = mapDirectory(map);
    QStringList bases;
    if (!map.shapePath.isEmpty()) bases << QDir(mapDir).absoluteFilePath(map.shapePath);
    bases << mapDir;
    for (const QString& base : std::as_const(bases)) {
        const QString relative = QDir(base).relativeFilePath(absolute);
        if (relative.startsWith(QLatin1String("..")) || QDir::isAbsolutePath(relative)) continue;
        if (cleanAbsolute(resolveDataPath(map, relative)) == absolute) return relative;
    }
    return absolute;
}

// Replaces the layer's DATA value in the text (the parse of which is map) by
// value, as one undoable edit. The value is found at the position the parser
// recorded and checked to be the DATA it read, so a stale map cannot edit the
// wrong place.
Status replaceLayerData(QTextDocument* text, const MapDef& map, const QString& layerName, const QString& value)
{
    const LayerDef* layer = map.layer(layerName);
    if (!layer || layer->data.isEmpty() || layer->dataPos.line <= 0)
        return Error(QObject::tr("Layer %1 has no DATA to point at the new file").arg(layerName));
    if (!layer->dataPos.file.isEmpty() && !map.path.isEmpty() && cleanAbsolute(layer->dataPos.file) != cleanAbsolute(map.path))
        return Error(QObject::tr("The DATA of layer %1 is written in %2 (an INCLUDE): change it there")
                         .arg(layerName, QDir::toNativeSeparators(layer->dataPos.file)));
    const QTextBlock block = text->findBlockByNumber(layer->dataPos.line - 1);
    const QString line = block.text();
    int start = 0;  // the parser counts columns in code points
    for (int column = 1; column < layer->dataPos.column && start < line.size(); ++column)
        start += line.at(start).isHighSurrogate() ? 2 : 1;
    Diagnostics diagnostics;
    const QByteArray rest = line.mid(start).toUtf8();
    const std::vector<Token> tokens = MapLexer::scanSourceTokens(rest, {}, diagnostics);
    if (!block.isValid() || tokens.empty() || tokens.front().offset != 0 || tokens.front().text != layer->data
        || (tokens.front().kind != Token::Kind::String && tokens.front().kind != Token::Kind::Word))
        return Error(QObject::tr("The DATA of layer %1 is not where the map was read from: let the editor's text "
                                 "compile, then try again").arg(layerName));
    const int length = int(QString::fromUtf8(rest.left(tokens.front().length)).size());
    QTextCursor cursor(text);
    cursor.setPosition(block.position() + start);
    cursor.setPosition(block.position() + start + length, QTextCursor::KeepAnchor);
    cursor.insertText(quoteMapString(value));  // one edit: one undo step
    return {};
}

}  // namespace

RasterAdvisorPanel::RasterAdvisorPanel(MapDocument* document, BenchmarkPanel* benchmark, QWidget* parent)
    : QWidget(parent), m_document(document), m_benchmark(benchmark), m_tree(new QTreeWidget),
      m_refresh(new QPushButton(tr("Inspect again"))), m_cancel(new QPushButton(tr("Cancel"))),
      m_rerun(new QPushButton(tr("Re-run the benchmark to see the gain"))),
      m_pointLayer(new QPushButton(tr("Point the layer at the new file"))), m_progress(new QProgressBar),
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
    m_pointLayer->setVisible(false);
    m_pointLayer->setToolTip(tr("Changes the layer's DATA in the editor to the converted file (undoable; saved when you save)"));
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
    progress->addWidget(m_pointLayer);
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
    connect(m_pointLayer, &QPushButton::clicked, this, [this] { (void)pointLayerAtResult(); });  // a refusal shows here
    m_chooseOutput = [this](const QString& suggested) {
        return QFileDialog::getSaveFileName(this, tr("Write the converted file"), suggested,
                                            tr("GeoTIFF (*.tif *.tiff);;All files (*)"));
    };
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

bool RasterAdvisorPanel::apply(RasterAction action, const QString& output)
{
    QTreeWidgetItem* file = selectedFileItem();
    if (m_busy || !file) return false;
    // Read before the dialog: an inspection finishing meanwhile rebuilds the tree.
    const QString path = file->data(NameCol, PathRole).toString();
    const QString layer = file->data(NameCol, LayerRole).toString();
    const bool convert = action != RasterAction::BuildOverviews;
    QString target = output;
    if (convert && target.isEmpty()) {
        target = m_chooseOutput ? m_chooseOutput(RasterAdvisor::convertedPath(action, path)) : QString();
        if (target.isEmpty()) {
            m_status->setText(tr("Not converted: no file was chosen to write."));
            return false;
        }
    }
    if (m_busy) return false;
    m_lastLayer = layer;
    m_lastSourcePath = path;
    m_lastAction = action;
    m_cancelToken = CancelToken();
    m_busy = true;
    m_rerun->setVisible(false);
    m_pointLayer->setVisible(false);
    m_progress->setValue(0);
    m_status->setText(tr("%1: %2…").arg(RasterAdvisor::actionLabel(action), QFileInfo(path).fileName()));
    updateButtons();
    const CancelToken cancel = m_cancelToken;
    m_action.setFuture(QtConcurrent::run([this, action, path, target, convert, cancel] {
        const RasterProgress progress = [this](double fraction, const QString& stage) {
            QMetaObject::invokeMethod(this, [this, fraction, stage] {
                m_progress->setValue(int(fraction * kProgressSteps));
                if (!stage.isEmpty()) m_status->setText(stage);
            }, Qt::QueuedConnection);
        };
        if (convert && !QDir().mkpath(QFileInfo(target).absolutePath())) {
            RasterJobResult r;
            r.error = QObject::tr("Cannot create the folder %1: choose another place").arg(QFileInfo(target).absolutePath());
            return r;
        }
        return convert ? RasterAdvisor::convert(action, path, target, cancel, progress)
                       : RasterAdvisor::apply(action, path, {}, cancel, progress);
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
        // Only a layer that reads the converted file itself (not a tile of a tile index) can be pointed at the copy.
        m_pointLayer->setVisible(m_lastAction != RasterAction::BuildOverviews && m_document
                                 && layerFile(m_lastLayer) == cleanAbsolute(m_lastSourcePath));
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

QString RasterAdvisorPanel::statusText() const
{
    return m_status->text();
}

QString RasterAdvisorPanel::layerFile(const QString& layer) const
{
    const MapDefPtr map = m_document ? m_document->lastGoodMap() : nullptr;
    const LayerDef* l = map ? map->layer(layer) : nullptr;
    if (!l || l->data.isEmpty() || !l->tileIndex.isEmpty()) return {};
    return cleanAbsolute(resolveDataPath(*map, l->data));
}

Status RasterAdvisorPanel::fail(const QString& message)
{
    m_status->setText(QStringLiteral("<span style='color:#c02020'>%1</span>").arg(message.toHtmlEscaped()));
    return Error(message);
}

Status RasterAdvisorPanel::rerunBenchmark()
{
    if (!m_benchmark) return Error(tr("No Benchmark panel to re-run"));
    if (m_lastResultPath.isEmpty()) return Error(tr("Nothing to re-run: build overviews or convert a file first"));
    m_rerun->setVisible(false);
    Status started;
    if (m_lastAction == RasterAction::BuildOverviews) {
        started = m_benchmark->run();
    } else {
        const QString label = m_lastAction == RasterAction::ConvertToCog ? tr("COG") : tr("tiled GeoTIFF");
        // Once the layer reads the copy, "as is" is the copy: the baseline is the file before.
        const bool pointed = layerFile(m_lastLayer) == cleanAbsolute(m_lastResultPath);
        started = m_benchmark->runFileComparison(m_lastLayer, m_lastResultPath, label,
                                                 pointed ? m_lastSourcePath : QString());
    }
    Q_EMIT showBenchmarkRequested();  // its progress, or why it did not start, is shown there
    return started;
}

Status RasterAdvisorPanel::pointLayerAtResult()
{
    if (!m_document) return fail(tr("No mapfile to edit"));
    if (m_lastAction == RasterAction::BuildOverviews || m_lastResultPath.isEmpty())
        return fail(tr("Nothing to point the layer at: convert a file first"));
    // The positions must be those of the text as it is now.
    if (!m_document->compileNow() || !m_document->lastGoodMap())
        return fail(tr("The mapfile has errors: fix them, then point layer %1 at the new file").arg(m_lastLayer));
    const MapDefPtr map = m_document->lastGoodMap();
    const QString value = dataValueFor(*map, m_lastResultPath);
    if (const Status edited = replaceLayerData(m_document->textDocument(), *map, m_lastLayer, value); !edited)
        return fail(edited.message());
    m_document->compileNow();  // the canvas, the server and this panel see the new file at once
    m_pointLayer->setVisible(false);
    m_status->setText(tr("Layer %1 now reads %2 in the editor (not saved yet; Undo in the editor reverts it).")
                          .arg(m_lastLayer, value));
    return {};
}

}  // namespace maptune
