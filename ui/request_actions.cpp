#include "request_actions.h"

#include "map_canvas.h"
#include "map_document.h"
#include "request_replay_dialog.h"
#include "server_panel.h"
#include "wms/mapserv/mapserv_url.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QSettings>

namespace maptune {

RequestActions::RequestActions(MapCanvas* canvas, ServerPanel* server, MapDocument* document, QWidget* window)
    : QObject(window), m_canvas(canvas), m_server(server), m_document(document), m_window(window)
{
    m_copy = new QAction(tr("Copy as &mapserv URL"), this);
    m_copy->setObjectName(QStringLiteral("copyMapservUrl"));
    m_copy->setToolTip(tr("Copy this view as a mapserv mode=map URL: the embedded server's while it runs, "
                          "else mapserv's (%1) with the mapfile's path").arg(mapservCgiBase()));
    connect(m_copy, &QAction::triggered, this, &RequestActions::copyUrl);
    m_open = new QAction(tr("Open &Request…"), this);
    m_open->setObjectName(QStringLiteral("openRequest"));
    m_open->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    m_open->setToolTip(tr("Replay a mapserv or WMS URL against the open map and see the answer"));
    connect(m_open, &QAction::triggered, this, &RequestActions::openRequest);
    // An open dialog answers with the newest map the canvas draws.
    connect(m_canvas, &MapCanvas::renderFinished, this, [this] {
        if (m_dialog) m_dialog->setMap(m_canvas->prepared());
    });
}

QString RequestActions::mapservCgiBase()
{
    return QSettings().value(QStringLiteral("mapservUrl"), QStringLiteral("http://localhost/cgi-bin/mapserv")).toString();
}

QString RequestActions::mapservUrl() const
{
    if (!m_canvas->prepared()) return {};
    const RenderRequest view = m_canvas->viewRequest();
    MapservView v;
    v.edges = view.bbox.value_or(Rect{});
    v.width = view.width;
    v.height = view.height;
    if (view.layersGiven) v.layers = view.layers;
    // The running server serves this map at its own path: no map= needed.
    if (m_server->isRunning()) return maptune::mapservUrl(m_server->baseUrl(), {}, v);
    return maptune::mapservUrl(mapservCgiBase(), QFileInfo(m_document->path()).absoluteFilePath(), v);
}

RequestReplayDialog* RequestActions::dialog() const
{
    return m_dialog;
}

void RequestActions::copyUrl()
{
    const QString url = mapservUrl();
    if (url.isEmpty()) {
        Q_EMIT message(tr("No map to copy a URL of"));
        return;
    }
    QApplication::clipboard()->setText(url);
    Q_EMIT message(tr("Copied %1").arg(url));
}

void RequestActions::openRequest()
{
    if (!m_dialog) {
        m_dialog = new RequestReplayDialog(m_window);
        m_dialog->setAttribute(Qt::WA_DeleteOnClose);
        // The URL on the clipboard, when it is one, is most likely the one to replay.
        const QString clip = QApplication::clipboard()->text().trimmed();
        if (clip.contains(QLatin1Char('?')) && !clip.contains(QLatin1Char('\n'))) m_dialog->setUrl(clip);
    }
    m_dialog->setMap(m_canvas->prepared());
    m_dialog->show();
    m_dialog->raise();
    m_dialog->activateWindow();
}

}  // namespace maptune
