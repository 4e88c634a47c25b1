#pragma once
// Geometries for tests, written as flat coordinate lists, one per part.

#include "data/geometry.h"

#include <QList>

namespace maptune::testing {

inline Geometry geometry(Geometry::Type type, const QList<QList<double>>& parts)
{
    Geometry g;
    g.type = type;
    for (const QList<double>& part : parts) {
        g.partStart.push_back(g.pointCount());
        g.xy.insert(g.xy.end(), part.begin(), part.end());
    }
    return g;
}

}  // namespace maptune::testing
