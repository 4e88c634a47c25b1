#include "benchmark_results_model.h"

#include <QBrush>
#include <QColor>

namespace maptune {

namespace {

QString ms(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'f', *v < 10 ? 2 : 1) : QStringLiteral("–");
}

}  // namespace

BenchmarkResultsModel::BenchmarkResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void BenchmarkResultsModel::reset(const QStringList& labels)
{
    beginResetModel();
    m_labels = labels;
    m_summary.clear();
    endResetModel();
}

void BenchmarkResultsModel::setRuns(const QList<LoadReport>& runs, const QList<int>& runConfig)
{
    QList<ExperimentConfig> configs;
    for (const QString& label : std::as_const(m_labels)) configs << ExperimentConfig{label, {}, {}, false};
    m_summary = Experiment::summarize(configs, runs, runConfig);
    if (!m_labels.isEmpty()) Q_EMIT dataChanged(index(0, 0), index(int(m_labels.size()) - 1, ColumnCount - 1));
}

int BenchmarkResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_labels.size());
}

int BenchmarkResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BenchmarkResultsModel::display(int row, int column) const
{
    if (column == LabelCol) return m_labels[row];
    if (row >= m_summary.size() || m_summary[row].runsReqPerMin.isEmpty()) return column == RunsCol ? QVariant(0) : QVariant();
    const ConfigSummary& s = m_summary[row];
    switch (column) {
    case RunsCol: return int(s.runsReqPerMin.size());
    case ReqPerMinCol: return QString::number(s.reqPerMin, 'f', 0);
    case RatioCol: return s.ratioToBaseline ? QStringLiteral("%1×").arg(*s.ratioToBaseline, 0, 'f', 2) : QStringLiteral("–");
    case P50Col: return ms(s.p50Ms);
    case P90Col: return ms(s.p90Ms);
    case P99Col: return ms(s.p99Ms);
    case BytesCol: return QString::number(qRound64(s.bytesMean));
    case ErrorsCol: return s.errors;
    default: return {};
    }
}

QVariant BenchmarkResultsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_labels.size()) return {};
    const int row = index.row(), column = index.column();
    switch (role) {
    case Qt::DisplayRole: return display(row, column);
    case Qt::TextAlignmentRole:
        return column == LabelCol ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == ErrorsCol && row < m_summary.size() && m_summary[row].errors > 0) return QBrush(QColor(0xc0, 0x20, 0x20));
        if (column == RatioCol && row > 0 && row < m_summary.size() && m_summary[row].ratioToBaseline) {
            // Faster than the baseline in green, slower in red; within 5% is noise on a shared machine.
            const double r = *m_summary[row].ratioToBaseline;
            if (r > 1.05) return QBrush(QColor(0x20, 0x80, 0x20));
            if (r < 0.95) return QBrush(QColor(0xc0, 0x20, 0x20));
        }
        return {};
    case Qt::ToolTipRole:
        if (column == ReqPerMinCol && row < m_summary.size()) {
            QStringList each;
            for (double v : m_summary[row].runsReqPerMin) each << QString::number(v, 'f', 0);
            return tr("median of the rounds: %1 req/min").arg(each.join(QStringLiteral(", ")));
        }
        return {};
    default: return {};
    }
}

QVariant BenchmarkResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {"Configuration", "Runs", "req/min", "Ratio", "p50 ms", "p90 ms", "p99 ms", "Bytes", "Errors"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace maptune
