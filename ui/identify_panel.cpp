#include "identify_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>

namespace maptune {

IdentifyPanel::IdentifyPanel(QWidget* parent)
    : QWidget(parent), m_tree(new QTreeWidget), m_status(new QLabel), m_tolerance(new QSpinBox)
{
    // 0 is "as the mapfile says": each layer's TOLERANCE, exactly what GetFeatureInfo uses.
    m_tolerance->setRange(0, 50);
    m_tolerance->setSuffix(tr(" px"));
    m_tolerance->setSpecialValueText(tr("layer TOLERANCE"));
    m_tolerance->setToolTip(tr("How far from a feature a click still finds it, in screen pixels.\n"
                               "\"layer TOLERANCE\": each layer's TOLERANCE and TOLERANCEUNITS, as in GetFeatureInfo."));
    m_tree->setHeaderLabels({tr("Feature / attribute"), tr("Value")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    m_status->setWordWrap(true);
    m_status->setText(tr("Turn on Identify (toolbar) and click the map."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_status);
    auto* toleranceRow = new QHBoxLayout;
    toleranceRow->addWidget(new QLabel(tr("Click tolerance")));
    toleranceRow->addWidget(m_tolerance);
    toleranceRow->addStretch(1);
    layout->addLayout(toleranceRow);
    layout->addWidget(m_tree, 1);
    connect(&m_watcher, &QFutureWatcher<QList<IdentifyLayerResult>>::finished, this, [this] {
        if (m_watcher.isCanceled() || m_cancel.isCancelled()) return;
        showResults(m_watcher.result());
    });
}

IdentifyPanel::~IdentifyPanel()
{
    m_cancel.cancel();
    m_watcher.waitForFinished();
}

void IdentifyPanel::identify(PreparedMapPtr map, const QStringList& layers, QPointF mapPoint, double unitsPerPixel,
                             double scaleDenom)
{
    m_cancel.cancel();  // the running query (if any) stops early and is ignored
    m_cancel = CancelToken();
    m_point = mapPoint;
    m_status->setText(tr("Identifying at %1, %2…").arg(mapPoint.x(), 0, 'f', 2).arg(mapPoint.y(), 0, 'f', 2));
    IdentifyQuery query(std::move(map), layers, mapPoint, unitsPerPixel, scaleDenom);
    query.setTolerancePixels(tolerancePixels());
    const CancelToken cancel = m_cancel;
    m_watcher.setFuture(QtConcurrent::run([query, cancel] { return query.run(cancel); }));
}

std::optional<double> IdentifyPanel::tolerancePixels() const
{
    if (m_tolerance->value() == 0) return std::nullopt;
    return double(m_tolerance->value());
}

void IdentifyPanel::setTolerancePixels(std::optional<double> pixels)
{
    m_tolerance->setValue(pixels ? int(std::lround(*pixels)) : 0);
}

QList<Geometry> IdentifyPanel::resultGeometries() const
{
    QList<Geometry> out;
    for (const IdentifyLayerResult& r : m_results)
        for (const Feature& f : r.features)
            if (!f.geometry.isEmpty()) out << f.geometry;
    return out;
}

void IdentifyPanel::clear()
{
    m_tree->clear();
    m_results.clear();
}

void IdentifyPanel::showResults(const QList<IdentifyLayerResult>& results)
{
    m_tree->clear();
    m_results = results;
    int count = 0;
    for (const IdentifyLayerResult& r : results) {
        auto* layerItem = new QTreeWidgetItem(m_tree, {r.layer, r.error.isEmpty() ? tr("%n feature(s)", "", r.features.size())
                                                                                : r.error});
        QFont bold = layerItem->font(0);
        bold.setBold(true);
        layerItem->setFont(0, bold);
        if (!r.error.isEmpty()) layerItem->setForeground(1, QColor(0xc0, 0x20, 0x20));
        for (const Feature& f : r.features) {
            ++count;
            auto* featureItem = new QTreeWidgetItem(layerItem, {tr("feature %1").arg(f.id), QString()});
            // The first attribute names the feature at a glance when collapsed.
            if (!f.values.isEmpty()) featureItem->setText(1, f.values.first());
            for (int i = 0; i < r.fields.size() && i < f.values.size(); ++i)
                new QTreeWidgetItem(featureItem, {r.fields[i], f.values[i]});
        }
    }
    m_tree->expandAll();
    m_status->setText(count ? tr("%n feature(s) at %1, %2", "", count).arg(m_point.x(), 0, 'f', 2).arg(m_point.y(), 0, 'f', 2)
                            : tr("Nothing at %1, %2").arg(m_point.x(), 0, 'f', 2).arg(m_point.y(), 0, 'f', 2));
    Q_EMIT finished(count);
}

}  // namespace maptune
