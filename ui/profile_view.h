#pragma once
// "Profile this view": one render of the canvas's view as a timeline per
// layer (open, read with each database call's pool wait / connect / query /
// fetch, draw, then labels and encoding) in QCustomPlot, a table of the
// layers with the SQL each PostGIS layer sent and a button that runs
// EXPLAIN ANALYZE on it, and the lint findings about the layers that took
// the most time -- what to change next.

#include "lint/lint_finding.h"
#include "mapfile/map_def.h"
#include "trace/trace.h"

#include <QFutureWatcher>
#include <QWidget>

class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QTreeWidget;

namespace maptune {

class MapCanvas;

class ProfileView : public QWidget {
    Q_OBJECT
public:
    explicit ProfileView(QWidget* parent = nullptr);

    // Renders the canvas's view once as a server would (encoded too), off
    // the GUI thread, and shows that render's trace.
    void profile(MapCanvas* canvas);
    // Shows a trace of `map` (its lint findings follow in the background).
    void setTrace(const Trace& trace, MapDefPtr map);

    QCustomPlot* timeline() const { return m_plot; }
    QTreeWidget* layers() const { return m_layers; }
    QTreeWidget* findings() const { return m_findings; }
    QPlainTextEdit* plan() const { return m_plan; }
    // Bars drawn in the timeline, as "row: phase" (for tests and screen readers).
    QStringList bars() const { return m_bars; }
    // Runs EXPLAIN ANALYZE for a PostGIS layer of the profiled map (in the background).
    void explain(const QString& layer);

Q_SIGNALS:
    void profiled();          // a trace is shown
    void findingsShown();     // the lint findings of the profiled map are listed
    void explained();         // a plan (or its error) is in plan()

private:
    void drawTimeline(const Trace& trace);
    void fillLayers(const Trace& trace);
    void showFindings(const LintFindings& findings);

    QCustomPlot* m_plot;
    QTreeWidget* m_layers;
    QTreeWidget* m_findings;
    QPlainTextEdit* m_plan;
    QLabel* m_summary;
    MapDefPtr m_map;
    Trace m_trace;
    QStringList m_bars;
    QFutureWatcher<LintFindings> m_lint;
    QFutureWatcher<Trace> m_render;
    MapDefPtr m_rendering;     // the map m_render draws
    Rect m_viewBox;            // its view (map CRS): what EXPLAIN asks for
    QFutureWatcher<QString> m_explain;
};

}  // namespace maptune
