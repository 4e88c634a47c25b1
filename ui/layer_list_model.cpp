#include "layer_list_model.h"

#include <QMimeData>

#include "render/legend_icon.h"

#include <QBrush>
#include <QPainter>

namespace maptune {

QString layerTypeName(LayerType type)
{
    switch (type) {
    case LayerType::Point: return QStringLiteral("point");
    case LayerType::Line: return QStringLiteral("line");
    case LayerType::Polygon: return QStringLiteral("polygon");
    case LayerType::Raster: return QStringLiteral("raster");
    case LayerType::Circle: return QStringLiteral("circle");
    case LayerType::Annotation: return QStringLiteral("annotation");
    case LayerType::Query: return QStringLiteral("query");
    case LayerType::Chart: return QStringLiteral("chart");
    case LayerType::Unknown: break;
    }
    return QStringLiteral("?");
}

QString layerKindName(const LayerDef& layer)
{
    // Layers whose CONNECTIONTYPE makes them a kind of their own.
    switch (layer.connectionType) {
    case ConnectionType::KernelDensity: return QStringLiteral("heat map (kernel density)");
    case ConnectionType::Idw: return QStringLiteral("IDW surface");
    case ConnectionType::Contour: return QStringLiteral("contours");
    case ConnectionType::UVRaster: return QStringLiteral("u/v arrows");
    case ConnectionType::Union: return QStringLiteral("union");
    default: return layerTypeName(layer.type);
    }
}

namespace {

QString sourceOf(const LayerDef& layer)
{
    switch (layer.connectionType) {
    case ConnectionType::KernelDensity:
    case ConnectionType::Idw:
    case ConnectionType::Union: return QStringLiteral("layers: %1").arg(layer.connection);
    case ConnectionType::PostGIS: return QStringLiteral("PostGIS: %1").arg(layer.data);
    case ConnectionType::OGR:
        return layer.data.isEmpty() ? layer.connection : QStringLiteral("%1 (%2)").arg(layer.connection, layer.data);
    case ConnectionType::Inline: return QStringLiteral("inline features");
    default: break;
    }
    if (!layer.tileIndex.isEmpty()) return QStringLiteral("tile index %1").arg(layer.tileIndex);
    return layer.data;
}

QString classLabel(const ClassDef& cls, int index)
{
    if (!cls.name.isEmpty()) return cls.name;
    if (!cls.title.isEmpty()) return cls.title;
    if (cls.expression.isSet()) return cls.expression.text;
    return QObject::tr("class %1").arg(index + 1);
}

// Layer rows carry internal id 0; a class row carries its layer's row + 1.
constexpr quintptr kLayerId = 0;

}  // namespace

LayerListModel::LayerListModel(QObject* parent) : QAbstractItemModel(parent) {}

int LayerListModel::layerRowOf(const QModelIndex& index)
{
    if (!index.isValid()) return -1;
    return index.internalId() == kLayerId ? index.row() : int(index.internalId() - 1);
}

bool LayerListModel::isClassRow(const QModelIndex& index)
{
    return index.isValid() && index.internalId() != kLayerId;
}

QModelIndex LayerListModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) return row < m_rows.size() ? createIndex(row, column, kLayerId) : QModelIndex();
    if (isClassRow(parent) || parent.column() != 0 || parent.row() >= m_rows.size()) return {};
    if (row >= m_rows[parent.row()].classes.size()) return {};
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex LayerListModel::parent(const QModelIndex& child) const
{
    if (!isClassRow(child)) return {};
    return createIndex(int(child.internalId() - 1), 0, kLayerId);
}

void LayerListModel::setMap(MapDefPtr map)
{
    QHash<QString, bool> previous;
    for (const Row& r : std::as_const(m_rows)) previous.insert(r.name, r.visible);
    beginResetModel();
    m_map = std::move(map);
    m_rows.clear();
    if (m_map) {
        for (const LayerDef& layer : m_map->layers) {
            Row r;
            r.name = layer.name;
            r.type = layerKindName(layer);
            r.source = sourceOf(layer);
            r.minScale = layer.minScaleDenom;
            r.maxScale = layer.maxScaleDenom;
            r.isDefault = layer.status == LayerStatus::Default;
            r.visible = r.isDefault || previous.value(layer.name, layer.status == LayerStatus::On);
            for (int c = 0; c < layer.classes.size(); ++c) {
                QImage icon(kIconSize, QImage::Format_ARGB32_Premultiplied);
                icon.fill(Qt::transparent);
                QPainter painter(&icon);
                drawLegendIcon(painter, *m_map, layer, layer.classes[c], QRect(QPoint(0, 0), kIconSize));
                painter.end();
                r.classes.append({classLabel(layer.classes[c], c), icon});
            }
            m_rows.append(r);
        }
    }
    endResetModel();
}

void LayerListModel::setScaleDenominator(double scale)
{
    if (scale == m_scale) return;
    m_scale = scale;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::ForegroundRole, Qt::ToolTipRole});
}

void LayerListModel::setTrace(const Trace& trace)
{
    for (Row& r : m_rows) {
        r.lastMs.reset();
        r.error.clear();
    }
    for (const LayerTrace& lt : trace.layers) {
        for (Row& r : m_rows) {
            if (r.name != lt.layer) continue;
            if (!lt.skipped) r.lastMs = lt.totalMs;
            r.error = lt.error;
        }
    }
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                           {Qt::DisplayRole, Qt::ToolTipRole, Qt::ForegroundRole});
}

QStringList LayerListModel::visibleLayers() const
{
    QStringList names;
    for (const Row& r : m_rows)
        if (r.visible) names << r.name;
    return names;
}

QStringList LayerListModel::identifiableLayers() const
{
    QStringList names;
    for (int row = int(m_rows.size()) - 1; row >= 0; --row)
        if (m_rows[row].visible && isInScale(row)) names << m_rows[row].name;
    return names;
}

bool LayerListModel::isInScale(int row) const
{
    const Row& r = m_rows.at(row);
    // MapServer: drawn when minscale <= scale < maxscale (bounds unset when <= 0).
    if (m_scale <= 0) return true;
    if (r.maxScale > 0 && m_scale >= r.maxScale) return false;
    if (r.minScale > 0 && m_scale < r.minScale) return false;
    return true;
}

const LayerDef* LayerListModel::layerAt(int row) const
{
    return m_map && row >= 0 && row < m_map->layers.size() ? &m_map->layers[row] : nullptr;
}

int LayerListModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid()) return int(m_rows.size());
    if (isClassRow(parent) || parent.column() != 0) return 0;
    return int(m_rows.at(parent.row()).classes.size());
}

int LayerListModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant LayerListModel::classData(const QModelIndex& index, int role) const
{
    const Row& layer = m_rows.at(layerRowOf(index));
    const ClassRow& cls = layer.classes.at(index.row());
    if (index.column() != NameColumn) return {};
    switch (role) {
    case Qt::DisplayRole: return cls.label;
    case Qt::DecorationRole: return cls.icon;
    case Qt::ToolTipRole: return tr("class of %1").arg(layer.name);
    case Qt::ForegroundRole:
        if (!isInScale(layerRowOf(index))) return QBrush(Qt::gray);
        break;
    default: break;
    }
    return {};
}

QVariant LayerListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    if (isClassRow(index)) return classData(index, role);
    const Row& r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return r.name;
        case TypeColumn: return r.type;
        case SourceColumn: return r.source;
        case TimeColumn: return r.lastMs ? QStringLiteral("%1 ms").arg(*r.lastMs, 0, 'f', 1) : QString();
        }
        break;
    case Qt::CheckStateRole:
        if (index.column() == NameColumn) return r.visible ? Qt::Checked : Qt::Unchecked;
        break;
    case Qt::ForegroundRole:
        if (!r.error.isEmpty()) return QBrush(Qt::red);
        if (!isInScale(index.row())) return QBrush(Qt::gray);
        break;
    case Qt::ToolTipRole: {
        QStringList tips;
        if (r.isDefault) tips << tr("STATUS DEFAULT: always drawn");
        if (!isInScale(index.row()))
            tips << tr("not drawn at 1:%1 (scale range %2 – %3)")
                        .arg(qRound64(m_scale))
                        .arg(r.minScale > 0 ? QString::number(r.minScale) : tr("any"))
                        .arg(r.maxScale > 0 ? QString::number(r.maxScale) : tr("any"));
        if (!r.error.isEmpty()) tips << r.error;
        if (index.column() == SourceColumn) tips << r.source;
        return tips.isEmpty() ? QVariant() : tips.join(QLatin1Char('\n'));
    }
    default: break;
    }
    return {};
}

bool LayerListModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::CheckStateRole
        || index.column() != NameColumn || isClassRow(index))
        return false;
    Row& r = m_rows[index.row()];
    if (r.isDefault) return false;
    const bool visible = static_cast<Qt::CheckState>(value.toInt()) == Qt::Checked;
    if (visible == r.visible) return true;
    r.visible = visible;
    Q_EMIT dataChanged(index, index, {Qt::CheckStateRole});
    Q_EMIT visibilityChanged(visibleLayers());
    return true;
}

Qt::ItemFlags LayerListModel::flags(const QModelIndex& index) const
{
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (isClassRow(index)) return f;
    if (index.column() == NameColumn && !m_rows.at(index.row()).isDefault) f |= Qt::ItemIsUserCheckable;
    return f | Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
}

namespace {
constexpr char kLayerMime[] = "application/x-maptune-layer";
}

QStringList LayerListModel::mimeTypes() const { return {QString::fromLatin1(kLayerMime)}; }

QMimeData* LayerListModel::mimeData(const QModelIndexList& indexes) const
{
    for (const QModelIndex& i : indexes) {
        if (!i.isValid() || isClassRow(i)) continue;
        auto* data = new QMimeData;
        data->setData(QString::fromLatin1(kLayerMime), m_rows.at(i.row()).name.toUtf8());
        return data;
    }
    return nullptr;
}

bool LayerListModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int, const QModelIndex& parent) const
{
    return data && data->hasFormat(QString::fromLatin1(kLayerMime)) && action == Qt::MoveAction && !isClassRow(parent);
}

bool LayerListModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                                  const QModelIndex& parent)
{
    if (!canDropMimeData(data, action, row, column, parent)) return false;
    const QString layer = QString::fromUtf8(data->data(QString::fromLatin1(kLayerMime)));
    // Dropped on a layer: before it. Between rows: before the row below (none: at the end).
    const int target = parent.isValid() ? parent.row() : row;
    const QString before = target >= 0 && target < m_rows.size() ? m_rows.at(target).name : QString();
    if (before == layer) return false;
    Q_EMIT layerMoveRequested(layer, before);
    return false;  // the view removes nothing: the model follows the reloaded map
}

QVariant LayerListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn: return tr("Layer");
    case TypeColumn: return tr("Type");
    case SourceColumn: return tr("Source");
    case TimeColumn: return tr("Last render");
    }
    return {};
}

}  // namespace maptune
