#include "main_window.h"

#include "layer_edit_actions.h"
#include "mapfile_outline.h"
#include "profile_view.h"
#include "request_actions.h"

#include "benchmark_panel.h"
#include "editor_panel.h"
#include "help_dialog.h"
#include "identify_panel.h"
#include "layer_list_model.h"
#include "layer_properties_dialog.h"
#include "lut_panel.h"
#include "map_canvas.h"
#include "map_document.h"
#include "mapfile_editor.h"
#include "raster_advisor_panel.h"
#include "server_panel.h"
#include "timings_panel.h"
#include "trace_relay.h"

#include "geo/coordinate_transform.h"
#include "render/engine.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QResizeEvent>
#include <QShowEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>
#include <QtConcurrent>

#include <cmath>

namespace maptune {

namespace {

// The default layout as fractions of the window: the map keeps at least half
// of each dimension.
constexpr double kLeftShare = 0.20;
constexpr double kRightShare = 0.27;
constexpr double kBottomShare = 0.30;
constexpr double kTimingsShareOfBottom = 0.58;
constexpr qint64 kFirstLayoutMs = 1500;  // how long the first layout follows the window's size

QDockWidget* makeDock(const QString& title, const QString& objectName, QWidget* content, QWidget* parent)
{
    auto* dock = new QDockWidget(title, parent);
    dock->setObjectName(objectName);  // saveState() keys docks by object name
    // A panel smaller than its layout's minimum scrolls instead of cutting
    // its buttons off (small screens, many docks in one column).
    auto* scroll = new QScrollArea;
    scroll->setObjectName(objectName + QStringLiteral("Scroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    dock->setWidget(scroll);
    return dock;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_document(new MapDocument(this)), m_canvas(new MapCanvas), m_relay(new TraceRelay(this)),
      m_layerModel(new LayerListModel(this)), m_mapPos(new QLabel), m_lonLat(new QLabel), m_scale(new QLabel),
      m_renderTime(new QLabel)
{
    m_canvas->setEngineContext(m_engine);
    setCentralWidget(m_canvas);
    m_canvas->setTraceSink(m_relay);
    createDocks();
    createActions();
    createStatusBar();

    connect(m_document, &MapDocument::mapChanged, this, &MainWindow::onMapChanged);
    connect(m_document, &MapDocument::modificationChanged, this, &MainWindow::updateTitle);
    connect(m_document, &MapDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(m_layerModel, &LayerListModel::visibilityChanged, m_canvas, &MapCanvas::setVisibleLayers);
    connect(m_relay, &TraceRelay::traceReady, m_timings,
            [this](const QString&, const Trace& trace) { m_timings->addTrace(trace); });
    connect(m_canvas, &MapCanvas::renderFinished, this, [this](const Trace& trace, double wallMs) {
        m_layerModel->setTrace(trace);
        m_renderTime->setText(tr("render %1 ms").arg(wallMs, 0, 'f', 1));
    });
    connect(m_canvas, &MapCanvas::renderFailed, this,
            [this](const QString& error) { statusBar()->showMessage(error, 8000); });
    connect(m_canvas, &MapCanvas::renderWarnings, this,
            [this](const QStringList& w) { statusBar()->showMessage(w.join(QStringLiteral("; ")), 8000); });
    connect(m_canvas, &MapCanvas::cursorMoved, this, &MainWindow::showCursor);
    connect(m_identify, &IdentifyPanel::finished, this, [this] { m_canvas->setHighlight(m_identify->resultGeometries()); });
    connect(m_canvas, &MapCanvas::viewChanged, this, &MainWindow::showScale);

    readSettings();
    updateTitle();
}

MainWindow::~MainWindow()
{
    // The canvas first: its destructor waits for the render in flight, which
    // still reports to the trace relay, a child that would otherwise go before it.
    delete takeCentralWidget();
    m_canvas = nullptr;
}

void MainWindow::createDocks()
{
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    m_layerView = new QTreeView;
    m_layerView->setModel(m_layerModel);
    // Each layer's classes with their legend keys under it.
    m_layerView->setIconSize(LayerListModel::kIconSize);
    m_layerView->setExpandsOnDoubleClick(false);  // double-click opens the LAYER block
    connect(m_layerView, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const LayerDef* layer = m_layerModel->layerAt(LayerListModel::layerRowOf(index))) showLayerInEditor(layer->name);
    });
    connect(m_layerModel, &QAbstractItemModel::modelReset, m_layerView, &QTreeView::expandAll);
    m_layerView->setAlternatingRowColors(true);
    m_layerView->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_layerView->header()->setStretchLastSection(true);
    m_layerView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_layerView, &QWidget::customContextMenuRequested, this, &MainWindow::showLayerMenu);
    // Dragging a layer onto another moves its LAYER block in the text.
    m_layerEdits = new LayerEditActions(m_document, this);
    connect(m_layerEdits, &LayerEditActions::message, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });
    m_layerView->setDragDropMode(QAbstractItemView::InternalMove);
    m_layerView->setDefaultDropAction(Qt::MoveAction);
    m_layerView->setDropIndicatorShown(true);
    connect(m_layerModel, &LayerListModel::layerMoveRequested, m_layerEdits, &LayerEditActions::moveLayerBefore);
    auto* layers = makeDock(tr("Layers"), QStringLiteral("layersDock"), m_layerView, this);
    addDockWidget(Qt::LeftDockWidgetArea, layers);

    m_editor = new EditorPanel(m_document);
    syncLayerListWithOutline();
    auto* editor = makeDock(tr("Mapfile"), QStringLiteral("editorDock"), m_editor, this);
    addDockWidget(Qt::RightDockWidgetArea, editor);

    m_timings = new TimingsPanel;
    auto* timings = makeDock(tr("Timings"), QStringLiteral("timingsDock"), m_timings, this);
    addDockWidget(Qt::BottomDockWidgetArea, timings);

    m_lut = new LutPanel(m_document);
    m_lut->setEngineContext(m_engine);
    auto* lut = makeDock(tr("LUT"), QStringLiteral("lutDock"), m_lut, this);
    addDockWidget(Qt::RightDockWidgetArea, lut);
    tabifyDockWidget(editor, lut);
    editor->raise();
    connect(m_lut, &LutPanel::previewChanged, m_canvas, [this](MapDefPtr map) { m_canvas->setMap(map, true); });
    connect(m_lut, &LutPanel::compareChanged, m_canvas, &MapCanvas::setCompareMap);
    connect(m_canvas, &MapCanvas::renderFinished, m_lut, [this, lut] {
        if (!lut->visibleRegion().isEmpty()) m_lut->setHistogramView(m_canvas->extent(), m_canvas->size());
    });
    connect(lut, &QDockWidget::visibilityChanged, m_lut, [this](bool visible) {
        if (visible) m_lut->setHistogramView(m_canvas->extent(), m_canvas->size());
    });

    m_server = new ServerPanel;
    m_server->setEngineContext(m_engine);
    auto* server = makeDock(tr("Server"), QStringLiteral("serverDock"), m_server, this);
    // Beside Timings: a served request shows in both at once.
    addDockWidget(Qt::BottomDockWidgetArea, server);
    splitDockWidget(timings, server, Qt::Horizontal);
    connect(m_document, &MapDocument::pathChanged, m_server, &ServerPanel::setMapPath);
    connect(m_document, &MapDocument::mapChanged, m_server, &ServerPanel::setMap);
    connect(m_server, &ServerPanel::requestServed, m_timings, &TimingsPanel::addServedRequest);

    m_identify = new IdentifyPanel;
    auto* identify = makeDock(tr("Identify"), QStringLiteral("identifyDock"), m_identify, this);
    addDockWidget(Qt::LeftDockWidgetArea, identify);
    tabifyDockWidget(layers, identify);  // beside the layer list: both answer "what is on the map"

    // Benchmarks of "this map" go through the Server panel, so Timings shows them as they run;
    // preset variants are served by the panel's own server, which reports to Timings too.
    m_benchmark = new BenchmarkPanel(m_document, m_server);
    m_benchmark->setLayerList(m_layerModel);  // "this map" requests the layers the canvas shows
    connect(m_benchmark, &BenchmarkPanel::requestServed, m_timings, &TimingsPanel::addServedRequest);  // preset variants
    auto* benchmark = makeDock(tr("Benchmark"), QStringLiteral("benchmarkDock"), m_benchmark, this);
    addDockWidget(Qt::RightDockWidgetArea, benchmark);
    tabifyDockWidget(editor, benchmark);
    m_rasterAdvisor = new RasterAdvisorPanel(m_document, m_benchmark);
    connect(m_rasterAdvisor, &RasterAdvisorPanel::showBenchmarkRequested, this, [this] { raiseDock(QStringLiteral("benchmark")); });
    auto* advisor = makeDock(tr("Raster Advisor"), QStringLiteral("rasterAdvisorDock"), m_rasterAdvisor, this);
    addDockWidget(Qt::RightDockWidgetArea, advisor);
    tabifyDockWidget(editor, advisor);
    m_profile = new ProfileView;
    auto* profile = makeDock(tr("Profile"), QStringLiteral("profileDock"), m_profile, this);
    addDockWidget(Qt::BottomDockWidgetArea, profile);
    tabifyDockWidget(timings, profile);
    timings->raise();
    editor->raise();
    layers->raise();
    m_defaultState = saveState();
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState);
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        dock->setFloating(false);
        dock->show();
    }
    for (const char* name : {"editor", "layers"}) raiseDock(QString::fromLatin1(name));
    auto* layers = findChild<QDockWidget*>(QStringLiteral("layersDock"));
    auto* editor = findChild<QDockWidget*>(QStringLiteral("editorDock"));
    auto* timings = findChild<QDockWidget*>(QStringLiteral("timingsDock"));
    auto* server = findChild<QDockWidget*>(QStringLiteral("serverDock"));
    const int w = width(), h = height();
    resizeDocks({layers, editor}, {int(w * kLeftShare), int(w * kRightShare)}, Qt::Horizontal);
    resizeDocks({timings}, {int(h * kBottomShare)}, Qt::Vertical);
    resizeDocks({timings, server}, {int(w * kTimingsShareOfBottom), int(w * (1 - kTimingsShareOfBottom))},
                Qt::Horizontal);
}

void MainWindow::showLayerMenu(const QPoint& pos)
{
    const QModelIndex index = m_layerView->indexAt(pos);
    QMenu* menu = layerMenu(LayerListModel::layerRowOf(index), LayerListModel::isClassRow(index) ? index.row() : -1);
    if (!menu) return;
    menu->exec(m_layerView->viewport()->mapToGlobal(pos));
    delete menu;
}

QMenu* MainWindow::layerMenu(int row, int classIndex)
{
    const LayerDef* layer = m_layerModel->layerAt(row);
    if (!layer) return nullptr;
    const QString name = layer->name;
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("layerMenu"));
    menu->addAction(tr("&Zoom to Layer"), this, [this, name] { zoomToLayer(name); });
    menu->addAction(tr("Show in &Editor"), this, [this, name] { showLayerInEditor(name); });
    const QModelIndex check = m_layerModel->index(row, LayerListModel::NameColumn);
    const bool visible = m_layerModel->data(check, Qt::CheckStateRole).toInt() == Qt::Checked;
    QAction* toggle = menu->addAction(visible ? tr("&Hide") : tr("&Show"), this, [this, check, visible] {
        m_layerModel->setData(check, visible ? Qt::Unchecked : Qt::Checked, Qt::CheckStateRole);
    });
    toggle->setEnabled(layer->status != LayerStatus::Default);  // always drawn
    menu->addSeparator();
    m_layerEdits->addTo(menu, m_document->lastGoodMap(), name, classIndex);
    menu->addSeparator();
    menu->addAction(tr("&Properties…"), this, [this, name] { showLayerProperties(name); });
    return menu;
}

// The layer the editor's cursor is in is the layer list's current row, and
// choosing a row selects its LAYER in the editor's outline (the cursor stays).
void MainWindow::syncLayerListWithOutline()
{
    connect(m_editor->outline(), &MapfileOutline::layerAtCursor, this, [this](const QString& name) {
        for (int row = 0; row < m_layerModel->rowCount(); ++row) {
            const LayerDef* layer = m_layerModel->layerAt(row);
            if (!layer || layer->name != name) continue;
            const QSignalBlocker quiet(m_layerView->selectionModel());
            m_layerView->setCurrentIndex(m_layerModel->index(row, LayerListModel::NameColumn));
            m_layerView->viewport()->update();
        }
    });
    connect(m_layerView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& index) {
        if (const LayerDef* layer = m_layerModel->layerAt(LayerListModel::layerRowOf(index)))
            m_editor->outline()->selectLayer(layer->name);
    });
}

bool MainWindow::showLayerInEditor(const QString& name)
{
    const MapDefPtr map = m_canvas->map() ? m_canvas->map() : m_document->lastGoodMap();
    if (!map) return false;
    for (const LayerDef& layer : map->layers) {
        if (layer.name != name || layer.pos.line <= 0) continue;
        raiseDock(QStringLiteral("editor"));
        const bool ownFile = layer.pos.file.isEmpty() || QFileInfo(layer.pos.file) == QFileInfo(m_document->path());
        if (!ownFile) return m_editor->showIncluded(layer.pos.file, layer.pos.line, layer.pos.column) != nullptr;
        m_editor->tabs()->setCurrentIndex(0);
        m_editor->editor()->goTo(layer.pos.line, layer.pos.column);
        m_editor->editor()->setFocus();
        return true;
    }
    return false;
}

void MainWindow::showLayerProperties(const QString& name)
{
    const MapDefPtr map = m_canvas->map();
    if (!map) return;
    for (const LayerDef& layer : map->layers) {
        if (layer.name != name) continue;
        auto* dialog = new LayerPropertiesDialog(*map, layer, this);
        dialog->setObjectName(QStringLiteral("layerProperties"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        return;
    }
}

void MainWindow::zoomToLayer(const QString& name)
{
    const PreparedMapPtr map = m_canvas->prepared();
    if (!map || !map->layer(name)) {
        Q_EMIT layerZoomed(name, false);
        return;
    }
    using Found = std::pair<std::optional<Rect>, QString>;
    auto* watcher = new QFutureWatcher<Found>(this);
    connect(watcher, &QFutureWatcher<Found>::finished, this, [this, watcher, name, map] {
        const Found found = watcher->result();
        watcher->deleteLater();
        if (m_canvas->prepared() != map) return;  // another map since: its view is not ours to change
        if (found.first) m_canvas->setExtent(*found.first);
        else
            statusBar()->showMessage(
                tr("Zoom to layer: %1")
                    .arg(found.second.isEmpty() ? tr("layer '%1' has no known extent").arg(name) : found.second),
                8000);
        Q_EMIT layerZoomed(name, found.first.has_value());
    });
    watcher->setFuture(QtConcurrent::run([map, name] {
        const Result<std::optional<Rect>> extent = map->layer(name)->extent();
        if (!extent) return Found{std::nullopt, extent.message()};
        return Found{*extent, QString()};  // an extent that is unknown is no error
    }));
}

void MainWindow::identifyAt(const QPointF& mapPoint)
{
    if (!m_canvas->map()) return;
    raiseDock(QStringLiteral("identify"));
    m_identify->identify(m_canvas->prepared(), m_layerModel->identifiableLayers(), mapPoint, m_canvas->view().unitsPerPixel,
                         m_canvas->scaleDenominator());
}

bool MainWindow::raiseDock(const QString& name)
{
    auto* dock = findChild<QDockWidget*>(name + QStringLiteral("Dock"));
    if (!dock) return false;
    dock->show();
    dock->raise();
    return true;
}

void MainWindow::createScaleBox()
{
    // Type a scale ("2500", "1:2500", "1:2 500") and press Enter; the list offers round ones.
    m_scaleBox = new QComboBox;
    m_scaleBox->setObjectName(QStringLiteral("scaleBox"));
    m_scaleBox->setEditable(true);
    m_scaleBox->setInsertPolicy(QComboBox::NoInsert);
    m_scaleBox->setMinimumContentsLength(11);
    m_scaleBox->setToolTip(tr("The map's scale; type one and press Enter to zoom to it"));
    for (int scale : {500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000, 1000000})
        m_scaleBox->addItem(tr("1:%L1").arg(scale), scale);
    connect(m_scaleBox->lineEdit(), &QLineEdit::returnPressed, this,
            [this] { zoomToTypedScale(m_scaleBox->lineEdit()->text()); });
    connect(m_scaleBox, &QComboBox::activated, this, [this](int index) {
        m_canvas->zoomToScale(m_scaleBox->itemData(index).toDouble());
    });
}

bool MainWindow::zoomToTypedScale(const QString& text)
{
    QString digits = text.trimmed();
    if (const int colon = digits.indexOf(QLatin1Char(':')); colon >= 0) digits = digits.mid(colon + 1);
    digits.remove(QRegularExpression(QStringLiteral("[\\s,.'\u00a0\u202f]")));
    bool ok = false;
    const double scale = digits.toDouble(&ok);
    if (!ok || !(scale > 0)) {
        statusBar()->showMessage(tr("Not a scale: \"%1\" (type e.g. 1:5000)").arg(text), 5000);
        showScale();  // back to the map's scale
        return false;
    }
    m_canvas->zoomToScale(scale);
    return true;
}

void MainWindow::createActions()
{
    createScaleBox();
    m_requests = new RequestActions(m_canvas, m_server, m_document, this);
    connect(m_requests, &RequestActions::message, this, [this](const QString& text) { statusBar()->showMessage(text, 8000); });

    QMenu* file = menuBar()->addMenu(tr("&File"));
    QToolBar* tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));

    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::open);
    open->setShortcut(QKeySequence::Open);
    QAction* save = file->addAction(tr("&Save"), this, &MainWindow::save);
    save->setShortcut(QKeySequence::Save);
    file->addAction(tr("Save &As…"), this, &MainWindow::saveAs)->setShortcut(QKeySequence::SaveAs);
    file->addAction(tr("&Reload"), this, &MainWindow::reload)->setShortcut(QKeySequence(tr("Ctrl+R")));
    file->addAction(m_requests->openRequestAction());
    m_recentMenu = file->addMenu(tr("Recent &Files"));
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);
    tools->addAction(open);
    tools->addAction(save);
    tools->addSeparator();

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    MapfileEditor* editor = m_editor->editor();
    QAction* undo = edit->addAction(tr("&Undo"), editor, &QPlainTextEdit::undo);
    undo->setShortcut(QKeySequence::Undo);
    undo->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QAction* redo = edit->addAction(tr("&Redo"), editor, &QPlainTextEdit::redo);
    redo->setShortcut(QKeySequence::Redo);
    redo->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    editor->addActions({undo, redo});
    connect(m_document->textDocument(), &QTextDocument::undoAvailable, undo, &QAction::setEnabled);
    connect(m_document->textDocument(), &QTextDocument::redoAvailable, redo, &QAction::setEnabled);
    undo->setEnabled(false);
    redo->setEnabled(false);
    edit->addSeparator();
    edit->addAction(tr("&Format Mapfile"), m_editor, &EditorPanel::formatText)
        ->setShortcut(QKeySequence(tr("Ctrl+Shift+F")));
    edit->addActions(m_editor->editActions());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* full = view->addAction(tr("Zoom to &Full Extent"), m_canvas, &MapCanvas::zoomFullExtent);
    full->setShortcut(QKeySequence(tr("Ctrl+0")));
    QAction* zoomIn = view->addAction(tr("Zoom &In"), m_canvas, &MapCanvas::zoomIn);
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction* zoomOut = view->addAction(tr("Zoom &Out"), m_canvas, &MapCanvas::zoomOut);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    m_zoomBoxAction = view->addAction(tr("Zoom to &Box"));
    m_zoomBoxAction->setCheckable(true);
    m_zoomBoxAction->setShortcut(QKeySequence(tr("Ctrl+B")));
    m_zoomBoxAction->setToolTip(tr("Zoom to box: drag a rectangle on the map (Shift+drag works in any mode)"));
    connect(m_zoomBoxAction, &QAction::toggled, m_canvas, &MapCanvas::setZoomBoxMode);
    QAction* back = view->addAction(tr("&Back"), m_canvas, &MapCanvas::back);
    back->setShortcut(QKeySequence::Back);
    QAction* forward = view->addAction(tr("&Forward"), m_canvas, &MapCanvas::forward);
    forward->setShortcut(QKeySequence::Forward);
    view->addAction(tr("&Refresh"), m_canvas, &MapCanvas::refresh)->setShortcut(QKeySequence::Refresh);
    connect(m_canvas, &MapCanvas::historyChanged, this, [this, back, forward] {
        back->setEnabled(m_canvas->canGoBack());
        forward->setEnabled(m_canvas->canGoForward());
    });
    back->setEnabled(false);
    forward->setEnabled(false);
    tools->addAction(zoomIn);
    tools->addAction(zoomOut);
    tools->addAction(m_zoomBoxAction);
    tools->addAction(full);
    tools->addAction(back);
    tools->addAction(forward);
    tools->addSeparator();
    m_identifyAction = view->addAction(tr("&Identify"));
    m_identifyAction->setCheckable(true);
    m_identifyAction->setShortcut(QKeySequence(tr("Ctrl+I")));
    m_identifyAction->setToolTip(tr("Identify: click the map to see the features' attributes (Ctrl+I)"));
    connect(m_identifyAction, &QAction::toggled, m_canvas, &MapCanvas::setIdentifyMode);
    connect(m_canvas, &MapCanvas::clicked, this, [this](const QPointF& p) {
        if (m_identifyAction->isChecked()) identifyAt(p);
    });
    tools->addAction(m_identifyAction);
    tools->addSeparator();
    tools->addWidget(new QLabel(tr(" Scale ")));
    tools->addWidget(m_scaleBox);

    view->addSeparator();
    QAction* profile = view->addAction(tr("&Profile This View"), this, [this] {
        raiseDock(QStringLiteral("profile"));
        m_profile->profile(m_canvas);
    });
    profile->setShortcut(QKeySequence(tr("Ctrl+Shift+P")));
    profile->setToolTip(tr("Render this view once and show where the time goes: per layer, per database call, "
                           "with the SQL, EXPLAIN ANALYZE and the lint findings that explain it"));
    view->addAction(m_requests->copyUrlAction());
    view->addAction(tr("Reset &Layout"), this, &MainWindow::resetLayout);

    m_windowMenu = menuBar()->addMenu(tr("&Window"));
    for (QDockWidget* dock : findChildren<QDockWidget*>()) m_windowMenu->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("MapTune &Help"), this, &MainWindow::showHelp)->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About MapTune"), this, &MainWindow::about);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createStatusBar()
{
    m_mapPos->setMinimumWidth(220);
    m_lonLat->setMinimumWidth(200);
    m_scale->setMinimumWidth(110);
    statusBar()->addPermanentWidget(m_mapPos);
    statusBar()->addPermanentWidget(m_lonLat);
    statusBar()->addPermanentWidget(m_scale);
    statusBar()->addPermanentWidget(m_renderTime);
}

void MainWindow::showCursor(const QPointF& p)
{
    m_mapPos->setText(tr("x %1  y %2").arg(p.x(), 0, 'f', 2).arg(p.y(), 0, 'f', 2));
    const Crs& crs = m_canvas->crs();
    if (!crs.isValid()) {
        m_lonLat->setText(tr("lon/lat: no PROJECTION"));
        return;
    }
    static const Crs wgs84 = Crs::fromUserInput(QStringLiteral("EPSG:4326")).valueOr(Crs());
    const std::shared_ptr<CoordinateTransform> transform = CoordinateTransform::forThread(crs, wgs84).valueOr(nullptr);
    double x = p.x(), y = p.y();
    if (!transform || transform->transform(&x, &y, 1) != 0 || !std::isfinite(x)) {
        m_lonLat->setText(tr("lon/lat: n/a"));
        return;
    }
    m_lonLat->setText(tr("lon %1°  lat %2°").arg(x, 0, 'f', 6).arg(y, 0, 'f', 6));
}

void MainWindow::showScale()
{
    // Until the mouse is over the map, the readouts show the view's centre.
    if (m_canvas->map() && !m_canvas->underMouse()) showCursor(m_canvas->view().centre);
    const double scale = m_canvas->scaleDenominator();
    m_layerModel->setScaleDenominator(scale);
    m_scale->setText(scale > 0 ? tr("1:%L1").arg(qRound64(scale)) : QString());
    if (!m_scaleBox->lineEdit()->hasFocus()) m_scaleBox->setEditText(m_scale->text());
}

void MainWindow::onMapChanged(MapDefPtr map, bool sameFile)
{
    m_layerModel->setMap(map);
    m_lut->setMap(map);
    m_canvas->setVisibleLayers(m_layerModel->visibleLayers());
    m_canvas->setMap(map, sameFile);
    showScale();
}

void MainWindow::readSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value("geometry").toByteArray())) resize(1400, 860);
    // Dock sizes are fractions of the window, known once it is shown.
    m_layoutPending = !restoreState(settings.value("windowState").toByteArray());
    updateRecentMenu();
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue("geometry", saveGeometry());
    settings.setValue("windowState", saveState());
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_layoutPending) return;
    resetLayout();
    // A window manager (or -geometry) often sets the real size just after the
    // window appears: the first layout follows it for a moment, then the
    // user's own dock sizes are left alone.
    m_firstShown.start();
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    if (!m_layoutPending || !m_firstShown.isValid()) return;
    if (m_firstShown.elapsed() > kFirstLayoutMs) {
        m_layoutPending = false;
        return;
    }
    resetLayout();
}

QList<QAction*> MainWindow::menuActions() const
{
    QList<QAction*> actions;
    for (QAction* top : menuBar()->actions())
        if (QMenu* menu = top->menu())
            for (QAction* a : menu->actions())
                if (!a->isSeparator() && !a->menu()) actions << a;
    return actions;
}

void MainWindow::showHelp()
{
    auto* dialog = new HelpDialog(menuActions(), this);
    dialog->setObjectName(QStringLiteral("helpDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About MapTune"),
                       tr("<h3>MapTune</h3><p>A MapServer-compatible map viewer and WMS tuning workbench.</p>"
                          "<p>%1</p>")
                           .arg(engineVersions().toHtmlEscaped()));
}

QString MainWindow::demoMapPath()
{
    const QString appDir = QCoreApplication::applicationDirPath();
    for (const QString& candidate : {appDir + QStringLiteral("/../demo/demo.map"),
                                     appDir + QStringLiteral("/demo/demo.map"),
                                     appDir + QStringLiteral("/../share/maptune/demo/demo.map")}) {
        if (QFileInfo::exists(candidate)) return QFileInfo(candidate).absoluteFilePath();
    }
    return {};
}

}  // namespace maptune
