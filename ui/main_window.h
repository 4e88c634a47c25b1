#pragma once
// The workbench window: the canvas in the centre, docks around it (layers,
// mapfile editor, timings, LUT editor, server, benchmark, raster advisor), File menu with recent files,
// status bar readouts. Layout and recent files persist in QSettings.

#include "data/engine_context.h"
#include "mapfile/map_def.h"

#include <QElapsedTimer>
#include <QMainWindow>

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QTreeView;

namespace maptune {

class BenchmarkPanel;
class EditorPanel;
class IdentifyPanel;
class LayerListModel;
class LutPanel;
class MapCanvas;
class MapDocument;
class RasterAdvisorPanel;
class ServerPanel;
class LayerEditActions;
class RequestActions;
class ProfileView;
class TimingsPanel;
class TraceRelay;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a mapfile, offering to recover a newer autosave. False on failure
    // (the message was shown).
    bool openFile(const QString& path);
    // What `maptune` opens without an argument: the last file, else the demo map.
    static QString startupFile();
    static QString demoMapPath();

    // Brings a dock to the front: "layers", "editor", "lut", "timings", "server", "identify",
    // "benchmark", "rasterAdvisor".
    bool raiseDock(const QString& name);

    MapCanvas* canvas() const { return m_canvas; }
    const EngineContext& engineContext() const { return *m_engine; }
    MapDocument* document() const { return m_document; }
    LayerListModel* layerModel() const { return m_layerModel; }
    EditorPanel* editorPanel() const { return m_editor; }
    TimingsPanel* timingsPanel() const { return m_timings; }
    ProfileView* profileView() const { return m_profile; }
    RequestActions* requestActions() const { return m_requests; }
    LutPanel* lutPanel() const { return m_lut; }
    ServerPanel* serverPanel() const { return m_server; }
    IdentifyPanel* identifyPanel() const { return m_identify; }
    BenchmarkPanel* benchmarkPanel() const { return m_benchmark; }
    RasterAdvisorPanel* rasterAdvisorPanel() const { return m_rasterAdvisor; }
    QAction* identifyAction() const { return m_identifyAction; }
    QAction* zoomBoxAction() const { return m_zoomBoxAction; }
    QComboBox* scaleBox() const { return m_scaleBox; }
    // The scale box's Enter: "5000", "1:5000", "1:5 000"; false (and a message) when it is no scale.
    bool zoomToTypedScale(const QString& text);
    // Queries the identifiable layers at a map point (what a canvas click does in identify mode).
    void identifyAt(const QPointF& mapPoint);
    // The layer list's context menu for a layer row (caller owns it): zoom,
    // show in editor, hide/show, properties, and the text edits of
    // LayerEditActions (for a class row, classIndex >= 0: its class's). Null for no layer.
    QMenu* layerMenu(int row, int classIndex = -1);
    LayerEditActions* layerEdits() const { return m_layerEdits; }
    // Puts the editor's cursor on the layer's LAYER keyword (its INCLUDE file's tab when there).
    bool showLayerInEditor(const QString& name);
    void showLayerProperties(const QString& name);
    QTreeView* layerView() const { return m_layerView; }
    // Fits the canvas to a layer's extent (found off the UI thread; layerZoomed when done).
    void zoomToLayer(const QString& name);
    // View → Reset Layout: every dock back in its place, sized as fractions of
    // the window (the map keeps at least half its width and height).
    void resetLayout();
    // Help → MapTune Help (F1): the manual, the shortcuts, the version.
    void showHelp();
    // Every action of the menu bar's menus, in menu order (the Help page lists their shortcuts).
    QList<QAction*> menuActions() const;

Q_SIGNALS:
    void layerZoomed(const QString& name, bool ok);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void syncLayerListWithOutline();
    void createDocks();
    void createActions();
    void createScaleBox();
    void createStatusBar();
    void readSettings();
    void writeSettings();
    bool maybeSave();
    bool save();
    bool saveAs();
    void open();
    void reload();
    void about();
    void updateTitle();
    void updateRecentMenu();
    void addRecent(const QString& path);
    void onMapChanged(MapDefPtr map, bool sameFile);
    void showCursor(const QPointF& mapPoint);
    void showScale();
    void showLayerMenu(const QPoint& pos);

    MapDocument* m_document;
    // One engine context for the workbench: the canvas and the embedded
    // server draw from the same PostgreSQL pool, as the Server panel shows.
    EngineContextPtr m_engine =
        std::make_shared<const EngineContext>(PgPoolSettings{}, EngineContext::kDefaultPgRowCacheBytes);
    MapCanvas* m_canvas;
    TraceRelay* m_relay;
    LayerListModel* m_layerModel;
    QTreeView* m_layerView = nullptr;
    EditorPanel* m_editor = nullptr;
    TimingsPanel* m_timings = nullptr;
    ProfileView* m_profile = nullptr;
    RequestActions* m_requests = nullptr;
    LayerEditActions* m_layerEdits = nullptr;
    LutPanel* m_lut = nullptr;
    ServerPanel* m_server = nullptr;
    IdentifyPanel* m_identify = nullptr;
    BenchmarkPanel* m_benchmark = nullptr;
    RasterAdvisorPanel* m_rasterAdvisor = nullptr;
    QAction* m_identifyAction = nullptr;
    QAction* m_zoomBoxAction = nullptr;
    QComboBox* m_scaleBox = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_windowMenu = nullptr;
    QByteArray m_defaultState;    // the docks as createDocks() placed them
    bool m_layoutPending = false;  // no saved layout: resetLayout() once shown
    QElapsedTimer m_firstShown;
    QLabel* m_mapPos;
    QLabel* m_lonLat;
    QLabel* m_scale;
    QLabel* m_renderTime;
};

}  // namespace maptune
