#include "mapfile/map_validator.h"

#include "mapfile/inline_vrt.h"

#include "mapfile/map_paths.h"
#include "mapfile/processing.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>

#include <algorithm>

#include <proj.h>

namespace maptune {

namespace {

class ProjChecker {
public:
    ProjChecker() : m_ctx(proj_context_create())
    {
        // PROJ logs failures on stderr; we report them ourselves.
        proj_log_func(m_ctx, nullptr, [](void*, int, const char*) {});
    }
    ~ProjChecker() { proj_context_destroy(m_ctx); }
    ProjChecker(const ProjChecker&) = delete;
    ProjChecker& operator=(const ProjChecker&) = delete;

    // Empty when PROJ understands the definition, else PROJ's reason.
    QString check(const QString& definition)
    {
        if (auto it = m_cache.constFind(definition); it != m_cache.constEnd()) return *it;
        QString problem;
        PJ* pj = proj_create(m_ctx, definition.toUtf8().constData());
        if (!pj) {
            const int err = proj_context_errno(m_ctx);
            problem = QString::fromUtf8(proj_context_errno_string(m_ctx, err));
            if (problem.isEmpty()) problem = QStringLiteral("not understood by PROJ");
        }
        proj_destroy(pj);
        m_cache.insert(definition, problem);
        return problem;
    }

private:
    PJ_CONTEXT* m_ctx;
    QHash<QString, QString> m_cache;
};

void add(Diagnostics& out, Diagnostic::Severity severity, const SourcePos& pos, const QString& message)
{
    out.append({severity, pos, message});
}

void checkProjection(const ProjectionDef& p, const SourcePos& pos, const QString& what, const QString& baseDir,
                     ProjChecker& proj, Diagnostics& out)
{
    if (!p.isSet() || p.isAuto()) return;
    const QString definition = projString(p, baseDir);
    const QString problem = proj.check(definition);
    if (!problem.isEmpty())
        add(out, Diagnostic::Severity::Error, pos,
            QStringLiteral("unknown SRS in PROJECTION of %1: \"%2\" (%3)").arg(what, p.args.join(QLatin1Char(' ')), problem));
}

// A datasource string that is not a plain file path (PG:..., WFS:..., /vsicurl/, URLs).
bool looksLikeNonFile(const QString& source)
{
    static const QRegularExpression prefix(QStringLiteral("^[A-Za-z][A-Za-z0-9_]+:"));
    return source.contains(QLatin1String("://")) || source.startsWith(QLatin1String("/vsi")) ||
           prefix.match(source).hasMatch() || source.contains(QLatin1Char('%'));
}

void checkData(const MapDef& map, const LayerDef& layer, Diagnostics& out)
{
    if (layer.connectionType != ConnectionType::Local && layer.connectionType != ConnectionType::OGR
        && layer.connectionType != ConnectionType::Contour && layer.connectionType != ConnectionType::UVRaster
        && layer.connectionType != ConnectionType::FlatGeobuf)
        return;
    if (!layer.tileIndex.isEmpty()) return;
    // An inline VRT reads its SrcDataSources, relative ones from the mapfile's folder.
    if (layer.connectionType == ConnectionType::OGR && isInlineVrt(layer.connection)) {
        const QString absolute = withAbsoluteVrtSources(layer.connection, map.baseDir());
        for (const QString& source : inlineVrtSources(absolute))
            if (!looksLikeNonFile(source) && !QFileInfo::exists(source))
                add(out, Diagnostic::Severity::Error, layer.connectionPos.line > 0 ? layer.connectionPos : layer.pos,
                    QStringLiteral("a SrcDataSource of the inline VRT of LAYER '%1' not found: '%2'").arg(layer.name, source));
        return;
    }
    // OGR: the datasource is CONNECTION when given (DATA then names a layer in it).
    const bool fromConnection = layer.connectionType == ConnectionType::OGR && !layer.connection.isEmpty();
    const QString source = fromConnection ? layer.connection : layer.data;
    const SourcePos valuePos = fromConnection ? layer.connectionPos : layer.dataPos;
    if (source.isEmpty() || looksLikeNonFile(source)) return;
    const QStringList candidates = dataPathCandidates(map, source);
    const bool shapefile = layer.connectionType == ConnectionType::Local && layer.type != LayerType::Raster;
    for (const QString& c : std::as_const(candidates)) {
        if (QFileInfo::exists(c)) return;
        if (shapefile && QFileInfo::exists(c + QLatin1String(".shp"))) return;
    }
    // At the value the user has to correct (a model built in code has no value position).
    add(out, Diagnostic::Severity::Error, valuePos.line > 0 ? valuePos : layer.pos,
        QStringLiteral("%1 of LAYER '%2' not found: '%3' (looked in %4)")
            .arg(fromConnection ? QStringLiteral("CONNECTION") : QStringLiteral("DATA"), layer.name, source,
                 QDir::cleanPath(candidates.first())));
}

bool symbolIsKnown(const MapDef& map, const QString& name)
{
    if (map.symbol(name)) return true;
    // MapServer also takes an image file name as a symbol (it makes a pixmap symbol).
    const QString file = QFileInfo(name).isAbsolute() ? name : QDir(map.baseDir()).absoluteFilePath(name);
    return QFileInfo(file).isFile();
}

// KERNELDENSITY and IDW draw a surface from the vertices of the layer (or
// group) their CONNECTION names.
void checkInterpolation(const MapDef& map, const LayerDef& layer, Diagnostics& out)
{
    if (layer.connectionType != ConnectionType::KernelDensity && layer.connectionType != ConnectionType::Idw) return;
    const QString kind = layer.connectionType == ConnectionType::Idw ? QStringLiteral("IDW") : QStringLiteral("KERNELDENSITY");
    const SourcePos pos = layer.connectionPos.line > 0 ? layer.connectionPos : layer.pos;
    if (layer.type != LayerType::Raster)
        add(out, Diagnostic::Severity::Error, layer.pos,
            QStringLiteral("LAYER '%1': CONNECTIONTYPE %2 draws a raster surface: the layer needs TYPE RASTER").arg(layer.name, kind));
    if (layer.connection.isEmpty()) {
        add(out, Diagnostic::Severity::Error, layer.pos,
            QStringLiteral("LAYER '%1': CONNECTIONTYPE %2 needs a CONNECTION naming the layer to sample").arg(layer.name, kind));
        return;
    }
    const LayerDef* source = nullptr;
    for (const LayerDef& l : map.layers)
        if (!source && (l.name == layer.connection || l.group == layer.connection)) source = &l;
    if (!source) {
        add(out, Diagnostic::Severity::Error, pos,
            QStringLiteral("CONNECTION of LAYER '%1' names no layer or group '%2'").arg(layer.name, layer.connection));
        return;
    }
    if (source->type == LayerType::Raster)
        add(out, Diagnostic::Severity::Error, pos,
            QStringLiteral("LAYER '%1': %2 samples vector features, and '%3' is a RASTER layer").arg(layer.name, kind, source->name));
    else if (source->type != LayerType::Point)
        add(out, Diagnostic::Severity::Warning, pos,
            QStringLiteral("LAYER '%1': %2 weighs every vertex of the lines or polygons of '%3', not the features")
                .arg(layer.name, kind, source->name));
}

// UNION draws the layers its CONNECTION lists, which must share its TYPE.
void checkUnion(const MapDef& map, const LayerDef& layer, Diagnostics& out)
{
    if (layer.connectionType != ConnectionType::Union) return;
    const SourcePos pos = layer.connectionPos.line > 0 ? layer.connectionPos : layer.pos;
    const QStringList names = layer.connection.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (names.isEmpty())
        add(out, Diagnostic::Severity::Error, layer.pos,
            QStringLiteral("LAYER '%1': CONNECTIONTYPE UNION needs a CONNECTION listing its source layers").arg(layer.name));
    for (const QString& raw : names) {
        const QString name = raw.trimmed();
        const auto source = std::find_if(map.layers.begin(), map.layers.end(), [&name](const LayerDef& l) { return l.name == name; });
        if (source == map.layers.end() || &*source == &layer)
            add(out, Diagnostic::Severity::Error, pos, QStringLiteral("CONNECTION of LAYER '%1' names no layer '%2'").arg(layer.name, name));
        else if (source->type != layer.type)
            add(out, Diagnostic::Severity::Error, pos,
                QStringLiteral("LAYER '%1': source layer '%2' is of another TYPE than the union").arg(layer.name, name));
    }
}

void checkStyles(const MapDef& map, const QList<StyleDef>& styles, Diagnostics& out)
{
    for (const auto& s : styles) {
        if (!s.symbolName.isEmpty() && !symbolIsKnown(map, s.symbolName))
            add(out, Diagnostic::Severity::Error, s.pos,
                QStringLiteral("SYMBOL '%1' is not defined (add a SYMBOL block or check the SYMBOLSET)").arg(s.symbolName));
    }
}

// A FONT names FONTSET entries, as a list ("ar:arabic,default": a language
// tag before the colon). One the FONTSET lacks fails MapServer's render.
void checkLabel(const MapDef& map, const LayerDef& layer, const LabelDef& l, Diagnostics& out)
{
    if (!l.font.isEmpty() && !l.font.startsWith(QLatin1Char('['))) {
        for (QString name : l.font.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            name = name.section(QLatin1Char(':'), -1).trimmed();
            if (!map.fonts.value(name))
                add(out, Diagnostic::Severity::Warning, l.pos,
                    QStringLiteral("LABEL of LAYER '%1': FONT '%2' is not in the FONTSET%3; %4")
                        .arg(layer.name, name, map.fontSet.isEmpty() ? QStringLiteral(" (the map has no FONTSET)") : QString(),
                             l.type == LabelType::TrueType ? QStringLiteral("the map fails to draw once a feature carries this label, as in MapServer")
                                                           : QStringLiteral("the label is drawn in the built-in font")));
        }
    }
    if (l.wrap.size() > 1)
        add(out, Diagnostic::Severity::Warning, l.pos,
            QStringLiteral("LABEL of LAYER '%1': WRAP '%2' is more than one character; only '%3' breaks lines")
                .arg(layer.name, l.wrap, l.wrap.left(1)));
    for (const StyleDef& s : l.styles) {
        const QString t = s.geomTransform.toLower();
        if (!t.isEmpty() && t != QLatin1String("labelpoly") && t != QLatin1String("labelpnt") && !t.startsWith(QLatin1Char('(')))
            add(out, Diagnostic::Severity::Warning, s.pos,
                QStringLiteral("LABEL STYLE of LAYER '%1': GEOMTRANSFORM '%2' is not one a label style takes (labelpoly, labelpnt)")
                    .arg(layer.name, s.geomTransform));
    }
}

void checkClasses(const MapDef& map, const LayerDef& layer, Diagnostics& out)
{
    const bool vector = layer.type == LayerType::Point || layer.type == LayerType::Line ||
                        layer.type == LayerType::Polygon;
    for (const auto& c : layer.classes) {
        if (vector && c.styles.isEmpty() && c.labels.isEmpty())
            add(out, Diagnostic::Severity::Warning, c.pos,
                QStringLiteral("CLASS%1 of LAYER '%2' has no STYLE and no LABEL: its features are not drawn")
                    .arg(c.name.isEmpty() ? QString() : QStringLiteral(" '%1'").arg(c.name), layer.name));
        checkStyles(map, c.styles, out);
        for (const auto& l : c.labels) {
            checkStyles(map, l.styles, out);
            checkLabel(map, layer, l, out);
        }
    }
}

}  // namespace

QString projString(const ProjectionDef& projection, const QString& baseDir)
{
    const QStringList& args = projection.args;
    if (args.isEmpty() || projection.isAuto()) return {};
    if (args.size() == 1 && !args[0].contains(QLatin1Char('='))) return args[0].trimmed();  // EPSG:n, WKT, URN
    static const QRegularExpression initEpsg(QStringLiteral("^\\+?init=epsg:(\\d+)$"),
                                             QRegularExpression::CaseInsensitiveOption);
    if (args.size() == 1) {
        const auto m = initEpsg.match(args[0].trimmed());
        if (m.hasMatch()) return QStringLiteral("EPSG:") + m.captured(1);
    }
    QStringList parts;
    for (const QString& line : args) {
        for (QString p : line.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (!p.startsWith(QLatin1Char('+'))) p.prepend(QLatin1Char('+'));
            // init=file:code with a relative file: PROJ looks in its own paths; MapServer in the map's dir too.
            if (p.startsWith(QLatin1String("+init=")) && !baseDir.isEmpty()) {
                const QString spec = p.mid(6);
                const int colon = spec.lastIndexOf(QLatin1Char(':'));
                const QString file = spec.left(colon);
                if (colon > 0 && file.compare(QLatin1String("epsg"), Qt::CaseInsensitive) != 0 &&
                    QFileInfo(file).isRelative() && QFileInfo::exists(QDir(baseDir).filePath(file)))
                    p = QStringLiteral("+init=") + QDir(baseDir).absoluteFilePath(file) + spec.mid(colon);
            }
            parts << p;
        }
    }
    if (!parts.contains(QLatin1String("+type=crs"))) parts << QStringLiteral("+type=crs");
    return parts.join(QLatin1Char(' '));
}

Diagnostics validateMap(const MapDef& map)
{
    Diagnostics out;
    ProjChecker proj;
    const QString baseDir = map.baseDir();
    if ((map.width != -1 || map.height != -1) &&
        (map.width <= 0 || map.height <= 0 || map.width > map.maxSize || map.height > map.maxSize))
        add(out, Diagnostic::Severity::Error, map.pos,
            QStringLiteral("SIZE %1 %2 is out of range (each must be 1..MAXSIZE %3)")
                .arg(map.width)
                .arg(map.height)
                .arg(map.maxSize));
    checkProjection(map.projection, map.pos, QStringLiteral("MAP"), baseDir, proj, out);

    QHash<QString, const LayerDef*> seen;
    for (const auto& layer : map.layers) {
        const QString what = layer.name.isEmpty() ? QStringLiteral("unnamed LAYER")
                                                  : QStringLiteral("LAYER '%1'").arg(layer.name);
        if (layer.name.isEmpty()) {
            add(out, Diagnostic::Severity::Warning, layer.pos,
                QStringLiteral("LAYER has no NAME: WMS clients and --layers cannot select it"));
        } else if (const LayerDef* first = seen.value(layer.name.toLower())) {
            add(out, Diagnostic::Severity::Warning, layer.pos,
                QStringLiteral("duplicate LAYER NAME '%1' (first defined at %2:%3)")
                    .arg(layer.name, first->pos.file)
                    .arg(first->pos.line));
        } else {
            seen.insert(layer.name.toLower(), &layer);
        }
        checkProjection(layer.projection, layer.pos, what, baseDir, proj, out);
        checkData(map, layer, out);
        checkInterpolation(map, layer, out);
        checkUnion(map, layer, out);
        for (const QString& w : ProcessingOptions(layer.processing).warnings())
            add(out, Diagnostic::Severity::Warning, layer.pos, QStringLiteral("%1: %2").arg(what, w));
        checkClasses(map, layer, out);
    }
    return out;
}

}  // namespace maptune
