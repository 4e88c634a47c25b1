#pragma once
// The embedded WMS server dock: start/stop serving the open mapfile on a
// host:port, its URLs with copy buttons, live counters and a filterable
// request log, the state of the PostgreSQL pools the map uses. The server
// starts from the file on disk and then serves the editor's text whenever it
// parses (setMap), saved or not; the registry's watcher still picks up a file
// changed by another program.

#include "core/result.h"
#include "data/engine_context.h"
#include "mapfile/map_def.h"
#include "server/request_observer.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTimer;
class QTreeWidget;

namespace maptune {

class HttpServer;
class MapRegistry;
class PoolStatusView;
class RequestRelay;
class ServiceRouter;

class ServerPanel : public QWidget {
    Q_OBJECT
public:
    explicit ServerPanel(QWidget* parent = nullptr);
    ~ServerPanel() override;

    // The mapfile served by the next start(); a running server switches to it.
    void setMapPath(const QString& path);
    QString mapPath() const { return m_mapPath; }
    void setHost(const QString& host);
    void setPort(int port);   // 0: any free port
    void setWorkers(int workers);
    // The served map's context (the workbench's: canvas and server share one
    // PostgreSQL pool); takes effect at the next start().
    void setEngineContext(EngineContextPtr context);

    bool isRunning() const { return m_http != nullptr; }
    int port() const;          // the bound port; -1 when stopped
    QString baseUrl() const;   // "http://127.0.0.1:8080/demo"; empty when stopped
    QString capabilitiesUrl() const;

    qint64 servedCount() const { return m_served; }
    qint64 errorCount() const { return m_errors; }
    int inFlight() const;
    QTreeWidget* log() const { return m_log; }
    PoolStatusView* pools() const { return m_pools; }
    // Set while the served map's wms_onlineresource sends clients elsewhere (shown on the panel).
    QString onlineResourceWarning() const { return m_onlineResourceWarning; }
    QString statusText() const;
    // The generation of the map being served (1 at start, +1 per new version); 0 when stopped.
    int servedGeneration() const;

public Q_SLOTS:
    // An error (also shown on the panel) when the map does not load or the
    // address cannot be bound.
    maptune::Status start();
    void stop();
    void clearLog();
    // The editor's newest good map. While running, a map of the served file
    // becomes the served version at once (hot reload of unsaved edits).
    void setMap(maptune::MapDefPtr map);

Q_SIGNALS:
    void runningChanged(bool running);
    // Every WMS request answered, on the GUI thread.
    void requestServed(const maptune::ServedRequest& request);

private:
    void addToLog(const ServedRequest& request);
    void applyFilter();
    void updateStatus();
    bool serveEditorMap();
    QWidget* createUrlRow(QLineEdit* field);

    QString m_mapPath;
    MapDefPtr m_editorMap;
    QLineEdit* m_host;
    QSpinBox* m_port;
    QSpinBox* m_workers;
    QPushButton* m_startStop;
    QLineEdit* m_baseUrl;
    QLineEdit* m_capsUrl;
    QLabel* m_status;
    QLineEdit* m_filter;
    QTreeWidget* m_log;
    PoolStatusView* m_pools;
    QTimer* m_poll;

    RequestRelay* m_relay;
    EngineContextPtr m_context = std::make_shared<const EngineContext>();
    std::unique_ptr<MapRegistry> m_registry;
    std::unique_ptr<ServiceRouter> m_router;
    std::unique_ptr<HttpServer> m_http;
    qint64 m_served = 0;
    qint64 m_errors = 0;
    QString m_lastError;
    QString m_onlineResourceWarning;
};

}  // namespace maptune
