#include "mapfile/processing.h"

#include <QSet>

namespace maptune {

namespace {
// Keys MapServer 8 reads somewhere (rasters, vectors, PostGIS, OGR, labels).
// A key outside this list is almost certainly a typo such as "LUT1".
bool isKnownKey(const QString& upperKey)
{
    static const QSet<QString> known = {
        QStringLiteral("BANDS"), QStringLiteral("LUT"), QStringLiteral("SCALE"), QStringLiteral("NODATA"),
        QStringLiteral("RESAMPLE"), QStringLiteral("OVERSAMPLE_RATIO"), QStringLiteral("LOAD_FULL_RES_IMAGE"),
        QStringLiteral("LOAD_WHOLE_IMAGE"), QStringLiteral("ALLOWED_GDAL_DRIVERS"), QStringLiteral("CLOSE_CONNECTION"),
        QStringLiteral("GAMMA"), QStringLiteral("USE_MASK_BAND"), QStringLiteral("SCALE_BUCKETS"),
        QStringLiteral("CLASSIFY_SCALED"), QStringLiteral("DITHER"), QStringLiteral("COLOR_MATCH_THRESHOLD"),
        QStringLiteral("EXTENT_PRIORITY"), QStringLiteral("WORLDFILE"), QStringLiteral("RAW_FILE"),
        QStringLiteral("NATIVE_FILTER"), QStringLiteral("NATIVE_SQL"), QStringLiteral("LABEL_NO_CLIP"),
        QStringLiteral("POLYLINE_NO_CLIP"), QStringLiteral("ITEMS"), QStringLiteral("APPROXIMATION_SCALE"),
        QStringLiteral("GETSHAPE_STARTTIME"), QStringLiteral("RENDERMODE"), QStringLiteral("CHART_TYPE"),
        QStringLiteral("CHART_SIZE"), QStringLiteral("CHART_SIZE_RANGE"), QStringLiteral("UNION_STATUS_CHECK"),
        QStringLiteral("UNION_SRCLAYER_CLOSE_CONNECTION"), QStringLiteral("UNION_SRCLAYER_DEFAULT_STYLE"),
        QStringLiteral("CONTOUR_INTERVAL"), QStringLiteral("CONTOUR_LEVELS"), QStringLiteral("CONTOUR_ITEM"),
        QStringLiteral("KERNELDENSITY_RADIUS"), QStringLiteral("KERNELDENSITY_COMPUTE_BORDERS"),
        QStringLiteral("KERNELDENSITY_NORMALIZATION"), QStringLiteral("EXTRA"), QStringLiteral("FORCE_GEOMETRY"),
        QStringLiteral("USE_GEOS"), QStringLiteral("WRAP"), QStringLiteral("USE_FLAT_GEOMETRY"),
        QStringLiteral("OGR_SKIP_LAYER_WITHOUT_GEOM"), QStringLiteral("RANGE_COLORSPACE"),
        // Labels, UVRASTER, IDW, charts, clusters, output and per-driver keys.
        QStringLiteral("LABELS_ROTATE_WITH_MAP"), QStringLiteral("LABEL_POSITIONS"), QStringLiteral("UV_SPACING"),
        QStringLiteral("UV_SIZE_SCALE"), QStringLiteral("IDW_RADIUS"), QStringLiteral("IDW_POWER"),
        QStringLiteral("IDW_COMPUTE_BORDERS"), QStringLiteral("CHART_BAR_MAXVAL"), QStringLiteral("CHART_BAR_MINVAL"),
        QStringLiteral("CLUSTER_GET_ALL_SHAPES"), QStringLiteral("CLUSTER_KEEP_LOCATIONS"),
        QStringLiteral("CLUSTER_USE_MAP_UNITS"), QStringLiteral("RENDERER"), QStringLiteral("MSSQL_VERSION_MAJOR"),
        QStringLiteral("MSSQL_READ_WKB"),
    };
    if (known.contains(upperKey)) return true;
    // Per-band variants: LUT_1..LUT_4, SCALE_1..SCALE_n.
    for (const char* prefix : {"LUT_", "SCALE_"}) {
        const QLatin1String p(prefix);
        if (upperKey.startsWith(p)) {
            bool ok = false;
            const int n = upperKey.mid(p.size()).toInt(&ok);
            return ok && n >= 1;
        }
    }
    return false;
}
}  // namespace

ProcessingOptions::ProcessingOptions(const QStringList& directives)
{
    for (const QString& d : directives) {
        const qsizetype eq = d.indexOf(QLatin1Char('='));
        const qsizetype colon = d.indexOf(QLatin1Char(':'));
        qsizetype sep = eq;
        if (sep < 0 || (colon >= 0 && colon < sep)) sep = colon;
        if (sep < 0)
            m_entries.append({d.trimmed(), QString()});
        else
            m_entries.append({d.left(sep).trimmed(), d.mid(sep + 1)});
    }
}

std::optional<QString> ProcessingOptions::value(const QString& key) const
{
    for (const auto& e : m_entries)
        if (e.key.compare(key, Qt::CaseInsensitive) == 0) return e.value;
    return std::nullopt;
}

QStringList ProcessingOptions::warnings() const
{
    QStringList out;
    QSet<QString> seen;
    for (const auto& e : m_entries) {
        const QString upper = e.key.toUpper();
        if (seen.contains(upper))
            out << QStringLiteral("PROCESSING key '%1' is repeated: MapServer uses the first one, this one is ignored")
                       .arg(e.key);
        else if (!isKnownKey(upper))
            out << QStringLiteral("PROCESSING key '%1' is unknown and ignored by MapServer (typo?)").arg(e.key);
        seen.insert(upper);
    }
    return out;
}

}  // namespace maptune
