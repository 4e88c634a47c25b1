#pragma once
// REQUIRES and LABELREQUIRES: a layer drawn, or labelled, only when an
// expression over the other layers' visibility holds (msEvalContext).

#include <QList>
#include <QString>

namespace maptune {

struct MapDef;

class LayerContext {
public:
    // selected: the layers the request turns on (STATUS, LAYERS), by index.
    LayerContext(const MapDef& map, const QList<int>& selected, double scaleDenom);

    // msLayerIsVisible: on, in its scale range, not a QUERY layer, and its
    // REQUIRES holds; in another layer's context it must also have something
    // to read.
    bool isVisible(int layer) const;
    // The selected layers that are visible, in their order.
    QList<int> visibleLayers() const;
    // Whether the layer's labels are drawn: LABELREQUIRES holds and the scale
    // is in LABELMINSCALEDENOM / LABELMAXSCALEDENOM.
    bool isAnnotated(int layer) const;

private:
    bool visible(int layer, int depth) const;
    // Each "[name]" of another layer becomes 1 or 0, then the whole is
    // evaluated as a logical expression; one that does not parse is false.
    bool holds(int layer, const QString& context, int depth) const;

    const MapDef& m_map;
    QList<int> m_selected;
    double m_scaleDenom;
};

}  // namespace maptune
