#pragma once
// The map's layers as a tree: per layer a visibility check box, type, source
// and the last render time, and under it its classes with their legend keys
// (drawn by the engine's legend code, as GetLegendGraphic draws them).
// Layers outside their scale range at the current scale are greyed; STATUS
// DEFAULT layers are always drawn (MapServer semantics). A layer row can be
// dragged onto another: the model asks for the move (layerMoveRequested)
// and the mapfile's text is what changes.

#include "mapfile/map_def.h"
#include "trace/trace.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QImage>
#include <QStringList>

namespace maptune {

class LayerListModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, TypeColumn, TimeColumn, SourceColumn, ColumnCount };

    explicit LayerListModel(QObject* parent = nullptr);

    // Keeps the user's visibility choices for layers whose names survive.
    void setMap(MapDefPtr map);
    void setScaleDenominator(double scale);
    void setTrace(const Trace& trace);

    // Names to pass as RenderRequest::layers (with layersGiven).
    QStringList visibleLayers() const;
    bool isInScale(int row) const;
    // Visible and in scale, top-most (last drawn) first: what identify queries.
    QStringList identifiableLayers() const;
    const LayerDef* layerAt(int row) const;
    // The layer row of a layer's or a class's index; -1 for none.
    static int layerRowOf(const QModelIndex& index);
    // Whether the index is a class under a layer (its row: the class's index in the layer).
    static bool isClassRow(const QModelIndex& index);
    static constexpr QSize kIconSize{20, 12};

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column, const QModelIndex& parent) override;

Q_SIGNALS:
    void visibilityChanged(const QStringList& visibleLayers);
    // A layer dropped before `before` (empty: after the last layer).
    void layerMoveRequested(const QString& layer, const QString& before);

private:
    struct ClassRow {
        QString label;
        QImage icon;
    };
    QVariant classData(const QModelIndex& index, int role) const;
    struct Row {
        QList<ClassRow> classes;
        QString name;
        QString type;
        QString source;
        double minScale = -1, maxScale = -1;
        bool isDefault = false;
        bool visible = false;
        std::optional<double> lastMs;
        QString error;
    };
    QList<Row> m_rows;
    MapDefPtr m_map;
    double m_scale = 0;
};

QString layerTypeName(LayerType type);
// The type as the layer list shows it: KERNELDENSITY, IDW, CONTOUR, UVRASTER
// and UNION layers by what they draw.
QString layerKindName(const LayerDef& layer);

}  // namespace maptune
