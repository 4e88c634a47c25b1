#pragma once
// Shapefiles through MapTune's own reader (.shp/.shx/.dbf/.qix, as MapServer
// reads them) instead of an OGRFeature and geometry object per record: the
// read that dominated a full-map render of a large line layer. OGR still
// answers what the reader does not parse (CRS from .prj, extent, field names,
// the declared encoding) and reads files the reader does not take.

#include "data/feature_source.h"
#include "data/ogr_feature_source.h"

#include <memory>

namespace maptune {

struct ShapefileFiles;

class ShapefileFeatureSource : public FeatureSource {
public:
    // `ogr` is the same file opened through OGR. Returns `ogr` itself when the
    // reader does not handle the file (multipatch, unknown encoding, fields
    // OGR sees differently).
    static std::unique_ptr<FeatureSource> wrap(const QString& shpPath, std::unique_ptr<OgrFeatureSource> ogr);
    ~ShapefileFeatureSource() override;

    QStringList fields() const override { return m_ogr->fields(); }
    std::optional<Crs> nativeCrs() const override { return m_ogr->nativeCrs(); }
    std::optional<Rect> extent() const override { return m_ogr->extent(); }
    Result<std::unique_ptr<FeatureCursor>> query(const FeatureQuery& q) override;

private:
    ShapefileFeatureSource() = default;
    std::unique_ptr<OgrFeatureSource> m_ogr;
    std::shared_ptr<ShapefileFiles> m_files;
    QByteArray m_encoding;  // empty: UTF-8
};

}  // namespace maptune
