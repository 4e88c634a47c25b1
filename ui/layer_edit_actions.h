#pragma once
// What the layer list's context menu can change in the mapfile's text:
// a layer's STATUS, its place among the layers, its classes and styles (the
// style through StyleForm). Each action is one structured edit of the
// document (mapfile/syntax/mapfile_edits.h): comments and formatting stay,
// and one Undo takes it back. Layers read through INCLUDE cannot be edited
// here; the status bar says so.

#include "mapfile/map_def.h"
#include "mapfile/syntax/mapfile_edits.h"
#include "style_form.h"

#include <QObject>

#include <functional>
#include <optional>

class QMenu;
class QWidget;

namespace maptune {

class MapDocument;

class LayerEditActions : public QObject {
    Q_OBJECT
public:
    LayerEditActions(MapDocument* document, QWidget* parent);

    // Adds the entries for a layer (classIndex < 0) or one of its classes.
    void addTo(QMenu* menu, const MapDefPtr& map, const QString& layer, int classIndex);

    bool setStatus(const QString& layer, const QString& status);
    bool moveLayer(const MapDef& map, const QString& layer, int by);   // -1 up (drawn earlier), +1 down
    bool moveLayerBefore(const QString& layer, const QString& before); // drag and drop
    bool addClass(const QString& layer);
    bool duplicateClass(const QString& layer, int classIndex);
    bool removeClass(const QString& layer, int classIndex);
    bool duplicateStyle(const QString& layer, int classIndex, int styleIndex);
    bool removeStyle(const QString& layer, int classIndex, int styleIndex);
    // The form for the class's first style; every changed field is one edit, all one undo step.
    bool editStyle(const MapDef& map, const QString& layer, int classIndex);
    void setColourPicker(StyleForm::ColourPicker picker) { m_picker = std::move(picker); }
    // Accept the form without showing it (tests): the form is passed to it before exec.
    void setFormDriver(std::function<bool(StyleForm&)> driver) { m_driver = std::move(driver); }
    // The map the class and style indexes refer to (the layer list's).
    void setMap(MapDefPtr map) { m_map = std::move(map); }

Q_SIGNALS:
    void message(const QString& text);

private:
    bool apply(const std::optional<TextEdit>& edit, const QString& what);
    // The text's CLASS (and STYLE) blocks are the model's, one for one; else a message.
    bool sameClasses(const LayerDef* layer, int classIndex);
    const LayerDef* layerNamed(const QString& name) const { return m_map ? m_map->layer(name) : nullptr; }

    MapDocument* m_document;
    QWidget* m_parent;
    StyleForm::ColourPicker m_picker;
    std::function<bool(StyleForm&)> m_driver;
    MapDefPtr m_map;
};

}  // namespace maptune
