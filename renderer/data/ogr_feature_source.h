#pragma once
// Vector files through OGR: shapefiles (with their .qix index), GeoPackage,
// GeoJSON, FlatGeobuf, TopoJSON, or an OGR SQL statement. Datasets are opened
// once per thread and kept (GDAL handles are not thread-safe).

#include "core/result.h"
#include "data/feature_source.h"

#include <gdal.h>
#include <ogr_api.h>

namespace maptune {

class OgrFeatureSource : public FeatureSource {
public:
    // `path` is the datasource (file or folder), `layerSpec` a layer name, an
    // index, a SELECT statement or empty (first layer). `nativeFilter` is an
    // OGR attribute filter (PROCESSING NATIVE_FILTER).
    static Result<std::unique_ptr<OgrFeatureSource>> open(const QString& path, const QString& layerSpec,
                                                          const QString& nativeFilter);
    ~OgrFeatureSource() override;

    QStringList fields() const override { return m_fields; }
    std::optional<Crs> nativeCrs() const override;
    std::optional<Rect> extent() const override;
    Result<std::unique_ptr<FeatureCursor>> query(const FeatureQuery& q) override;
    // A layer metadata item, e.g. ("SOURCE_ENCODING", "SHAPEFILE").
    QString layerMetadata(const char* key, const char* domain) const;

private:
    OgrFeatureSource() = default;
    GDALDatasetH m_dataset = nullptr;   // owned by the per-thread cache
    OGRLayerH m_layer = nullptr;
    bool m_sqlLayer = false;            // released with GDALDatasetReleaseResultSet
    QStringList m_fields;
    QString m_nativeFilter;
};

}  // namespace maptune
