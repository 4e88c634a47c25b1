#include "wms/gml_items.h"

namespace maptune {

namespace {

bool listed(const QStringList& list, const QString& name)
{
    for (const QString& s : list)
        if (s.trimmed().compare(name, Qt::CaseInsensitive) == 0) return true;
    return false;
}

}  // namespace

QList<GmlItem> visibleGmlItems(const LayerDef& layer, const QStringList& fields)
{
    const auto meta = [&](const QString& key) { return layer.metadata.value(QStringLiteral("gml_") + key, QString()); };
    const QStringList include = meta(QStringLiteral("include_items")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    const QStringList exclude = meta(QStringLiteral("exclude_items")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    const bool all = include.size() == 1 && include.first().trimmed().compare(QLatin1String("all"), Qt::CaseInsensitive) == 0;
    QList<GmlItem> out;
    for (int i = 0; i < fields.size(); ++i) {
        const QString& name = fields[i];
        if (!(all || listed(include, name)) || listed(exclude, name)) continue;
        GmlItem item;
        item.field = i;
        item.name = name;
        item.alias = layer.metadata.value(QStringLiteral("gml_%1_alias").arg(name), name);
        item.type = meta(name + QStringLiteral("_type"));
        item.width = meta(name + QStringLiteral("_width")).toInt();
        item.precision = meta(name + QStringLiteral("_precision")).toInt();
        out << item;
    }
    return out;
}

}  // namespace maptune
