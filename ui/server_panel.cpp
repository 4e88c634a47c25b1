#include "server_panel.h"

#include "pool_status_view.h"
#include "request_relay.h"

#include "wms/online_resource.h"
#include "server/http_server.h"
#include "server/map_registry.h"
#include "server/server_options.h"
#include "server/service_router.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace maptune {

namespace {

constexpr int kMaxLogRows = 2000;
constexpr int kReloadPollMs = 500;

enum LogColumn { TimeCol, TypeCol, StatusCol, MsCol, LayersCol, SizeCol, CrsCol, BytesCol, ColCount };

}  // namespace

ServerPanel::ServerPanel(QWidget* parent)
    : QWidget(parent), m_host(new QLineEdit(QStringLiteral("127.0.0.1"))), m_port(new QSpinBox),
      m_workers(new QSpinBox), m_startStop(new QPushButton(tr("Start"))), m_baseUrl(new QLineEdit),
      m_capsUrl(new QLineEdit), m_status(new QLabel), m_filter(new QLineEdit), m_log(new QTreeWidget),
      m_pools(new PoolStatusView), m_poll(new QTimer(this)), m_relay(new RequestRelay(this))
{
    m_port->setRange(0, 65535);
    m_port->setValue(8080);
    m_port->setToolTip(tr("0: any free port"));
    m_workers->setRange(0, 256);
    m_workers->setSpecialValueText(tr("one per core"));
    m_startStop->setCheckable(false);
    m_baseUrl->setReadOnly(true);
    m_capsUrl->setReadOnly(true);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* address = new QHBoxLayout;
    address->addWidget(m_host, 2);
    address->addWidget(new QLabel(QStringLiteral(":")));
    address->addWidget(m_port, 1);
    address->addWidget(m_startStop);
    auto* form = new QFormLayout;
    form->addRow(tr("Bind"), address);
    form->addRow(tr("Workers"), m_workers);
    form->addRow(tr("URL"), createUrlRow(m_baseUrl));
    form->addRow(tr("Capabilities"), createUrlRow(m_capsUrl));
    form->addRow(tr("Status"), m_status);

    m_filter->setPlaceholderText(tr("Filter the log (type, status, layers, CRS)"));
    m_filter->setClearButtonEnabled(true);
    auto* clear = new QPushButton(tr("Clear"));
    auto* logBar = new QHBoxLayout;
    logBar->addWidget(m_filter, 1);
    logBar->addWidget(clear);

    m_log->setHeaderLabels({tr("Time"), tr("Request"), tr("Status"), tr("ms"), tr("Layers"), tr("Size"), tr("CRS"),
                            tr("Bytes")});
    m_log->setRootIsDecorated(false);
    m_log->setUniformRowHeights(true);
    m_log->setAlternatingRowColors(true);
    m_log->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_log->setColumnWidth(TimeCol, 90);
    m_log->setColumnWidth(TypeCol, 110);
    m_log->setColumnWidth(StatusCol, 50);
    m_log->setColumnWidth(MsCol, 60);

    auto* pools = new QGroupBox(tr("PostgreSQL pools"));
    auto* poolLayout = new QVBoxLayout(pools);
    poolLayout->setContentsMargins(2, 2, 2, 2);
    poolLayout->addWidget(m_pools);
    m_pools->setMaximumHeight(110);
    pools->setVisible(false);  // shown for maps with PostGIS layers

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addLayout(logBar);
    layout->addWidget(m_log, 1);
    layout->addWidget(pools);

    connect(m_startStop, &QPushButton::clicked, this, [this] {
        if (isRunning()) stop();
        else (void)start();  // the panel shows why it did not start
    });
    connect(clear, &QPushButton::clicked, this, &ServerPanel::clearLog);
    connect(m_filter, &QLineEdit::textChanged, this, &ServerPanel::applyFilter);
    connect(m_relay, &RequestRelay::served, this, [this](const ServedRequest& request) {
        ++m_served;
        if (request.status >= 400) ++m_errors;
        addToLog(request);
        Q_EMIT requestServed(request);
    });
    m_poll->setInterval(500);
    connect(m_poll, &QTimer::timeout, this, &ServerPanel::updateStatus);
    updateStatus();
}

void ServerPanel::setEngineContext(EngineContextPtr context)
{
    m_context = std::move(context);
    m_pools->setEngineContext(m_context);
}

ServerPanel::~ServerPanel()
{
    stop();
}

QWidget* ServerPanel::createUrlRow(QLineEdit* field)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* copy = new QToolButton;
    copy->setText(tr("Copy"));
    copy->setToolTip(tr("Copy the URL to the clipboard"));
    connect(copy, &QToolButton::clicked, field, [field] {
        if (!field->text().isEmpty()) QApplication::clipboard()->setText(field->text());
    });
    layout->addWidget(field, 1);
    layout->addWidget(copy);
    return row;
}

void ServerPanel::setMapPath(const QString& path)
{
    if (path == m_mapPath) return;
    m_mapPath = path;
    // Another map: its requests start a log and counters of their own.
    m_served = m_errors = 0;
    m_log->clear();
    m_lastError.clear();
    if (isRunning()) {
        stop();
        (void)start();  // the panel shows why it did not start
    }
    updateStatus();
}

void ServerPanel::setMap(MapDefPtr map)
{
    m_editorMap = std::move(map);
    m_pools->setMap(m_editorMap);
    if (auto* box = qobject_cast<QGroupBox*>(m_pools->parentWidget())) box->setVisible(m_pools->poolCount() > 0);
    // The pools serve the canvas too: their state is polled while there are any.
    if (m_pools->poolCount() > 0) m_poll->start();
    else if (!isRunning()) m_poll->stop();
    if (isRunning() && serveEditorMap()) updateStatus();
}

bool ServerPanel::serveEditorMap()
{
    // Only a map of the served file: a map just opened elsewhere waits for setMapPath().
    if (!m_editorMap || m_mapPath.isEmpty() || QFileInfo(m_editorMap->path) != QFileInfo(m_mapPath)) return false;
    if (const Status served = m_registry->replaceMap(MapRegistry::nameForPath(m_mapPath), m_editorMap); !served) {
        m_lastError = tr("The editor's text is not served: %1").arg(served.message());
        return false;
    }
    m_lastError.clear();
    return true;
}

int ServerPanel::servedGeneration() const
{
    const ServedMapPtr served = m_registry ? m_registry->single() : nullptr;
    return served ? served->generation : 0;
}

void ServerPanel::setHost(const QString& host)
{
    m_host->setText(host);
}

void ServerPanel::setPort(int port)
{
    m_port->setValue(port);
}

void ServerPanel::setWorkers(int workers)
{
    m_workers->setValue(workers);
}

int ServerPanel::port() const
{
    return m_http ? m_http->port() : -1;
}

int ServerPanel::inFlight() const
{
    return m_router ? m_router->metrics().inFlight() : 0;
}

QString ServerPanel::baseUrl() const
{
    if (!m_http) return {};
    QString host = m_host->text().trimmed();
    if (host == QLatin1String("0.0.0.0") || host.isEmpty()) host = QStringLiteral("127.0.0.1");
    if (host.contains(QLatin1Char(':')) && !host.startsWith(QLatin1Char('['))) host = QLatin1Char('[') + host + QLatin1Char(']');
    return QStringLiteral("http://%1:%2/%3").arg(host).arg(m_http->port()).arg(MapRegistry::nameForPath(m_mapPath));
}

QString ServerPanel::capabilitiesUrl() const
{
    const QString base = baseUrl();
    return base.isEmpty() ? base : base + QStringLiteral("?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities");
}

Status ServerPanel::start()
{
    if (isRunning()) return {};
    auto fail = [&](const QString& message) -> Status {
        m_lastError = message;
        m_router.reset();
        m_registry.reset();
        updateStatus();
        return Error(message);
    };
    if (m_mapPath.isEmpty() || !QFileInfo::exists(m_mapPath))
        return fail(tr("Save the mapfile first: the server starts from a file on disk."));

    ServerOptions options;
    options.host = m_host->text().trimmed();
    options.port = m_port->value();
    options.workers = m_workers->value();
    options.reloadIntervalMs = kReloadPollMs;
    m_registry = std::make_unique<MapRegistry>(m_context);
    if (const Status added = m_registry->addMapFile(m_mapPath); !added) return fail(added.message());
    m_router = std::make_unique<ServiceRouter>(*m_registry, options);
    m_router->setObserver(m_relay);
    auto http = std::make_unique<HttpServer>(*m_router);
    if (const Status started = http->start(); !started)
        return fail(tr("Cannot listen on %1:%2: %3").arg(options.host).arg(options.port).arg(started.message()));
    m_http = std::move(http);
    m_lastError.clear();
    serveEditorMap();  // unsaved edits are served from the start
    m_registry->startWatching(kReloadPollMs);
    m_poll->start();
    updateStatus();
    Q_EMIT runningChanged(true);
    return {};
}

void ServerPanel::stop()
{
    if (!m_http) return;
    m_http->stop();  // requests in flight finish and report before this returns
    m_router->setObserver(nullptr);
    m_registry->stopWatching();
    m_http.reset();
    m_router.reset();
    m_registry.reset();
    if (m_pools->poolCount() == 0) m_poll->stop();
    updateStatus();
    Q_EMIT runningChanged(false);
}

void ServerPanel::clearLog()
{
    m_log->clear();
}

void ServerPanel::addToLog(const ServedRequest& r)
{
    auto* item = new QTreeWidgetItem;
    item->setText(TimeCol, QDateTime::fromMSecsSinceEpoch(r.finishedMs).toString(QStringLiteral("HH:mm:ss.zzz")));
    item->setText(TypeCol, r.type);
    item->setText(StatusCol, QString::number(r.status));
    item->setText(MsCol, QString::number(r.ms, 'f', 1));
    item->setText(LayersCol, r.layers);
    item->setText(SizeCol, r.width > 0 ? QStringLiteral("%1×%2").arg(r.width).arg(r.height) : QString());
    item->setText(CrsCol, r.crs);
    item->setText(BytesCol, QString::number(r.bytes));
    for (int c : {StatusCol, MsCol, BytesCol}) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    if (r.status >= 400) item->setForeground(StatusCol, QColor(0xc0, 0x20, 0x20));
    if (r.trace) item->setToolTip(MsCol, r.trace->serverTiming());
    m_log->insertTopLevelItem(0, item);  // newest first
    while (m_log->topLevelItemCount() > kMaxLogRows) delete m_log->takeTopLevelItem(kMaxLogRows);
    const QString f = m_filter->text().trimmed();
    if (!f.isEmpty()) applyFilter();
}

void ServerPanel::applyFilter()
{
    const QString f = m_filter->text().trimmed();
    for (int i = 0; i < m_log->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_log->topLevelItem(i);
        bool match = f.isEmpty();
        for (int c = 0; !match && c < ColCount; ++c) match = item->text(c).contains(f, Qt::CaseInsensitive);
        item->setHidden(!match);
    }
}

QString ServerPanel::statusText() const
{
    return m_status->text();
}

void ServerPanel::updateStatus()
{
    const bool running = isRunning();
    m_pools->refresh();
    m_startStop->setText(running ? tr("Stop") : tr("Start"));
    m_host->setEnabled(!running);
    m_port->setEnabled(!running);
    m_workers->setEnabled(!running);
    m_baseUrl->setText(baseUrl());
    m_capsUrl->setText(capabilitiesUrl());
    if (!running) {
        const QString map = m_mapPath.isEmpty() ? tr("no mapfile") : QFileInfo(m_mapPath).fileName();
        m_status->setText(m_lastError.isEmpty() ? tr("stopped (%1)").arg(map)
                                                : tr("<span style='color:#c02020'>%1</span>").arg(m_lastError.toHtmlEscaped()));
        return;
    }
    QString text = tr("<b>running</b> · %1 served · %2 errors · %3 in flight")
                       .arg(m_served).arg(m_errors).arg(inFlight());
    for (const MapStatus& s : m_registry->status()) {
        text += tr(" · %1 v%2").arg(s.name.toHtmlEscaped()).arg(s.generation);
        const ServedMapPtr served = m_registry->find(s.name);
        const bool editorText = served && m_editorMap && served->map == m_editorMap;
        if (editorText) text += tr(" (the editor's text)");
        // A save that did not load no longer matters once the editor's fixed text is served.
        if (!s.lastError.isEmpty() && !editorText)
            text += tr(" <span style='color:#c02020'>(last save does not load: %1)</span>").arg(s.lastError.toHtmlEscaped());
    }
    if (!m_lastError.isEmpty()) text += tr(" <span style='color:#c02020'>%1</span>").arg(m_lastError.toHtmlEscaped());
    m_onlineResourceWarning.clear();
    if (const ServedMapPtr served = m_registry->single())
        if (const auto elsewhere = foreignOnlineResource(*served->map, baseUrl()))
            m_onlineResourceWarning = foreignOnlineResourceWarning(*elsewhere, baseUrl());
    if (!m_onlineResourceWarning.isEmpty())
        text += tr("<br><span style='color:#a06000'>⚠ %1</span>").arg(m_onlineResourceWarning.toHtmlEscaped());
    m_status->setText(text);
}

}  // namespace maptune
