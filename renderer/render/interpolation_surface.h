#pragma once
// The raster a KERNELDENSITY or IDW layer draws (MapServer's
// msInterpolationDataset): the layer its CONNECTION names is sampled in the
// view (widened by the kernel's radius with COMPUTE_BORDERS), each vertex
// weighted by its class's style SIZE, and the surface computed on the view's
// own pixel grid becomes a one-band GDAL dataset for the raster pipeline.

#include "core/gdal_dataset.h"
#include "core/result.h"
#include "geo/map_view.h"
#include "mapfile/map_def.h"
#include "trace/cancel_token.h"
#include "trace/trace.h"

#include <memory>
#include <vector>

namespace maptune {

class PreparedLayer;
class PreparedVectorLayer;

class InterpolationSurface {
public:
    // The layer `layer`'s CONNECTION names, by name or else by GROUP (then
    // the first of the group in scale), among `layers`. Errors name `layer`.
    static Result<const PreparedVectorLayer*> source(const LayerDef& layer,
                                                     const std::vector<std::unique_ptr<PreparedLayer>>& layers,
                                                     double scaleDenom);

    // The surface for `view` from `source`'s features, in a MEM dataset on
    // the view's pixel grid. Adds its time to trace.readMs (sampling) and
    // trace.computeMs (the kernel).
    static Result<OwnedDataset> build(const LayerDef& layer, const PreparedVectorLayer& source, const MapView& view,
                                      LayerTrace& trace, const CancelToken& cancel);
};

}  // namespace maptune
