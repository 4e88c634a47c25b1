#include "layer_edit_actions.h"

#include "map_document.h"

#include "mapfile/syntax/mapfile_edits.h"

#include <QActionGroup>
#include <QMenu>

namespace maptune {

LayerEditActions::LayerEditActions(MapDocument* document, QWidget* parent)
    : QObject(parent), m_document(document), m_parent(parent)
{
}

bool LayerEditActions::apply(const std::optional<TextEdit>& edit, const QString& what)
{
    if (m_document->applyEdit(edit)) return true;
    Q_EMIT message(tr("%1: not in this file's text (a layer read through INCLUDE, or a block without END)").arg(what));
    return false;
}

bool LayerEditActions::sameClasses(const LayerDef* layer, int classIndex)
{
    const QString layerName = layer ? layer->name : QString();
    const QByteArray text = m_document->text().toUtf8();
    bool same = layer && classCount(text, layerName) == layer->classes.size();
    if (same && classIndex >= 0)
        same = classIndex < layer->classes.size() &&
               styleCount(text, layerName, classIndex) == layer->classes[classIndex].styles.size();
    if (!same)
        Q_EMIT message(tr("'%1': its classes or styles are not all CLASS/STYLE blocks of this text (an INCLUDE, "
                          "class-level style keywords): edit them in the text").arg(layerName));
    return same;
}

bool LayerEditActions::setStatus(const QString& layer, const QString& status)
{
    return apply(maptune::setLayerStatus(m_document->text().toUtf8(), layer, status), tr("STATUS of '%1'").arg(layer));
}

bool LayerEditActions::moveLayer(const MapDef& map, const QString& layer, int by)
{
    int index = -1;
    for (int i = 0; i < map.layers.size(); ++i)
        if (map.layers[i].name == layer) index = i;
    const int target = index + (by < 0 ? -1 : 2);  // the layer to go before
    if (index < 0 || target < 0 || target > map.layers.size()) return false;
    return moveLayerBefore(layer, target == map.layers.size() ? QString() : map.layers[target].name);
}

bool LayerEditActions::moveLayerBefore(const QString& layer, const QString& before)
{
    return apply(maptune::moveLayer(m_document->text().toUtf8(), layer, before), tr("moving '%1'").arg(layer));
}

bool LayerEditActions::addClass(const QString& layer)
{
    return apply(maptune::addClass(m_document->text().toUtf8(), layer), tr("a class in '%1'").arg(layer));
}

bool LayerEditActions::duplicateClass(const QString& layer, int classIndex)
{
    if (!sameClasses(layerNamed(layer), classIndex)) return false;

    return apply(maptune::duplicateClass(m_document->text().toUtf8(), layer, classIndex), tr("class of '%1'").arg(layer));
}

bool LayerEditActions::removeClass(const QString& layer, int classIndex)
{
    if (!sameClasses(layerNamed(layer), classIndex)) return false;

    return apply(maptune::removeClass(m_document->text().toUtf8(), layer, classIndex), tr("class of '%1'").arg(layer));
}

bool LayerEditActions::duplicateStyle(const QString& layer, int classIndex, int styleIndex)
{
    if (!sameClasses(layerNamed(layer), classIndex)) return false;

    return apply(maptune::duplicateStyle(m_document->text().toUtf8(), layer, classIndex, styleIndex),
                 tr("style of '%1'").arg(layer));
}

bool LayerEditActions::removeStyle(const QString& layer, int classIndex, int styleIndex)
{
    if (!sameClasses(layerNamed(layer), classIndex)) return false;

    return apply(maptune::removeStyle(m_document->text().toUtf8(), layer, classIndex, styleIndex),
                 tr("style of '%1'").arg(layer));
}

bool LayerEditActions::editStyle(const MapDef& map, const QString& layerName, int classIndex)
{
    const LayerDef* layer = map.layer(layerName);
    if (!layer || classIndex < 0 || classIndex >= layer->classes.size() || layer->classes[classIndex].styles.isEmpty()) {
        Q_EMIT message(tr("this class has no STYLE to edit"));
        return false;
    }
    if (!sameClasses(layer, classIndex)) return false;
    QStringList symbols;
    for (const SymbolDef& s : map.symbols)
        if (!s.name.isEmpty()) symbols << s.name;
    StyleForm form(layer->classes[classIndex].styles.first(), symbols, m_parent);
    if (m_picker) form.setColourPicker(m_picker);
    const bool accepted = m_driver ? m_driver(form) : form.exec() == QDialog::Accepted;
    if (!accepted) return false;
    bool first = true;
    for (const auto& [keyword, value] : form.changes()) {
        const auto edit = setStyleValue(m_document->text().toUtf8(), layerName, classIndex, 0, keyword, value);
        if (!m_document->applyEdit(edit, !first)) return false;
        first = false;
    }
    return !first;
}

void LayerEditActions::addTo(QMenu* menu, const MapDefPtr& map, const QString& layer, int classIndex)
{
    const LayerDef* def = map ? map->layer(layer) : nullptr;
    if (!def) return;
    m_map = map;
    if (classIndex >= 0) {
        menu->addAction(tr("Edit &Style…"), this, [this, map, layer, classIndex] { editStyle(*map, layer, classIndex); });
        menu->addAction(tr("D&uplicate Class"), this, [this, layer, classIndex] { duplicateClass(layer, classIndex); });
        menu->addAction(tr("&Remove Class"), this, [this, layer, classIndex] { removeClass(layer, classIndex); });
        // The class's styles, each by its place (drawn one over the other in that order).
        const QList<StyleDef>& styles = def->classes.value(classIndex).styles;
        for (int s = 0; s < styles.size(); ++s) {
            QMenu* sub = menu->addMenu(tr("Style %1").arg(s + 1));
            sub->addAction(tr("Duplicate Style"), this, [this, layer, classIndex, s] { duplicateStyle(layer, classIndex, s); });
            sub->addAction(tr("Remove Style"), this, [this, layer, classIndex, s] { removeStyle(layer, classIndex, s); });
        }
        return;
    }
    QMenu* status = menu->addMenu(tr("S&TATUS"));
    auto* group = new QActionGroup(status);
    const LayerStatus current = def->status;
    for (const auto& [word, value] : {std::pair{"ON", LayerStatus::On}, std::pair{"OFF", LayerStatus::Off},
                                      std::pair{"DEFAULT", LayerStatus::Default}}) {
        QAction* a = status->addAction(QLatin1String(word));
        a->setCheckable(true);
        a->setChecked(value == current);
        group->addAction(a);
        const QString w = QLatin1String(word);
        connect(a, &QAction::triggered, this, [this, layer, w] { setStatus(layer, w); });
    }
    menu->addAction(tr("Move &Up"), this, [this, map, layer] { moveLayer(*map, layer, -1); });
    menu->addAction(tr("Move Do&wn"), this, [this, map, layer] { moveLayer(*map, layer, +1); });
    menu->addAction(tr("Add &Class"), this, [this, layer] { addClass(layer); });
}

}  // namespace maptune
