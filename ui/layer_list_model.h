#pragma once
// The map's layers as a table: a visibility check box, type, source and the
// last render time. Layers outside their scale range at the current scale
// are greyed; STATUS DEFAULT layers are always drawn (MapServer semantics).

#include "mapfile/map_def.h"
#include "trace/trace.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QStringList>

namespace maptune {

class LayerListModel : public QAbstractTableModel {
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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

Q_SIGNALS:
    void visibilityChanged(const QStringList& visibleLayers);

private:
    struct Row {
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

}  // namespace maptune
