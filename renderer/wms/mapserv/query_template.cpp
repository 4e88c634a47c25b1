#include "wms/mapserv/query_template.h"

#include "wms/service_exception.h"
#include "wms/mapserv/template_tags.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace maptune {

namespace {

// A template's precision= can be any number: MapServer prints into a fixed
// buffer, so more digits than a double holds are never shown; we cap them
// rather than let "precision=2000000000" allocate gigabytes.
constexpr int MaxPrecision = 30;

QString number(double v, int precision = -1)
{
    return precision < 0 ? QString::asprintf("%f", v) : QString::asprintf("%.*f", std::min(precision, MaxPrecision), v);
}

int precisionArg(const TemplateTag& tag, int fallback)
{
    return tag.has(QStringLiteral("precision")) ? tag.arg(QStringLiteral("precision")).toInt() : fallback;
}

// [mapext], [shpext] and their _esc forms.
QString extentText(Rect r, const TemplateTag& tag, const QString& defaultEscape)
{
    const QString expand = tag.arg(QStringLiteral("expand"));
    if (!expand.isEmpty()) {
        double dx = 0, dy = 0;
        if (expand.endsWith(QLatin1Char('%'))) {
            const double pct = expand.chopped(1).toDouble() / 100.0;
            dx = r.width() * pct / 2;
            dy = r.height() * pct / 2;
        } else {
            dx = dy = expand.toDouble();
        }
        r = {r.minx - dx, r.miny - dy, r.maxx + dx, r.maxy + dy};
    }
    const int precision = precisionArg(tag, -1);
    QString text = tag.arg(QStringLiteral("format"), QStringLiteral("$minx $miny $maxx $maxy"));
    text.replace(QLatin1String("$minx"), number(r.minx, precision));
    text.replace(QLatin1String("$miny"), number(r.miny, precision));
    text.replace(QLatin1String("$maxx"), number(r.maxx, precision));
    text.replace(QLatin1String("$maxy"), number(r.maxy, precision));
    return escapedAs(text, tag.arg(QStringLiteral("escape"), defaultEscape));
}

// [shpxy]: points "x,y" joined by spaces, parts by a space (processShpxyTag's defaults).
QString shapeCoordinates(const Geometry& g, const TemplateTag& tag)
{
    const int precision = precisionArg(tag, 0);
    const QString xh = tag.arg(QStringLiteral("xh")), xf = tag.arg(QStringLiteral("xf"), QStringLiteral(","));
    const QString yh = tag.arg(QStringLiteral("yh")), yf = tag.arg(QStringLiteral("yf"));
    const QString cs = tag.arg(QStringLiteral("cs"), QStringLiteral(" ")), ps = tag.arg(QStringLiteral("ps"), QStringLiteral(" "));
    const QString ph = tag.arg(QStringLiteral("ph")), pf = tag.arg(QStringLiteral("pf"));
    const double sx = tag.arg(QStringLiteral("scale_x"), tag.arg(QStringLiteral("scale"), QStringLiteral("1"))).toDouble();
    const double sy = tag.arg(QStringLiteral("scale_y"), tag.arg(QStringLiteral("scale"), QStringLiteral("1"))).toDouble();
    QString out = tag.arg(QStringLiteral("sh"));
    if (tag.arg(QStringLiteral("centroid")).compare(QLatin1String("true"), Qt::CaseInsensitive) == 0) {
        const Rect b = g.bounds();
        out += xh + number((b.minx + b.maxx) / 2 * sx, precision) + xf + yh + number((b.miny + b.maxy) / 2 * sy, precision) + yf;
        return out + tag.arg(QStringLiteral("sf"));
    }
    const int minPoints = g.type == Geometry::Type::Polygon ? 3 : g.type == Geometry::Type::Line ? 2 : 1;
    for (int part = 0; part < g.partCount(); ++part) {
        const int s = g.partStart[part], e = g.partEnd(part);
        if (e - s < minPoints) continue;
        out += ph;
        for (int i = s; i < e; ++i) {
            if (i > s) out += cs;
            out += xh + number(g.xy[2 * i] * sx, precision) + xf + yh + number(g.xy[2 * i + 1] * sy, precision) + yf;
        }
        out += pf;
        if (part < g.partCount() - 1) out += ps;
    }
    return out + tag.arg(QStringLiteral("sf"));
}

QString commified(const QString& value)
{
    if (value.count(QLatin1Char('.')) > 1) return value;
    qsizetype end = value.indexOf(QLatin1Char('.'));
    if (end < 0) end = value.size();
    qsizetype begin = 0;
    while (begin < end && !value[begin].isDigit()) ++begin;
    QString out = value;
    for (qsizetype i = end - 3; i > begin; i -= 3) out.insert(i, QLatin1Char(','));
    return out;
}

bool isTrue(const QString& v)
{
    return v.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
}

// [item name=... format= precision= pattern= uc= lc= commify= padding= nullformat= escape=]
Result<QString> itemText(const TemplateTag& tag, const QStringList& fields, const QStringList& values)
{
    const QString name = tag.arg(QStringLiteral("name"));
    if (name.isEmpty()) return Error(QStringLiteral("processItemTag(): Web application error. Item tag contains no name attribute."));
    qsizetype index = -1;
    for (qsizetype i = 0; i < fields.size(); ++i)
        if (fields[i].compare(name, Qt::CaseInsensitive) == 0) index = i;
    if (index < 0)
        return Error(QStringLiteral("processItemTag(): Web application error. Item name (%1) not found in layer item list.").arg(name));
    const QString escape = tag.arg(QStringLiteral("escape"), QStringLiteral("html"));
    QString value = index < values.size() ? values[index] : QString();
    const QString nullFormat = tag.arg(QStringLiteral("nullformat"));
    if (value.isEmpty()) return escapedAs(nullFormat, escape);
    QString format = tag.arg(QStringLiteral("format"), QStringLiteral("$value"));
    if (tag.has(QStringLiteral("pattern"))) {
        const QRegularExpression re(tag.arg(QStringLiteral("pattern")));
        if (!re.isValid() || !re.match(value).hasMatch()) format = nullFormat;
    }
    if (tag.has(QStringLiteral("precision"))) value = number(value.toDouble(), tag.arg(QStringLiteral("precision")).toInt());
    if (isTrue(tag.arg(QStringLiteral("commify")))) value = commified(value);
    if (isTrue(tag.arg(QStringLiteral("uc")))) value = value.toUpper();
    if (isTrue(tag.arg(QStringLiteral("lc")))) value = value.toLower();
    QString out = format.replace(QLatin1String("$value"), value);
    const int padding = tag.arg(QStringLiteral("padding")).toInt();
    if (padding > 0 && padding < 1000 && out.size() < padding) out = out.leftJustified(padding, QLatin1Char(' '));
    return escapedAs(out, escape);
}

class TemplateProcessor {
public:
    explicit TemplateProcessor(const TemplateContext& ctx) : m_ctx(ctx) {}

    // processLine: `feature` set is QUERY mode.
    Result<QString> process(QString text, const TemplateFeature* feature)
    {
        pageTags(text);
        if (feature) featureContextTags(text, *feature);
        if (!feature) {
            if (auto done = resultSets(text); !done) return done.error();
        } else {
            if (auto done = featureTags(text, *feature); !done) return done.error();
        }
        if (auto done = includes(text, feature); !done) return done.error();
        requestTags(text);
        return text;
    }

private:
    void pageTags(QString& text) const
    {
        const MapDef& map = m_ctx.map;
        const CgiQueryResults& r = m_ctx.results;
        if (!text.contains(QLatin1Char('['))) return;
        replaceTemplateTags(text, QStringLiteral("version"), [](const TemplateTag&) { return QStringLiteral("MapServer version 8.0.0 (MapTune)"); });
        replaceTemplateTags(text, QStringLiteral("layers"), [&](const TemplateTag&) { return markupEscape(layersOn().join(QLatin1Char(' '))); });
        replaceTemplateTags(text, QStringLiteral("layers_esc"), [&](const TemplateTag&) { return urlEncoded(layersOn().join(QLatin1Char(' '))); });
        for (const auto& entry : map.web.metadata.items) {
            const QString& key = entry.first;
            const QString& value = entry.second;  // a plain variable: lambdas cannot capture structured bindings (clang 14)
            replaceTemplateTags(text, QStringLiteral("web_") + key, [&](const TemplateTag&) { return value; });
            replaceTemplateTags(text, QStringLiteral("web_") + key + QStringLiteral("_esc"), [&](const TemplateTag&) { return urlEncoded(value); });
        }
        const QPointF p = r.point;
        replaceTemplateTags(text, QStringLiteral("mapx"), [&](const TemplateTag&) { return number(p.x()); });
        replaceTemplateTags(text, QStringLiteral("mapy"), [&](const TemplateTag&) { return number(p.y()); });
        replaceTemplateTags(text, QStringLiteral("minx"), [&](const TemplateTag&) { return number(r.extent.minx); });
        replaceTemplateTags(text, QStringLiteral("maxx"), [&](const TemplateTag&) { return number(r.extent.maxx); });
        replaceTemplateTags(text, QStringLiteral("miny"), [&](const TemplateTag&) { return number(r.extent.miny); });
        replaceTemplateTags(text, QStringLiteral("maxy"), [&](const TemplateTag&) { return number(r.extent.maxy); });
        replaceTemplateTags(text, QStringLiteral("mapext"), [&](const TemplateTag& t) { return extentText(r.extent, t, QStringLiteral("html")); });
        replaceTemplateTags(text, QStringLiteral("mapext_esc"), [&](const TemplateTag& t) { return extentText(r.extent, t, QStringLiteral("url")); });
        replaceTemplateTags(text, QStringLiteral("dx"), [&](const TemplateTag&) { return number(r.extent.width()); });
        replaceTemplateTags(text, QStringLiteral("dy"), [&](const TemplateTag&) { return number(r.extent.height()); });
        const QString size = QStringLiteral("%1 %2").arg(r.width).arg(r.height);
        replaceTemplateTags(text, QStringLiteral("mapsize"), [&](const TemplateTag&) { return size; });
        replaceTemplateTags(text, QStringLiteral("mapsize_esc"), [&](const TemplateTag&) { return urlEncoded(size); });
        replaceTemplateTags(text, QStringLiteral("mapwidth"), [&](const TemplateTag&) { return QString::number(r.width); });
        replaceTemplateTags(text, QStringLiteral("mapheight"), [&](const TemplateTag&) { return QString::number(r.height); });
        replaceTemplateTags(text, QStringLiteral("scale"), [&](const TemplateTag&) { return number(r.scaleDenom); });
        replaceTemplateTags(text, QStringLiteral("scaledenom"), [&](const TemplateTag&) { return number(r.scaleDenom); });
        replaceTemplateTags(text, QStringLiteral("cellsize"), [&](const TemplateTag&) { return number(r.cellSize); });
        replaceTemplateTags(text, QStringLiteral("nr"), [&](const TemplateTag&) { return QString::number(m_ctx.countResults ? r.featureCount() : 0); });
        replaceTemplateTags(text, QStringLiteral("nl"), [&](const TemplateTag&) { return QString::number(m_ctx.countResults ? r.layers.size() : 0); });
    }

    QStringList layersOn() const
    {
        QStringList names;
        for (int i = 0; i < m_ctx.map.layers.size(); ++i)
            if (m_ctx.results.layersOn.contains(i)) names << m_ctx.map.layers[i].name;
        return names;
    }

    void featureContextTags(QString& text, const TemplateFeature& f) const
    {
        const LayerDef& layer = m_ctx.map.layers[f.layer.layer];
        replaceTemplateTags(text, QStringLiteral("items"), [&](const TemplateTag&) { return f.layer.selected.fields.join(QLatin1Char(',')); });
        replaceTemplateTags(text, QStringLiteral("nlr"), [&](const TemplateTag&) { return QString::number(m_ctx.countResults ? f.layer.selected.features.size() : 0); });
        replaceTemplateTags(text, QStringLiteral("rn"), [&](const TemplateTag&) { return QString::number(f.resultNumber); });
        replaceTemplateTags(text, QStringLiteral("lrn"), [&](const TemplateTag&) { return QString::number(f.layerResultNumber); });
        replaceTemplateTags(text, QStringLiteral("cl"), [&](const TemplateTag&) { return layer.name; });
        for (const auto& entry : layer.metadata.items) {
            const QString& key = entry.first;
            const QString& value = entry.second;
            replaceTemplateTags(text, QStringLiteral("metadata_") + key, [&](const TemplateTag&) { return value; });
            replaceTemplateTags(text, QStringLiteral("metadata_") + key + QStringLiteral("_esc"), [&](const TemplateTag&) { return urlEncoded(value); });
        }
    }

    Result<bool> featureTags(QString& text, const TemplateFeature& f) const
    {
        const Feature& feature = f.layer.selected.features[f.index];
        const Rect b = feature.geometry.bounds();
        replaceTemplateTags(text, QStringLiteral("shpmid"), [&](const TemplateTag&) {
            return number((b.minx + b.maxx) / 2) + QLatin1Char(' ') + number((b.miny + b.maxy) / 2);
        });
        replaceTemplateTags(text, QStringLiteral("shpmidx"), [&](const TemplateTag&) { return number((b.minx + b.maxx) / 2); });
        replaceTemplateTags(text, QStringLiteral("shpmidy"), [&](const TemplateTag&) { return number((b.miny + b.maxy) / 2); });
        replaceTemplateTags(text, QStringLiteral("shpext"), [&](const TemplateTag& t) { return extentText(b, t, QStringLiteral("html")); });
        replaceTemplateTags(text, QStringLiteral("shpext_esc"), [&](const TemplateTag& t) { return extentText(b, t, QStringLiteral("url")); });
        replaceTemplateTags(text, QStringLiteral("shpclass"), [&](const TemplateTag&) { return QString::number(f.layer.selected.classes[f.index]); });
        replaceTemplateTags(text, QStringLiteral("shpxy"), [&](const TemplateTag& t) { return shapeCoordinates(feature.geometry, t); });
        replaceTemplateTags(text, QStringLiteral("shpminx"), [&](const TemplateTag&) { return number(b.minx); });
        replaceTemplateTags(text, QStringLiteral("shpminy"), [&](const TemplateTag&) { return number(b.miny); });
        replaceTemplateTags(text, QStringLiteral("shpmaxx"), [&](const TemplateTag&) { return number(b.maxx); });
        replaceTemplateTags(text, QStringLiteral("shpmaxy"), [&](const TemplateTag&) { return number(b.maxy); });
        replaceTemplateTags(text, QStringLiteral("shpidx"), [&](const TemplateTag&) { return QString::number(feature.id); });
        replaceTemplateTags(text, QStringLiteral("tileidx"), [&](const TemplateTag&) { return QStringLiteral("-1"); });
        replaceTemplateTags(text, QStringLiteral("values"), [&](const TemplateTag&) { return feature.values.join(QLatin1Char(',')); });
        const QStringList& fields = f.layer.selected.fields;
        for (qsizetype i = 0; i < fields.size(); ++i) {
            const QString value = i < feature.values.size() ? feature.values[i] : QString();
            text.replace(QLatin1Char('[') + fields[i] + QLatin1Char(']'), markupEscape(value));
            text.replace(QLatin1Char('[') + fields[i] + QLatin1String("_esc]"), urlEncoded(value));
            text.replace(QLatin1Char('[') + fields[i] + QLatin1String("_raw]"), value);
        }
        QString error;
        replaceTemplateTags(text, QStringLiteral("item"), [&](const TemplateTag& t) {
            auto item = itemText(t, fields, feature.values);
            if (!item && error.isEmpty()) error = item.message();
            return item.valueOr(QString());
        });
        if (!error.isEmpty()) return Error(error);
        return true;
    }

    // [resultset layer=NAME nodata=TEXT] ... [/resultset]
    Result<bool> resultSets(QString& text)
    {
        QString nodata;  // MapServer keeps the arguments across the tags of one line
        qsizetype from = 0;
        while (auto tag = findTemplateTag(text, QStringLiteral("resultset"), from)) {
            const qsizetype close = text.indexOf(QLatin1String("[/resultset]"), tag->end);
            if (close < 0) return Error(QStringLiteral("processResultSetTag(): Web application error. [resultset] tag found without closing [/resultset]."));
            const QString name = tag->arg(QStringLiteral("layer"));
            if (name.isEmpty()) return Error(QStringLiteral("processResultSetTag(): Web application error. [resultset] tag missing required 'layer' argument."));
            if (text.lastIndexOf(QLatin1Char('\n'), tag->start) >= from) nodata.clear();  // a new line
            if (tag->has(QStringLiteral("nodata"))) nodata = tag->arg(QStringLiteral("nodata"));
            int index = -1;
            for (int i = 0; i < m_ctx.map.layers.size(); ++i)
                if (m_ctx.map.layers[i].name == name) index = i;
            if (index < 0)
                return Error(QStringLiteral("processResultSetTag(): General error message. Layer named '%1' does not exist.").arg(name));
            const QString inner = text.mid(tag->end, close - tag->end);
            QString replacement = nodata;
            if (const QueryLayerResult* layer = m_ctx.results.layer(index)) {
                auto features = featureBlock(inner, *layer);
                if (!features) return features.error();
                replacement = *features;
            }
            text.replace(tag->start, close + 12 - tag->start, replacement);
            from = tag->start + replacement.size();
        }
        return true;
    }

    // The first [feature limit= trimlast=] ... [/feature] of a result set, once per feature.
    Result<QString> featureBlock(const QString& inner, const QueryLayerResult& layer)
    {
        const auto tag = findTemplateTag(inner, QStringLiteral("feature"));
        if (!tag) return inner;
        const qsizetype close = inner.indexOf(QLatin1String("[/feature]"), tag->end);
        if (close < 0) return Error(QStringLiteral("processFeatureTag(): Web application error. [feature] tag found without closing [/feature]."));
        const QString block = inner.mid(tag->end, close - tag->end);
        int limit = layer.selected.features.size();
        if (tag->has(QStringLiteral("limit"))) limit = std::min(limit, tag->arg(QStringLiteral("limit")).toInt());
        const QString trimLast = tag->arg(QStringLiteral("trimlast"));
        QString out = inner.left(tag->start);
        int layerResult = 1;
        for (int i = 0; i < limit; ++i) {
            QString text = block;
            if (!trimLast.isEmpty() && i == limit - 1) {
                const qsizetype at = text.lastIndexOf(trimLast);
                if (at >= 0) text.truncate(at);
            }
            const TemplateFeature feature{layer, i, m_resultNumber++, layerResult++};
            auto processed = process(text, &feature);
            if (!processed) return processed.error();
            out += *processed;
        }
        return out + inner.mid(close + 10);
    }

    Result<bool> includes(QString& text, const TemplateFeature* feature)
    {
        QString error;
        replaceTemplateTags(text, QStringLiteral("include"), [&](const TemplateTag& t) {
            const QString src = t.arg(QStringLiteral("src"));
            if (src.isEmpty()) return QString();
            auto loaded = loadTemplateFile(m_ctx.map, src);
            if (!loaded) {
                error = QStringLiteral("processIncludeTag(): Unable to access file. %1").arg(src);
                return QString();
            }
            auto processed = process(*loaded, feature);
            if (!processed && error.isEmpty()) error = processed.message();
            return processed.valueOr(QString());
        });
        if (!error.isEmpty()) return Error(error);
        return true;
    }

    // Every request parameter: [name] HTML-escaped, [name_esc] URL-encoded.
    void requestTags(QString& text) const
    {
        for (const auto& [name, value] : m_ctx.request.params) {
            if (!text.contains(QLatin1Char('['))) return;
            text.replace(QLatin1Char('[') + name + QLatin1Char(']'), markupEscape(value), Qt::CaseInsensitive);
            text.replace(QLatin1Char('[') + name + QLatin1String("_esc]"), urlEncoded(value), Qt::CaseInsensitive);
        }
    }

    const TemplateContext& m_ctx;
    int m_resultNumber = 0;
};

}  // namespace

Result<QString> loadTemplateFile(const MapDef& map, const QString& file)
{
    static const QRegularExpression extension(QStringLiteral("\\.(xml|wml|html|htm|svg|kml|gml|js|tmpl)$"),
                                              QRegularExpression::CaseInsensitiveOption);
    if (!extension.match(file).hasMatch())
        return Error(QStringLiteral("msReturnPage(): Web application error. Malformed template name (%1).").arg(file));
    const QString path = QFileInfo(file).isAbsolute() ? file : QDir(map.baseDir()).filePath(file);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return Error(QStringLiteral("msReturnPage(): Unable to access file. %1").arg(file));
    const QString text = QString::fromUtf8(f.readAll());
    if (text.isEmpty()) return text;
    const qsizetype lineEnd = text.indexOf(QLatin1Char('\n'));
    const QString first = lineEnd < 0 ? text : text.left(lineEnd);
    if (!first.contains(QLatin1String("MapServer Template"), Qt::CaseInsensitive))
        return Error(QStringLiteral("isValidTemplate(): Web application error. Missing magic string, %1 doesn't look like a MapServer template.").arg(file));
    return lineEnd < 0 ? QString() : text.mid(lineEnd + 1);
}

Result<QString> processPageTemplate(const QString& text, const TemplateContext& ctx)
{
    TemplateProcessor processor(ctx);
    return processor.process(text, nullptr);
}

Result<QString> processFeatureTemplate(const QString& text, const TemplateContext& ctx, const TemplateFeature& feature)
{
    TemplateProcessor processor(ctx);
    return processor.process(text, &feature);
}

}  // namespace maptune
