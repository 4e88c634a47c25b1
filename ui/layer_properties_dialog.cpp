#include "layer_properties_dialog.h"

#include "layer_list_model.h"

#include "data/postgis/pg_conninfo.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace maptune {

namespace {

QString statusName(LayerStatus status)
{
    switch (status) {
    case LayerStatus::On: return QStringLiteral("ON");
    case LayerStatus::Off: return QStringLiteral("OFF");
    case LayerStatus::Default: return QStringLiteral("DEFAULT (always drawn)");
    }
    return {};
}

QString scaleRange(double minDenom, double maxDenom)
{
    if (minDenom <= 0 && maxDenom <= 0) return QObject::tr("every scale");
    const QString from = minDenom > 0 ? QStringLiteral("1:%L1").arg(qRound64(minDenom)) : QObject::tr("any");
    const QString to = maxDenom > 0 ? QStringLiteral("1:%L1").arg(qRound64(maxDenom)) : QObject::tr("any");
    return QObject::tr("from %1 to %2 (MINSCALEDENOM ≤ scale < MAXSCALEDENOM)").arg(from, to);
}

}  // namespace

QList<QPair<QString, QString>> LayerPropertiesDialog::rows(const MapDef& map, const LayerDef& layer)
{
    QList<QPair<QString, QString>> out;
    const auto add = [&](const QString& label, const QString& value) {
        if (!value.isEmpty()) out.append({label, value});
    };
    add(tr("Name"), layer.name);
    add(tr("Title"), layer.title);
    add(tr("Group"), layer.group);
    add(tr("Type"), layerKindName(layer));
    add(tr("Status"), statusName(layer.status));
    const bool postgis = layer.connectionType == ConnectionType::PostGIS;
    add(tr("Connection"), postgis ? redactPgConnInfo(layer.connection) : layer.connection);
    add(tr("Data"), layer.data);
    add(tr("Tile index"), layer.tileIndex);
    add(tr("Projection"), layer.projection.isSet() ? layer.projection.args.join(QLatin1Char(' ')) : tr("the map's"));
    add(tr("Drawn at"), scaleRange(layer.minScaleDenom, layer.maxScaleDenom));
    add(tr("Filter"), layer.filter.isSet() ? layer.filter.text : QString());
    add(tr("Class item"), layer.classItem);
    add(tr("Label item"), layer.labelItem);
    add(tr("Classes"), QString::number(layer.classes.size()));
    add(tr("Processing"), layer.processing.join(QLatin1Char('\n')));
    if (layer.pos.line > 0)
        add(tr("Defined in"), QStringLiteral("%1:%2")
                                  .arg(QFileInfo(layer.pos.file.isEmpty() ? map.path : layer.pos.file).fileName())
                                  .arg(layer.pos.line));
    return out;
}

LayerPropertiesDialog::LayerPropertiesDialog(const MapDef& map, const LayerDef& layer, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Layer %1").arg(layer.name));
    auto* form = new QFormLayout;
    for (const auto& [label, value] : rows(map, layer)) {
        auto* text = new QLabel(value);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        text->setWordWrap(true);
        form->addRow(label, text);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
}

}  // namespace maptune
