#include "lint/lint_finding.h"
#include "lint/lint_rule.h"

namespace maptune {

namespace {

using S = LintSeverity;
using C = LintCategory;

QList<LintRule> buildRules()
{
    return {
        {QStringLiteral("MT001"), QStringLiteral("mapfile-problem"), S::Error, C::Correctness,
         QStringLiteral("The mapfile does not load cleanly"),
         QStringLiteral("What `maptune-cli check` reports: syntax errors, unknown keywords, values out of range, "
                        "missing files, unknown projections. MapServer refuses or misdraws such a map."),
         QStringLiteral("Correct the keyword or value at the position given; an unknown keyword's message "
                        "suggests the closest one.")},
        {QStringLiteral("MT101"), QStringLiteral("postgis-using-unique-srid"), S::Warning, C::Performance,
         QStringLiteral("PostGIS DATA without `using unique` and `using srid`"),
         QStringLiteral("Without them MapServer (and MapTune, for compatibility) asks the database for the "
                        "table's primary key and the geometry column's SRID before every draw: one more round "
                        "trip per layer and request."),
         QStringLiteral("End DATA with `using unique <key column> using srid=<srid>`, e.g. "
                        "\"geom from roads using unique gid using srid=4326\".")},
        {QStringLiteral("MT102"), QStringLiteral("connection-password"), S::Warning, C::Security,
         QStringLiteral("Database password written in the mapfile"),
         QStringLiteral("Mapfiles are copied, versioned and sometimes served by mistake; a password in "
                        "CONNECTION travels with them."),
         QStringLiteral("Use `service=<name>` with the password in ~/.pg_service.conf or a PGPASSFILE "
                        "(~/.pgpass) readable only by the server's user, and remove password= from CONNECTION.")},
        {QStringLiteral("MT103"), QStringLiteral("postgis-close-connection-defer"), S::Note, C::Compatibility,
         QStringLiteral("PostGIS layer without PROCESSING \"CLOSE_CONNECTION=DEFER\""),
         QStringLiteral("MapTune pools connections either way, but MapServer closes a layer's connection after "
                        "drawing it unless told to defer: the same mapfile under mapserv reconnects for every "
                        "layer of every request (the field report's 2x slowdown)."),
         QStringLiteral("Add PROCESSING \"CLOSE_CONNECTION=DEFER\" to the layer.")},
        {QStringLiteral("MT104"), QStringLiteral("debug-left-on"), S::Warning, C::Performance,
         QStringLiteral("DEBUG or MS_ERRORFILE left on"),
         QStringLiteral("Debug output is written for every request: it slows a production server, fills disks "
                        "and can reveal SQL and paths."),
         QStringLiteral("Remove DEBUG (or set DEBUG OFF) and the MS_ERRORFILE / MS_DEBUGLEVEL CONFIG entries "
                        "before deploying.")},
        {QStringLiteral("MT105"), QStringLiteral("shapefile-without-index"), S::Warning, C::Performance,
         QStringLiteral("Shapefile without a .qix spatial index"),
         QStringLiteral("Without an index every request reads every shape's bounds to find those in the "
                        "bounding box; with one it reads only the tree nodes that overlap."),
         QStringLiteral("Build the index next to the file: `shptree file.shp` (MapServer) or "
                        "`ogrinfo file.shp -sql \"CREATE SPATIAL INDEX ON file\"` (GDAL).")},
        {QStringLiteral("MT106"), QStringLiteral("raster-without-overviews"), S::Warning, C::Performance,
         QStringLiteral("Large raster without overviews"),
         QStringLiteral("Zoomed out, a request then reads the raster at full resolution to draw a few hundred "
                        "pixels: the cost grows with the area shown."),
         QStringLiteral("Build overviews (`gdaladdo -r average file.tif`, or the Raster advisor's action).")},
        {QStringLiteral("MT107"), QStringLiteral("raster-untiled"), S::Warning, C::Performance,
         QStringLiteral("Raster stored in strips, not tiles"),
         QStringLiteral("A small window of a striped file reads whole rows of the image; tiles read only the "
                        "blocks the window touches (the field report's fastest format was tiled GeoTIFF "
                        "with overviews)."),
         QStringLiteral("Convert to tiled GeoTIFF or COG (`gdal_translate -co TILED=YES ...`, or the Raster "
                        "advisor's action).")},
        {QStringLiteral("MT108"), QStringLiteral("scale-auto-served"), S::Warning, C::Correctness,
         QStringLiteral("PROCESSING SCALE=AUTO on a served layer"),
         QStringLiteral("SCALE=AUTO stretches each request by the values it happens to read: neighbouring tiles "
                        "or map views get different stretches and show seams."),
         QStringLiteral("Give the range once, e.g. PROCESSING \"SCALE=0,2000\" (per band: SCALE_1=...), from the "
                        "raster's statistics.")},
        {QStringLiteral("MT109"), QStringLiteral("labels-without-scale-limits"), S::Warning, C::Performance,
         QStringLiteral("Labels on a dense layer at every scale"),
         QStringLiteral("Zoomed out, every feature is a label candidate: placement cost grows with the number "
                        "of features while almost none of them fit."),
         QStringLiteral("Set LABELMAXSCALEDENOM on the layer (or MAXSCALEDENOM on its LABELs) to the scale "
                        "where labels start to be readable.")},
        {QStringLiteral("MT110"), QStringLiteral("wms-srs-missing"), S::Warning, C::Correctness,
         QStringLiteral("WMS map without wms_srs / ows_srs"),
         QStringLiteral("Capabilities then list only the map's own CRS, and clients asking for any other "
                        "(EPSG:3857 for web maps) get InvalidSRS."),
         QStringLiteral("Add \"wms_srs\" \"EPSG:4326 EPSG:3857 ...\" to WEB METADATA.")},
        {QStringLiteral("MT111"), QStringLiteral("wms-enable-request-missing"), S::Warning, C::Correctness,
         QStringLiteral("WMS map without wms_enable_request / ows_enable_request"),
         QStringLiteral("MapServer 8 answers no OWS request a mapfile does not enable: every WMS request gets "
                        "\"WMS request not enabled\"."),
         QStringLiteral("Add \"wms_enable_request\" \"*\" (or the requests to allow, e.g. \"GetMap "
                        "GetCapabilities\") to WEB METADATA.")},
        {QStringLiteral("MT112"), QStringLiteral("data-outside-roots"), S::Error, C::Security,
         QStringLiteral("A file outside the map's data roots"),
         QStringLiteral("A served map reads only files under its own directory, SHAPEPATH and the configured "
                        "roots; this layer would be refused at every request."),
         QStringLiteral("Move the data under SHAPEPATH, or allow its directory with CONFIG "
                        "\"MAPTUNE_ALLOWED_ROOTS\" / the MAPTUNE_ALLOWED_ROOTS environment variable.")},
        {QStringLiteral("MT113"), QStringLiteral("expression-never-matches"), S::Warning, C::Correctness,
         QStringLiteral("An EXPRESSION or FILTER that can never match"),
         QStringLiteral("It names an attribute the data does not have, or compares values of different types: "
                        "the class is never drawn and nothing says so."),
         QStringLiteral("Use an attribute the data has (case does not matter) and compare numbers with numbers, "
                        "text with quoted text.")},
        {QStringLiteral("MT114"), QStringLiteral("unused-symbol"), S::Note, C::Correctness,
         QStringLiteral("SYMBOL defined in the mapfile but never used"),
         QStringLiteral("Dead definitions make a mapfile harder to read and can hide a misspelt symbol name "
                        "in a STYLE."),
         QStringLiteral("Remove the SYMBOL block, or check the STYLE that was meant to use it.")},
        {QStringLiteral("MT115"), QStringLiteral("unused-outputformat"), S::Note, C::Correctness,
         QStringLiteral("OUTPUTFORMAT that no request can choose"),
         QStringLiteral("It is not the IMAGETYPE and the WMS format lists leave it out, so nothing uses it."),
         QStringLiteral("Remove it, or list it in wms_getmap_formatlist.")},
        {QStringLiteral("MT116"), QStringLiteral("removed-keyword"), S::Error, C::Compatibility,
         QStringLiteral("Keyword removed in MapServer 8"),
         QStringLiteral("MapServer 8 no longer reads it: the mapfile fails to load there, or the setting is "
                        "silently lost."),
         QStringLiteral("Use the replacement named in the message.")},
    };
}

}  // namespace

const QList<LintRule>& lintRules()
{
    static const QList<LintRule> rules = buildRules();
    return rules;
}

const LintRule* lintRule(const QString& id)
{
    for (const LintRule& r : lintRules())
        if (r.id == id) return &r;
    return nullptr;
}

QString severityName(LintSeverity severity)
{
    switch (severity) {
    case LintSeverity::Error: return QStringLiteral("error");
    case LintSeverity::Warning: return QStringLiteral("warning");
    case LintSeverity::Note: return QStringLiteral("note");
    }
    return {};
}

QString categoryName(LintCategory category)
{
    switch (category) {
    case LintCategory::Correctness: return QStringLiteral("correctness");
    case LintCategory::Performance: return QStringLiteral("performance");
    case LintCategory::Security: return QStringLiteral("security");
    case LintCategory::Compatibility: return QStringLiteral("compatibility");
    }
    return {};
}

QString LintFinding::toString() const
{
    return QStringLiteral("%1:%2:%3: %4: %5 [%6]")
        .arg(pos.file)
        .arg(pos.line)
        .arg(pos.column)
        .arg(severityName(severity), message, ruleId);
}

}  // namespace maptune
