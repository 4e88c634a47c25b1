#include "style_form.h"

#include "mapfile/map_lexer.h"

#include <QColorDialog>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSpinBox>

namespace maptune {

namespace {

QString number(double v) { return QString::number(v, 'g', 10); }

QDoubleSpinBox* numberBox(const NumberOrAttr& value, double max)
{
    auto* box = new QDoubleSpinBox;
    box->setRange(0, max);
    box->setDecimals(2);
    box->setValue(value.isBound() ? 0 : std::max(0.0, value.value));
    // A bound value ([attr]) reads as its attribute until the user types a number.
    if (value.isBound()) box->setSpecialValueText(QLatin1Char('[') + value.attribute + QLatin1Char(']'));
    return box;
}

}  // namespace

StyleForm::StyleForm(const StyleDef& style, const QStringList& symbols, QWidget* parent)
    : QDialog(parent), m_style(style), m_colourButton(new QPushButton), m_width(numberBox(style.width, 1000)),
      m_size(numberBox(style.size, 1000)), m_symbol(new QComboBox), m_opacity(new QSpinBox)
{
    setWindowTitle(tr("Edit Style"));
    const Color c = style.color.color;
    m_colour = c.isSet() ? QColor(c.r, c.g, c.b, c.a) : QColor();
    showColour();
    connect(m_colourButton, &QPushButton::clicked, this, &StyleForm::pickColour);
    m_symbol->setEditable(true);
    m_symbol->addItem(QString());
    m_symbol->addItems(symbols);
    m_symbol->setCurrentText(style.symbolAttr.isEmpty() ? style.symbolName : QLatin1Char('[') + style.symbolAttr + QLatin1Char(']'));
    m_shownWidth = m_width->value();
    m_shownSize = m_size->value();
    m_opacity->setRange(0, 100);
    m_opacity->setSuffix(QStringLiteral(" %"));
    m_opacity->setValue(style.opacity.isBound() ? 100 : int(style.opacity.value));

    auto* form = new QFormLayout(this);
    form->addRow(tr("&Colour"), m_colourButton);
    form->addRow(tr("&Width"), m_width);
    form->addRow(tr("&Size"), m_size);
    form->addRow(tr("S&ymbol"), m_symbol);
    form->addRow(tr("&Opacity"), m_opacity);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void StyleForm::showColour()
{
    m_colourButton->setText(m_colour.isValid() ? QStringLiteral("%1 %2 %3").arg(m_colour.red()).arg(m_colour.green()).arg(m_colour.blue())
                                               : tr("(none)"));
    QPixmap swatch(16, 16);
    swatch.fill(m_colour.isValid() ? m_colour : Qt::transparent);
    m_colourButton->setIcon(QIcon(swatch));
}

void StyleForm::pickColour()
{
    const QColor chosen = m_picker ? m_picker(m_colour, this)
                                   : QColorDialog::getColor(m_colour.isValid() ? m_colour : Qt::gray, this, tr("Style colour"));
    if (!chosen.isValid()) return;
    m_colour = chosen;
    m_colourChanged = true;
    showColour();
}

QList<std::pair<QString, QString>> StyleForm::changes() const
{
    QList<std::pair<QString, QString>> out;
    if (m_colourChanged)
        out.append({QStringLiteral("COLOR"),
                    QStringLiteral("%1 %2 %3").arg(m_colour.red()).arg(m_colour.green()).arg(m_colour.blue())});
    // Against what the box first showed: a value it rounded is not a change.
    if (m_width->value() != m_shownWidth) out.append({QStringLiteral("WIDTH"), number(m_width->value())});
    if (m_size->value() != m_shownSize) out.append({QStringLiteral("SIZE"), number(m_size->value())});
    const QString symbol = m_symbol->currentText().trimmed();
    const QString wasSymbol = m_style.symbolAttr.isEmpty() ? m_style.symbolName : QLatin1Char('[') + m_style.symbolAttr + QLatin1Char(']');
    if (symbol != wasSymbol && !symbol.isEmpty())
        out.append({QStringLiteral("SYMBOL"), symbol.startsWith(QLatin1Char('[')) ? symbol : quoteMapString(symbol)});
    if (!m_style.opacity.isBound() && m_opacity->value() != int(m_style.opacity.value))
        out.append({QStringLiteral("OPACITY"), QString::number(m_opacity->value())});
    return out;
}

}  // namespace maptune
