#pragma once
// Shared plumbing of the GDAL jobs (raster conversions, overviews, vector
// copies): a GDAL progress callback that reports a sub-range of the job and
// stops GDAL when the CancelToken is set; temporary names next to a
// destination and the atomic rename that publishes them. Internal to loadtest.

#include "core/result.h"
#include "trace/cancel_token.h"

#include <QString>

#include <functional>
#include <optional>

namespace maptune::gdaljob {

struct Progress {
    CancelToken cancel;
    std::function<void(double, const QString&)> report;
    double offset = 0, scale = 1;   // this step's share of the whole job
    QString stage;
};

// A GDALProgressFunc; data is a Progress*. Returns FALSE (stop) once cancelled.
int gdalProgress(double complete, const char* message, void* data);

// The last GDAL error message of this thread, or fallback when there is none.
QString lastError(const QString& fallback);

// dir/.name.part-PID-N + suffix: hidden, unique, on the destination's file system.
QString temporaryPath(const QString& destination);
// Renames tmp over destination (atomic on one file system); an error instead.
Status publish(const QString& tmp, const QString& destination);
// Removes a file and its GDAL side files (.ovr, .aux.xml, -journal ...).
void removeWithSideFiles(const QString& path);

}  // namespace maptune::gdaljob
