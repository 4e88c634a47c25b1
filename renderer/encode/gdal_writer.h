#pragma once
// Output through a GDAL driver, as msSaveImageGDAL writes it: a MEM dataset
// with the map's geotransform and projection, NULLVALUE as every band's
// no-data value, the FORMATOPTIONs as creation options ("mdi_[BAND_n_]
// domain_KEY=VALUE" ones as metadata items), CreateCopy into memory.

#include "core/result.h"
#include "encode/output_format.h"

#include <QByteArray>
#include <QImage>

#include <array>
#include <vector>

namespace maptune {

struct Georeference {
    std::array<double, 6> geoTransform{0, 1, 0, 0, 0, -1};
    QByteArray wkt;          // empty: none
    double resolution = 0;   // dpi, written as TIFF tags
};

// Kind::Gdal: the drawn image as RGB (or RGBA when the format keeps alpha).
Result<QByteArray> writeGdalImage(const QImage& image, const ImageFormat& format, const Georeference& geo);

// Kind::Raw: bandCount planes of width x height values, in the format's rawType.
Result<QByteArray> writeGdalRaw(int width, int height, const std::vector<std::vector<float>>& bands, const ImageFormat& format,
                                const Georeference& geo);

}  // namespace maptune
