#pragma once
// The workbench's two doors to mapserv URLs: View ▸ Copy as mapserv URL puts
// the canvas's view on the clipboard as a mode=map request (the embedded
// server's URL while it runs, else a mapserv CGI URL with the mapfile's
// path), and File ▸ Open Request… replays a pasted URL against the open map.

#include <QObject>
#include <QPointer>

class QAction;
class QWidget;

namespace maptune {

class MapCanvas;
class MapDocument;
class RequestReplayDialog;
class ServerPanel;

class RequestActions : public QObject {
    Q_OBJECT
public:
    RequestActions(MapCanvas* canvas, ServerPanel* server, MapDocument* document, QWidget* window);

    QAction* copyUrlAction() const { return m_copy; }
    QAction* openRequestAction() const { return m_open; }
    // What Copy as mapserv URL puts on the clipboard; empty without a map.
    QString mapservUrl() const;
    // Where a URL for mapserv itself points (QSettings "mapservUrl").
    static QString mapservCgiBase();
    RequestReplayDialog* dialog() const;  // null until first opened

public Q_SLOTS:
    void copyUrl();
    void openRequest();

Q_SIGNALS:
    void message(const QString& text);

private:
    MapCanvas* m_canvas;
    ServerPanel* m_server;
    MapDocument* m_document;
    QWidget* m_window;
    QAction* m_copy;
    QAction* m_open;
    QPointer<RequestReplayDialog> m_dialog;
};

}  // namespace maptune
