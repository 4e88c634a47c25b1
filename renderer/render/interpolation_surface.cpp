#include "render/interpolation_surface.h"

#include "mapfile/processing.h"
#include "raster/interpolation_grid.h"
#include "render/prepared_vector_layer.h"
#include "render/scale_range.h"

#include <gdal.h>

#include <cmath>

namespace maptune {

Result<const PreparedVectorLayer*> InterpolationSurface::source(const LayerDef& layer,
                                                                const std::vector<std::unique_ptr<PreparedLayer>>& layers,
                                                                double scaleDenom)
{
    const QString& named = layer.connection;
    if (named.isEmpty()) return Error(QStringLiteral("layer '%1': no CONNECTION names the layer to sample").arg(layer.name));
    const PreparedLayer* found = nullptr;
    for (const auto& l : layers)
        if (l->def().name == named) found = found ? found : l.get();
    if (!found) {
        bool inGroup = false;
        for (const auto& l : layers) {
            if (l->def().group != named) continue;
            inGroup = true;
            if (inDrawScaleRange(l->def().minScaleDenom, l->def().maxScaleDenom, scaleDenom)) {
                found = l.get();
                break;
            }
        }
        if (!inGroup) return Error(QStringLiteral("layer '%1': CONNECTION names no layer or group '%2'").arg(layer.name, named));
        if (!found) return Error(QStringLiteral("layer '%1': no layer of group '%2' is in scale").arg(layer.name, named));
    }
    const auto* vector = dynamic_cast<const PreparedVectorLayer*>(found);
    if (!vector || found == nullptr)
        return Error(QStringLiteral("layer '%1': CONNECTION names '%2', which is not a vector layer").arg(layer.name, named));
    return vector;
}

namespace {

// MapServer's MS_MAP2IMAGE_XCELL_IC: the cell from the first pixel's centre,
// truncated towards zero.
int cellOf(double offset, double cellSize)
{
    const double c = offset / cellSize;
    if (!(std::fabs(c) < 1e9)) return -1;
    return int(c);
}

}  // namespace

Result<OwnedDataset> InterpolationSurface::build(const LayerDef& layer, const PreparedVectorLayer& source, const MapView& view,
                                                 LayerTrace& trace, const CancelToken& cancel)
{
    const auto method = layer.connectionType == ConnectionType::Idw ? InterpolationParams::Method::Idw
                                                                    : InterpolationParams::Method::KernelDensity;
    const InterpolationParams params =
        InterpolationParams::fromProcessing(method, ProcessingOptions(layer.processing), view.width, view.height);
    trace.computePhase = method == InterpolationParams::Method::Idw ? QStringLiteral("idw") : QStringLiteral("density");
    const double csx = view.cellSizeX(), csy = view.cellSizeY();
    const int margin = params.margin();
    Rect box = view.extent;
    box.minx -= margin * csx;
    box.maxx += margin * csx;
    box.miny -= margin * csy;
    box.maxy += margin * csy;

    Stopwatch sampling;
    auto vertices = source.weightedVertices(view.crs, box, view.scaleDenom, cancel);
    trace.readMs += sampling.elapsedMs();
    if (!vertices) return Error(QStringLiteral("layer '%1': sampling %2").arg(layer.name, vertices.message()));

    Stopwatch computing;
    InterpolationGrid grid(view.width, view.height, params);
    // Cells count from the first pixel's centre, as MapServer's map extent does.
    const double originX = view.extent.minx + csx / 2 - margin * csx;
    const double originY = view.extent.maxy - csy / 2 + margin * csy;
    for (const auto& v : *vertices) grid.add(cellOf(v.x - originX, csx), cellOf(originY - v.y, csy), v.weight);
    trace.features += grid.sampleCount();
    const std::vector<uint8_t> values = grid.values();
    trace.computeMs += computing.elapsedMs();

    GDALDriverH mem = GDALGetDriverByName("MEM");
    if (!mem) return Error(QStringLiteral("layer '%1': GDAL's MEM driver is not available").arg(layer.name));
    OwnedDataset ds(GDALCreate(mem, "", view.width, view.height, 1, GDT_Byte, nullptr));
    if (!ds) return Error(QStringLiteral("layer '%1': cannot create the surface: %2").arg(layer.name, QString::fromUtf8(CPLGetLastErrorMsg())));
    double gt[6] = {view.extent.minx, csx, 0, view.extent.maxy, 0, -csy};
    GDALSetGeoTransform(ds.get(), gt);
    if (GDALRasterIO(GDALGetRasterBand(ds.get(), 1), GF_Write, 0, 0, view.width, view.height,
                     const_cast<uint8_t*>(values.data()), view.width, view.height, GDT_Byte, 0, 0) != CE_None)
        return Error(QStringLiteral("layer '%1': cannot write the surface: %2").arg(layer.name, QString::fromUtf8(CPLGetLastErrorMsg())));
    return ds;
}

}  // namespace maptune
