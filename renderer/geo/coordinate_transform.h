#pragma once
// Point transformation between two Crs, in traditional GIS axis order.
// Objects are per thread (PROJ objects are not thread-safe): get one with
// CoordinateTransform::forThread(), which caches them per CRS pair.

#include "core/rect.h"
#include "core/result.h"
#include "geo/crs.h"

#include <proj.h>

#include <memory>

namespace maptune {

class CoordinateTransform {
public:
    // Never null on success; an error when the transformation cannot be
    // built. Identity pairs return a transform whose isIdentity() is true.
    static Result<std::shared_ptr<CoordinateTransform>> forThread(const Crs& from, const Crs& to);
    ~CoordinateTransform();

    bool isIdentity() const { return m_pj == nullptr; }
    // In-place; points that fail become HUGE_VAL (inf). Returns the number that failed.
    int transform(double* x, double* y, int count, int stride = 1) const;
    // Densified bounding box of a rectangle (21 points per edge).
    Rect transformBounds(const Rect& r) const;

private:
    CoordinateTransform() = default;
    PJ* m_pj = nullptr;
};

}  // namespace maptune
