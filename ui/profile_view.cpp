#include "profile_view.h"

#include "map_canvas.h"

#include "data/postgis/postgis_explain.h"
#include "lint/map_linter.h"
#include "render/map_renderer.h"

#include <qcustomplot.h>

#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <string_view>

namespace maptune {

namespace {

struct PhaseStyle {
    const char* name;
    QColor colour;
};

// One colour per phase, the same in every profile.
const PhaseStyle kPhases[] = {
    {"open", QColor(0x9e, 0x9e, 0x9e)},      {"read", QColor(0x42, 0x85, 0xf4)},
    {"draw", QColor(0x34, 0xa8, 0x53)},      {"lut", QColor(0x8e, 0x44, 0xad)},
    {"pool wait", QColor(0xea, 0x43, 0x35)}, {"connect", QColor(0xff, 0x98, 0x00)},
    {"query", QColor(0xfb, 0xbc, 0x05)},     {"fetch", QColor(0x00, 0xac, 0xc1)},
    {"label", QColor(0x79, 0x55, 0x48)},     {"encode", QColor(0x60, 0x7d, 0x8b)},
    {"density", QColor(0xe9, 0x1e, 0x63)},   {"idw", QColor(0xe9, 0x1e, 0x63)},
    {"contour", QColor(0xe9, 0x1e, 0x63)},
};

QColor colourOf(const QString& phase)
{
    for (const PhaseStyle& p : kPhases)
        if (phase == QLatin1String(p.name)) return p.colour;
    return Qt::gray;
}

enum LayerColumn { NameCol, TotalCol, FeaturesCol, SqlCol, ExplainCol };

}  // namespace

ProfileView::ProfileView(QWidget* parent)
    : QWidget(parent), m_plot(new QCustomPlot), m_layers(new QTreeWidget), m_findings(new QTreeWidget),
      m_plan(new QPlainTextEdit), m_summary(new QLabel)
{
    m_plot->setMinimumHeight(160);
    m_plot->xAxis->setLabel(tr("ms from the start of the render"));
    // The phase colours in one row above the timeline, never over its bars.
    m_plot->legend->setVisible(true);
    m_plot->legend->setFont(font());
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_layers->setHeaderLabels({tr("Layer"), tr("ms"), tr("Features / rows"), tr("SQL sent"), QString()});
    m_layers->setRootIsDecorated(false);
    m_layers->header()->setSectionResizeMode(SqlCol, QHeaderView::Stretch);
    m_findings->setHeaderLabels({tr("Rule"), tr("Where"), tr("Finding")});
    m_findings->setRootIsDecorated(false);
    m_findings->header()->setStretchLastSection(true);
    m_plan->setReadOnly(true);
    m_plan->setPlaceholderText(tr("EXPLAIN (ANALYZE, BUFFERS) of a PostGIS layer's query appears here."));
    m_plan->setLineWrapMode(QPlainTextEdit::NoWrap);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_plot);
    auto* lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(m_layers);
    lower->addWidget(m_plan);
    split->addWidget(lower);
    split->addWidget(m_findings);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    m_summary->setText(tr("View ▸ Profile This View renders the canvas's view once and shows where its time went."));
    m_summary->setWordWrap(true);

    connect(&m_lint, &QFutureWatcher<LintFindings>::finished, this, [this] { showFindings(m_lint.result()); });
    connect(&m_render, &QFutureWatcher<Trace>::finished, this, [this] { setTrace(m_render.result(), m_rendering); });
    connect(&m_explain, &QFutureWatcher<QString>::finished, this, [this] {
        m_plan->setPlainText(m_explain.result());
        Q_EMIT explained();
    });
}

void ProfileView::profile(MapCanvas* canvas)
{
    const PreparedMapPtr prepared = canvas->prepared();
    if (!prepared || m_render.isRunning()) return;
    const RenderRequest request = canvas->viewRequest();
    m_rendering = canvas->map();
    m_viewBox = request.bbox.value_or(Rect());
    m_summary->setText(tr("Rendering the view…"));
    m_render.setFuture(QtConcurrent::run([prepared, request] { return MapRenderer(prepared).render(request).trace; }));
}

void ProfileView::setTrace(const Trace& trace, MapDefPtr map)
{
    m_trace = trace;
    m_map = std::move(map);
    drawTimeline(trace);
    fillLayers(trace);
    m_summary->setText(tr("%1 ms in all: %2 ms in the database, %3 ms placing labels, %4 ms encoding %5 bytes.")
                           .arg(trace.totalMs, 0, 'f', 1)
                           .arg(trace.dbMs(), 0, 'f', 1)
                           .arg(trace.labelMs, 0, 'f', 1)
                           .arg(trace.encodeMs, 0, 'f', 1)
                           .arg(trace.bytes));
    m_findings->clear();
    if (m_map && !m_map->path.isEmpty()) {
        const QString path = m_map->path;
        m_lint.setFuture(QtConcurrent::run([path] { return lintMapFile(path); }));
    }
    Q_EMIT profiled();
}

void ProfileView::drawTimeline(const Trace& trace)
{
    m_plot->clearItems();
    m_plot->clearPlottables();
    m_bars.clear();
    QList<const LayerTrace*> drawn;
    for (const LayerTrace& l : trace.layers)
        if (!l.skipped) drawn << &l;
    // Rows from the top: layers in drawing order, then labels and encoding.
    const int rows = int(drawn.size()) + 2;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QSet<QString> inLegend;
    auto bar = [&](int row, double start, double ms, const QString& phase, double height) {
        if (ms <= 0) return;
        const double y = rows - 1 - row;
        auto* rect = new QCPItemRect(m_plot);
        rect->topLeft->setCoords(start, y + height / 2);
        rect->bottomRight->setCoords(start + ms, y - height / 2);
        rect->setBrush(colourOf(phase));
        rect->setPen(Qt::NoPen);
        m_bars << QStringLiteral("%1: %2").arg(ticker->ticks().value(y), phase);
        if (!inLegend.contains(phase)) {
            // Items have no legend entry: an empty graph of the phase's colour stands for it.
            QCPGraph* key = m_plot->addGraph();
            key->setName(phase);
            key->setPen(QPen(colourOf(phase), 8));
            inLegend.insert(phase);
        }
    };
    for (int i = 0; i < drawn.size(); ++i) ticker->addTick(rows - 1 - i, drawn[i]->layer);
    ticker->addTick(1, tr("labels"));
    ticker->addTick(0, tr("encode"));
    double end = trace.totalMs;
    for (int i = 0; i < drawn.size(); ++i) {
        const LayerTrace& l = *drawn[i];
        double at = l.startMs;
        for (const auto& [phase, ms] : {std::pair{"open", l.openMs}, std::pair{"read", l.readMs},
                                        std::pair{"compute", l.computeMs}, std::pair{"draw", l.drawMs},
                                        std::pair{"lut", l.lutMs}}) {
            const bool computed = std::string_view(phase) == "compute";
            if (computed && ms <= 0) continue;
            bar(i, at, ms, computed ? l.computePhase : QLatin1String(phase), 0.7);
            at += ms;
        }
        double dbAt = l.startMs + l.openMs;
        for (const DbTrace& db : l.db)
            for (const auto& [phase, ms] : {std::pair{"pool wait", db.poolWaitMs}, std::pair{"connect", db.connectMs},
                                            std::pair{"query", db.queryMs}, std::pair{"fetch", db.fetchMs}}) {
                bar(i, dbAt, ms, QLatin1String(phase), 0.3);
                dbAt += ms;
            }
        end = std::max(end, at);
    }
    double layersEnd = 0;
    for (const LayerTrace* l : drawn) layersEnd = std::max(layersEnd, l->startMs + l->totalMs);
    bar(int(drawn.size()), layersEnd, trace.labelMs, QStringLiteral("label"), 0.7);
    bar(int(drawn.size()) + 1, std::max(layersEnd + trace.labelMs, trace.totalMs - trace.encodeMs), trace.encodeMs,
        QStringLiteral("encode"), 0.7);
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(-0.6, rows - 0.4);
    m_plot->xAxis->setRange(0, std::max(end, 0.1) * 1.02);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ProfileView::fillLayers(const Trace& trace)
{
    m_layers->clear();
    m_plan->clear();
    QList<const LayerTrace*> byTime;
    for (const LayerTrace& l : trace.layers)
        if (!l.skipped) byTime << &l;
    std::stable_sort(byTime.begin(), byTime.end(),
                     [](const LayerTrace* a, const LayerTrace* b) { return a->totalMs > b->totalMs; });
    for (const LayerTrace* l : byTime) {
        qint64 rows = 0;
        QStringList sql;
        for (const DbTrace& db : l->db) {
            rows += db.rows;
            sql << db.sql.simplified();
        }
        auto* item = new QTreeWidgetItem(m_layers, {l->layer, QString::number(l->totalMs, 'f', 1),
                                                    l->db.isEmpty() ? QString::number(l->features)
                                                                    : tr("%1 / %2 rows").arg(l->features).arg(rows),
                                                    sql.join(QStringLiteral(" ; "))});
        item->setToolTip(SqlCol, sql.join(QStringLiteral("\n\n")));
        if (!l->error.isEmpty()) item->setToolTip(NameCol, l->error);
        if (l->db.isEmpty()) continue;
        auto* button = new QPushButton(tr("EXPLAIN ANALYZE"));
        const QString name = l->layer;
        connect(button, &QPushButton::clicked, this, [this, name] { explain(name); });
        m_layers->setItemWidget(item, ExplainCol, button);
    }
    for (int c = NameCol; c <= FeaturesCol; ++c) m_layers->resizeColumnToContents(c);
}

void ProfileView::explain(const QString& layerName)
{
    const LayerDef* layer = m_map ? m_map->layer(layerName) : nullptr;
    if (!layer) return;
    m_plan->setPlainText(tr("EXPLAIN ANALYZE for layer '%1'…").arg(layerName));
    const LayerDef copy = *layer;
    const MapDefPtr map = m_map;
    const Rect box = m_viewBox.isValid() ? m_viewBox : m_map->extent;
    // The statement the profiled render sent: this view's box, the classes' attributes.
    m_explain.setFuture(QtConcurrent::run([copy, map, box] {
        const PostgisExplain e = explainPostgisView(*map, copy, box);
        if (!e.ok()) return QStringLiteral("Layer '%1': %2").arg(copy.name, e.error);
        QString text = e.sql + QStringLiteral("\n\n") + e.plan;
        for (const QString& w : e.warnings) text += QStringLiteral("\nwarning: ") + w;
        return text;
    }));
}

void ProfileView::showFindings(const LintFindings& findings)
{
    m_findings->clear();
    // The slowest layers' findings first: they explain the long bars.
    QStringList slow;
    for (int i = 0; i < m_layers->topLevelItemCount() && i < 3; ++i) slow << m_layers->topLevelItem(i)->text(NameCol);
    auto rank = [&slow](const LintFinding& f) {
        for (int i = 0; i < slow.size(); ++i)
            if (f.message.contains(QStringLiteral("layer '%1'").arg(slow[i]))) return i;
        return int(slow.size());
    };
    LintFindings sorted = findings;
    sorted.removeIf([](const LintFinding& f) { return f.ruleId == QLatin1String("MT001"); });
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](const LintFinding& a, const LintFinding& b) { return rank(a) < rank(b); });
    for (const LintFinding& f : sorted) {
        auto* item = new QTreeWidgetItem(m_findings, {f.ruleId, QStringLiteral("%1:%2").arg(f.pos.line).arg(f.pos.column),
                                                      f.message});
        if (const LintRule* rule = lintRule(f.ruleId)) item->setToolTip(2, rule->explanation + QStringLiteral("\n\nFix: ") + rule->fix);
        if (rank(f) < slow.size()) {
            QFont bold = item->font(2);
            bold.setBold(true);
            item->setFont(2, bold);
        }
    }
    Q_EMIT findingsShown();
}

}  // namespace maptune
