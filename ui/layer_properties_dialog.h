#pragma once
// Layer → Properties: what the mapfile says about one layer, as a read-only
// form (where its data comes from, its CRS, scale range, classes, PROCESSING),
// with passwords in a PostGIS CONNECTION left out.

#include "mapfile/map_def.h"

#include <QDialog>
#include <QList>
#include <QPair>

namespace maptune {

class LayerPropertiesDialog : public QDialog {
    Q_OBJECT
public:
    LayerPropertiesDialog(const MapDef& map, const LayerDef& layer, QWidget* parent = nullptr);

    // The form's rows, label and value, in order.
    static QList<QPair<QString, QString>> rows(const MapDef& map, const LayerDef& layer);
};

}  // namespace maptune
