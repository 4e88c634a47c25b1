#include "wms/ows_layer_info.h"

#include "wms/wms_context.h"

namespace maptune {

QString epsgCodes(const ProjectionDef& projection, const KeyValues* metadata, bool firstOnly)
{
    QString codes;
    if (metadata) codes = wmsMetadata(*metadata, QStringLiteral("srs")).value_or(QString()).trimmed();
    if (codes.isEmpty() && projection.isSet()) {
        QString first = projection.args.first().trimmed();
        if (first.startsWith(QLatin1Char('+'))) first.remove(0, 1);  // "+init=epsg:n" is "init=epsg:n"
        if (first.startsWith(QLatin1String("init=epsg:"), Qt::CaseInsensitive))
            codes = QStringLiteral("EPSG:") + first.mid(10);
        else if (first.startsWith(QLatin1String("EPSG:"), Qt::CaseInsensitive))
            codes = QStringLiteral("EPSG:") + first.mid(5);
    }
    if (firstOnly) codes = codes.section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty);
    return codes;
}

}  // namespace maptune
