#include "geo/crs.h"

#include "geo/proj_context.h"

#include <QHash>
#include <QMutex>

#include <memory>

namespace maptune {

namespace {

struct PjDeleter {
    void operator()(PJ* p) const { proj_destroy(p); }
};
using PjPtr = std::unique_ptr<PJ, PjDeleter>;

// "init=epsg:4326" -> "EPSG:4326"; several "k=v" lines -> "+k=v ... +type=crs".
QByteArray definitionFromArgs(const QStringList& args)
{
    if (args.size() == 1) {
        QString a = args[0].trimmed();
        if (a.startsWith(QLatin1Char('+'))) a = a.mid(1);
        if (a.startsWith(QLatin1String("init="), Qt::CaseInsensitive)) {
            const QString code = a.mid(5);
            const qsizetype colon = code.indexOf(QLatin1Char(':'));
            // "init=epsg:4326" names an authority; "init=./data/epsg2:42304" names
            // an init file, which PROJ reads itself (path case must be kept).
            const QString authority = code.left(colon);
            if (colon > 0 && !authority.contains(QLatin1Char('/')) && !authority.contains(QLatin1Char('.')))
                return (authority.toUpper() + QLatin1Char(':') + code.mid(colon + 1)).toUtf8();
        }
        if (!a.contains(QLatin1Char('=')) || a.contains(QLatin1Char('['))) return args[0].trimmed().toUtf8();
    }
    QStringList parts;
    bool hasType = false;
    for (QString a : args) {
        for (QString p : a.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (p.startsWith(QLatin1Char('+'))) p = p.mid(1);
            if (p.startsWith(QLatin1String("type="))) hasType = true;
            parts << QLatin1Char('+') + p;
        }
    }
    if (!hasType) parts << QStringLiteral("+type=crs");
    return parts.join(QLatin1Char(' ')).toUtf8();
}

double unitToMeters(PJ_CONTEXT* ctx, PJ* crs, bool geographic)
{
    if (geographic) return 6378137.0 * M_PI / 180.0;  // metres per degree at the equator
    PjPtr cs(proj_crs_get_coordinate_system(ctx, crs));
    if (!cs) return 1.0;
    double factor = 1.0;
    if (proj_cs_get_axis_info(ctx, cs.get(), 0, nullptr, nullptr, nullptr, &factor, nullptr, nullptr, nullptr) && factor > 0)
        return factor;
    return 1.0;
}

bool isGeographicType(PJ_TYPE t)
{
    return t == PJ_TYPE_GEOGRAPHIC_2D_CRS || t == PJ_TYPE_GEOGRAPHIC_3D_CRS || t == PJ_TYPE_GEOGRAPHIC_CRS;
}

// Building a Crs costs a database lookup; the same few definitions repeat
// for every request, so results are shared process-wide.
struct CrsCache {
    QMutex mutex;
    QHash<QByteArray, std::optional<Crs>> byDefinition;
    QHash<QByteArray, QString> errors;
};
CrsCache& cache()
{
    static CrsCache c;
    return c;
}

}  // namespace

Result<Crs> Crs::fromProjection(const ProjectionDef& def)
{
    if (!def.isSet()) return Error(QStringLiteral("no projection given"));
    if (def.isAuto()) return Error(QStringLiteral("PROJECTION AUTO must be resolved from the data"));
    return fromUserInput(QString::fromUtf8(definitionFromArgs(def.args)));
}

Result<Crs> Crs::fromWkt(const QByteArray& wkt)
{
    return fromUserInput(QString::fromUtf8(wkt));
}

Result<Crs> Crs::fromUserInput(const QString& text)
{
    QByteArray def = text.trimmed().toUtf8();
    if (def.startsWith("init=") || def.startsWith("+init=")) def = definitionFromArgs({text});
    if (def.compare("CRS:84", Qt::CaseInsensitive) == 0) def = "OGC:CRS84";
    if (def.startsWith("epsg:")) def = "EPSG:" + def.mid(5);
    {
        CrsCache& c = cache();
        QMutexLocker lock(&c.mutex);
        auto it = c.byDefinition.constFind(def);
        if (it != c.byDefinition.constEnd()) {
            if (!*it) return Error(c.errors.value(def));
            return **it;
        }
    }
    PJ_CONTEXT* ctx = threadProjContext();
    std::optional<Crs> result;
    QString message;
    PjPtr pj(proj_create(ctx, def.constData()));
    if (!pj || !proj_is_crs(pj.get())) {
        message = QStringLiteral("unknown or invalid coordinate reference system '%1'").arg(text.trimmed());
    } else {
        PjPtr base(proj_get_type(pj.get()) == PJ_TYPE_BOUND_CRS ? proj_get_source_crs(ctx, pj.get()) : nullptr);
        PJ* crs = base ? base.get() : pj.get();
        PjPtr norm(proj_normalize_for_visualization(ctx, pj.get()));
        Crs c;
        c.m_definition = def;
        const char* wkt = proj_as_wkt(ctx, norm ? norm.get() : pj.get(), PJ_WKT2_2019, nullptr);
        c.m_wkt = wkt ? QByteArray(wkt) : def;
        c.m_geographic = isGeographicType(proj_get_type(crs));
        c.m_metersPerUnit = unitToMeters(ctx, crs, c.m_geographic);
        if (const char* auth = proj_get_id_auth_name(crs, 0)) {
            if (const char* code = proj_get_id_code(crs, 0))
                c.m_authId = QStringLiteral("%1:%2").arg(QLatin1String(auth), QLatin1String(code));
        }
        result = c;
    }
    CrsCache& c = cache();
    QMutexLocker lock(&c.mutex);
    c.byDefinition.insert(def, result);
    if (!result) {
        c.errors.insert(def, message);
        return Error(message);
    }
    return *result;
}

}  // namespace maptune
