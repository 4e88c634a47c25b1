#pragma once
// The Benchmark panel's results table: one row per configuration with the
// medians over its rounds (throughput in requests per minute, the field
// reports' unit; latency p50/p90/p99; bytes per image), errors over all
// rounds and the throughput ratio to the first configuration. Refilled after
// every run, so the table grows while the experiment goes on.

#include "loadtest/experiment.h"

#include <QAbstractTableModel>

namespace maptune {

class BenchmarkResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { LabelCol, RunsCol, ReqPerMinCol, RatioCol, P50Col, P90Col, P99Col, BytesCol, ErrorsCol, ColumnCount };

    explicit BenchmarkResultsModel(QObject* parent = nullptr);

    // labels: the configurations, baseline first; rows appear for all of them.
    void reset(const QStringList& labels);
    // The runs so far (in the order they ran) and each run's configuration.
    void setRuns(const QList<LoadReport>& runs, const QList<int>& runConfig);

    const QList<ConfigSummary>& summary() const { return m_summary; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(int row, int column) const;

    QStringList m_labels;
    QList<ConfigSummary> m_summary;
};

}  // namespace maptune
