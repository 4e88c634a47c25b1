#pragma once
// The documents a WMS GetFeatureInfo answers with (internal to the wms
// module): MapServer's text/plain (msDumpResult) and GML 2 msGMLOutput
// (msGMLWriteQuery), plus an HTML table and a GeoJSON FeatureCollection.
// Every attribute value, layer and item name is escaped for its format.

#include "data/feature_source.h"
#include "mapfile/map_def.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace maptune {

struct FeatureInfoLayer {
    const LayerDef* layer = nullptr;
    QStringList fields;
    QList<Feature> features;       // geometry in the request CRS
};

QByteArray featureInfoPlainText(const QList<FeatureInfoLayer>& results);
QByteArray featureInfoGml(const QList<FeatureInfoLayer>& results, const QString& srsName);
QByteArray featureInfoHtml(const QList<FeatureInfoLayer>& results);
QByteArray featureInfoGeoJson(const QList<FeatureInfoLayer>& results);

// `name` made a valid XML element name (GML uses layer and item names as
// element names): characters a Name cannot hold become '_'.
QString xmlElementName(const QString& name);

}  // namespace maptune
