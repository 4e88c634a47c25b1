#pragma once
// The small property form for one STYLE of the layer list (Edit Style…):
// colour, width, size, symbol and opacity. Attribute-bound values ([attr])
// are shown and left alone unless changed. changes() lists only what the
// user changed, as mapfile text, for one structured edit each.

#include "mapfile/style_def.h"

#include <QColor>
#include <QDialog>

#include <functional>
#include <utility>

class QComboBox;
class QDoubleSpinBox;
class QPushButton;
class QSpinBox;

namespace maptune {

class StyleForm : public QDialog {
    Q_OBJECT
public:
    using ColourPicker = std::function<QColor(const QColor& initial, QWidget* parent)>;

    StyleForm(const StyleDef& style, const QStringList& symbols, QWidget* parent = nullptr);

    void setColourPicker(ColourPicker picker) { m_picker = std::move(picker); }
    // (keyword, value as written) for each changed field, in form order.
    QList<std::pair<QString, QString>> changes() const;

    QPushButton* colourButton() const { return m_colourButton; }
    QDoubleSpinBox* widthBox() const { return m_width; }
    QDoubleSpinBox* sizeBox() const { return m_size; }
    QComboBox* symbolBox() const { return m_symbol; }
    QSpinBox* opacityBox() const { return m_opacity; }

private:
    void pickColour();
    void showColour();

    StyleDef m_style;
    double m_shownWidth = 0, m_shownSize = 0;   // as the boxes first showed them (rounded)
    QColor m_colour;
    bool m_colourChanged = false;
    ColourPicker m_picker;
    QPushButton* m_colourButton;
    QDoubleSpinBox* m_width;
    QDoubleSpinBox* m_size;
    QComboBox* m_symbol;
    QSpinBox* m_opacity;
};

}  // namespace maptune
