#include "wms/ogc_filter.h"

#include "wms/get_map_params.h"

#include <QRegularExpression>
#include <QXmlStreamReader>

#include <memory>

namespace maptune {

namespace {

// Enough for any real filter; a bigger or deeper one is refused, not parsed.
constexpr int kMaxDepth = 32;
constexpr int kMaxNodes = 4096;

// A parsed element: its local name (prefixes dropped, as filters are often
// sent without namespace declarations), attributes, text and children.
struct Node {
    QString name;
    QXmlStreamAttributes attributes;
    QString text;
    std::vector<std::unique_ptr<Node>> children;

    QString attribute(const char* local) const
    {
        for (const QXmlStreamAttribute& a : attributes) {
            const QString n = a.qualifiedName().toString();
            if (n.section(QLatin1Char(':'), -1).compare(QLatin1String(local), Qt::CaseInsensitive) == 0) return a.value().toString();
        }
        return {};
    }
    const Node* child(const char* local) const
    {
        for (const auto& c : children)
            if (c->name.compare(QLatin1String(local), Qt::CaseInsensitive) == 0) return c.get();
        return nullptr;
    }
    bool is(const char* local) const { return name.compare(QLatin1String(local), Qt::CaseInsensitive) == 0; }
};

QString localName(QStringView qualified)
{
    const qsizetype colon = qualified.lastIndexOf(QLatin1Char(':'));
    return (colon < 0 ? qualified : qualified.mid(colon + 1)).toString();
}

std::unique_ptr<Node> parseXml(const QString& xml, QString& error)
{
    QXmlStreamReader reader(xml);
    reader.setNamespaceProcessing(false);
    std::unique_ptr<Node> root;
    std::vector<Node*> stack;
    int nodes = 0;
    while (!reader.atEnd()) {
        switch (reader.readNext()) {
        case QXmlStreamReader::DTD:
            error = QStringLiteral("a DOCTYPE is not allowed in a filter");
            return nullptr;
        case QXmlStreamReader::StartElement: {
            if (int(stack.size()) >= kMaxDepth || ++nodes > kMaxNodes) {
                error = QStringLiteral("the filter is nested too deeply or too large");
                return nullptr;
            }
            auto node = std::make_unique<Node>();
            node->name = localName(reader.qualifiedName());
            node->attributes = reader.attributes();
            Node* raw = node.get();
            if (stack.empty()) {
                if (root) {
                    error = QStringLiteral("more than one root element");
                    return nullptr;
                }
                root = std::move(node);
            } else {
                stack.back()->children.push_back(std::move(node));
            }
            stack.push_back(raw);
            break;
        }
        case QXmlStreamReader::EndElement:
            stack.pop_back();
            break;
        case QXmlStreamReader::Characters:
            if (!stack.empty()) stack.back()->text += reader.text();
            break;
        default: break;
        }
    }
    if (reader.hasError()) {
        error = reader.errorString();
        return nullptr;
    }
    if (!root) error = QStringLiteral("the filter is empty");
    return root;
}

class Translator {
public:
    Translator(QString defaultCrs, bool swapDefault) : m_defaultCrs(std::move(defaultCrs)), m_swapDefault(swapDefault) {}

    QString error;
    QList<RequestSpatialFilterDef> spatial;

    // The expression for `n`, with spatial operators allowed when `top`.
    std::optional<QString> condition(const Node& n, bool top)
    {
        if (n.is("And") || n.is("Or")) {
            QStringList parts;
            for (const auto& c : n.children) {
                const std::optional<QString> part = condition(*c, top && n.is("And"));
                if (!part) return std::nullopt;
                if (!part->isEmpty()) parts << *part;
            }
            if (parts.isEmpty()) return top && n.is("And") ? std::optional<QString>(QString()) : fail(QStringLiteral("an empty ") + n.name);
            return QLatin1Char('(') + parts.join(n.is("And") ? QLatin1String(" AND ") : QLatin1String(" OR ")) + QLatin1Char(')');
        }
        if (n.is("Not")) {
            if (n.children.size() != 1) return fail(QStringLiteral("Not takes one operand"));
            const std::optional<QString> inner = condition(*n.children.front(), false);
            if (!inner) return std::nullopt;
            return QStringLiteral("(NOT %1)").arg(*inner);
        }
        static const char* const comparisons[][2] = {
            {"PropertyIsEqualTo", "="},         {"PropertyIsNotEqualTo", "!="}, {"PropertyIsLessThan", "<"},
            {"PropertyIsGreaterThan", ">"},     {"PropertyIsLessThanOrEqualTo", "<="},
            {"PropertyIsGreaterThanOrEqualTo", ">="},
        };
        for (const auto& [element, op] : comparisons)
            if (n.is(element)) return comparison(n, QLatin1String(op));
        if (n.is("PropertyIsLike")) return like(n);
        if (n.is("PropertyIsNull")) {
            const std::optional<QString> p = property(n);
            if (!p) return std::nullopt;
            return QStringLiteral("(\"[%1]\" = \"\")").arg(*p);
        }
        if (n.is("PropertyIsBetween")) return between(n);
        static const char* const spatialOps[] = {"BBOX", "Intersects", "Disjoint", "DWithin", "Beyond"};
        for (const char* op : spatialOps)
            if (n.is(op)) {
                if (!top) return fail(QStringLiteral("%1 inside Or or Not is not supported").arg(n.name));
                if (!spatialCondition(n)) return std::nullopt;
                return QString();
            }
        return fail(QStringLiteral("unsupported filter element '%1'").arg(n.name));
    }

private:
    std::optional<QString> fail(const QString& message)
    {
        if (error.isEmpty()) error = message;
        return std::nullopt;
    }

    std::optional<QString> property(const Node& n)
    {
        const Node* p = n.child("PropertyName");
        if (!p) return fail(n.name + QStringLiteral(" without PropertyName"));
        // An attribute name and nothing else: it goes into the expression.
        static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_.\\-]*$"));
        const QString value = localName(p->text.trimmed());
        if (!name.match(value).hasMatch()) return fail(QStringLiteral("invalid PropertyName '%1'").arg(p->text.trimmed()));
        return value;
    }

    // A string literal quoted for the expression lexer.
    std::optional<QString> quoted(const QString& literal)
    {
        // "[name]" as a whole would bind an attribute instead of being text.
        if (literal.startsWith(QLatin1Char('[')) && literal.endsWith(QLatin1Char(']')))
            return fail(QStringLiteral("unsupported Literal '%1'").arg(literal));
        QString out = literal;
        out.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('"'), QLatin1String("\\\""));
        return QLatin1Char('"') + out + QLatin1Char('"');
    }

    static bool isNumber(const QString& s, double* value = nullptr)
    {
        bool ok = false;
        const double v = s.trimmed().toDouble(&ok);
        if (value) *value = v;
        return ok && !s.trimmed().isEmpty();
    }

    std::optional<QString> comparison(const Node& n, QLatin1String op)
    {
        const std::optional<QString> p = property(n);
        if (!p) return std::nullopt;
        const Node* lit = n.child("Literal");
        if (!lit) return fail(n.name + QStringLiteral(" without Literal"));
        double number = 0;
        if (isNumber(lit->text, &number))
            return QStringLiteral("([%1] %2 %3)").arg(*p, op, QString::number(number, 'g', 17));
        const std::optional<QString> text = quoted(lit->text);
        if (!text) return std::nullopt;
        const bool caseless = n.attribute("matchCase").compare(QLatin1String("false"), Qt::CaseInsensitive) == 0;
        const QLatin1String useOp = caseless && op == QLatin1String("=") ? QLatin1String("=*") : op;
        return QStringLiteral("(\"[%1]\" %2 %3)").arg(*p, useOp, *text);
    }

    std::optional<QString> like(const Node& n)
    {
        const std::optional<QString> p = property(n);
        if (!p) return std::nullopt;
        const Node* lit = n.child("Literal");
        if (!lit) return fail(QStringLiteral("PropertyIsLike without Literal"));
        const QString wild = n.attribute("wildCard"), single = n.attribute("singleChar");
        QString escape = n.attribute("escapeChar");
        if (escape.isEmpty()) escape = n.attribute("escape");
        if (wild.size() != 1 || single.size() != 1 || escape.size() > 1)
            return fail(QStringLiteral("PropertyIsLike needs one-character wildCard and singleChar"));
        QString regex = QStringLiteral("^");
        const QString& s = lit->text;
        for (qsizetype i = 0; i < s.size(); ++i) {
            const QChar c = s[i];
            if (!escape.isEmpty() && c == escape[0] && i + 1 < s.size()) {
                regex += QRegularExpression::escape(QString(s[++i]));
            } else if (c == wild[0]) {
                regex += QLatin1String(".*");
            } else if (c == single[0]) {
                regex += QLatin1Char('.');
            } else {
                regex += QRegularExpression::escape(QString(c));
            }
        }
        regex += QLatin1Char('$');
        const std::optional<QString> text = quoted(regex);
        if (!text) return std::nullopt;
        const bool caseless = n.attribute("matchCase").compare(QLatin1String("false"), Qt::CaseInsensitive) == 0;
        return QStringLiteral("(\"[%1]\" %2 %3)").arg(*p, caseless ? QLatin1String("~*") : QLatin1String("~"), *text);
    }

    std::optional<QString> between(const Node& n)
    {
        const std::optional<QString> p = property(n);
        if (!p) return std::nullopt;
        const Node* lo = n.child("LowerBoundary");
        const Node* hi = n.child("UpperBoundary");
        const Node* loLit = lo ? lo->child("Literal") : nullptr;
        const Node* hiLit = hi ? hi->child("Literal") : nullptr;
        if (!loLit || !hiLit) return fail(QStringLiteral("PropertyIsBetween needs literal boundaries"));
        double a = 0, b = 0;
        if (isNumber(loLit->text, &a) && isNumber(hiLit->text, &b))
            return QStringLiteral("([%1] >= %2 AND [%1] <= %3)").arg(*p, QString::number(a, 'g', 17), QString::number(b, 'g', 17));
        const std::optional<QString> qa = quoted(loLit->text), qb = quoted(hiLit->text);
        if (!qa || !qb) return std::nullopt;
        return QStringLiteral("(\"[%1]\" >= %2 AND \"[%1]\" <= %3)").arg(*p, *qa, *qb);
    }

    // srsName as a CRS and whether its coordinates come latitude first.
    std::pair<QString, bool> crsOf(const Node& geometry) const
    {
        const QString srs = geometry.attribute("srsName");
        if (srs.isEmpty()) return {m_defaultCrs, m_swapDefault};
        static const QRegularExpression code(QStringLiteral("(\\d+)$"));
        const QRegularExpressionMatch m = code.match(srs);
        if (!m.hasMatch()) return {srs, false};
        const QString epsg = QStringLiteral("EPSG:") + m.captured(1);
        // EPSG:n and the gml/srs/epsg.xml#n form are x/y; URNs and the
        // opengis.net/def URLs follow the CRS's own axis order.
        const bool authorityOrder = srs.startsWith(QLatin1String("urn:"), Qt::CaseInsensitive)
                                    || srs.contains(QLatin1String("/def/crs/"), Qt::CaseInsensitive);
        return {epsg, authorityOrder && crsAxisInverted(epsg)};
    }

    // "x y, x y, ..." for WKT from gml:coordinates, gml:pos or gml:posList.
    std::optional<QString> coordinates(const Node& n, bool swap)
    {
        QList<std::pair<double, double>> points;
        auto addNumbers = [&](const QStringList& numbers) {
            if (numbers.size() % 2 != 0) return false;
            for (qsizetype i = 0; i + 1 < numbers.size(); i += 2) {
                bool okX = false, okY = false;
                const double x = numbers[i].toDouble(&okX), y = numbers[i + 1].toDouble(&okY);
                if (!okX || !okY) return false;
                points << (swap ? std::pair(y, x) : std::pair(x, y));
            }
            return true;
        };
        bool ok = true;
        if (const Node* c = n.child("coordinates")) {
            QString cs = c->attribute("cs"), ts = c->attribute("ts");
            if (cs.isEmpty()) cs = QStringLiteral(",");
            for (const QString& tuple : c->text.simplified().split(ts.isEmpty() ? QStringLiteral(" ") : ts, Qt::SkipEmptyParts))
                ok = ok && addNumbers(tuple.trimmed().split(cs, Qt::SkipEmptyParts));
        } else if (const Node* list = n.child("posList")) {
            ok = addNumbers(list->text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts));
        } else {
            bool any = false;
            for (const auto& c : n.children)
                if (c->is("pos")) {
                    any = true;
                    ok = ok && addNumbers(c->text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts));
                }
            ok = ok && any;
        }
        if (!ok || points.isEmpty()) return fail(QStringLiteral("invalid coordinates in %1").arg(n.name));
        QStringList out;
        for (const auto& [x, y] : points) out << QString::number(x, 'g', 17) + QLatin1Char(' ') + QString::number(y, 'g', 17);
        return out.join(QLatin1String(", "));
    }

    std::optional<QString> ring(const Node& boundary, bool swap)
    {
        const Node* linear = boundary.child("LinearRing");
        if (!linear) return fail(QStringLiteral("a polygon boundary without LinearRing"));
        const std::optional<QString> c = coordinates(*linear, swap);
        if (!c) return std::nullopt;
        return QLatin1Char('(') + *c + QLatin1Char(')');
    }

    std::optional<QString> wkt(const Node& g, bool swap)
    {
        if (g.is("Point")) {
            const std::optional<QString> c = coordinates(g, swap);
            return c ? std::optional(QStringLiteral("POINT(%1)").arg(*c)) : std::nullopt;
        }
        if (g.is("LineString")) {
            const std::optional<QString> c = coordinates(g, swap);
            return c ? std::optional(QStringLiteral("LINESTRING(%1)").arg(*c)) : std::nullopt;
        }
        if (g.is("Polygon")) {
            QStringList rings;
            for (const auto& c : g.children) {
                if (!c->is("outerBoundaryIs") && !c->is("exterior") && !c->is("innerBoundaryIs") && !c->is("interior")) continue;
                const std::optional<QString> r = ring(*c, swap);
                if (!r) return std::nullopt;
                rings << *r;
            }
            if (rings.isEmpty()) return fail(QStringLiteral("a Polygon without boundary"));
            return QStringLiteral("POLYGON(%1)").arg(rings.join(QLatin1String(", ")));
        }
        if (g.is("Box") || g.is("Envelope")) {
            double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
            if (const Node* c = g.child("coordinates")) {
                const QStringList tuples = c->text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
                const QStringList a = tuples.value(0).split(QLatin1Char(',')), b = tuples.value(1).split(QLatin1Char(','));
                if (tuples.size() != 2 || a.size() != 2 || b.size() != 2) return fail(QStringLiteral("a Box needs two corners"));
                x0 = a[0].toDouble(), y0 = a[1].toDouble(), x1 = b[0].toDouble(), y1 = b[1].toDouble();
            } else {
                const Node* lo = g.child("lowerCorner");
                const Node* hi = g.child("upperCorner");
                const QStringList a = lo ? lo->text.simplified().split(QLatin1Char(' ')) : QStringList();
                const QStringList b = hi ? hi->text.simplified().split(QLatin1Char(' ')) : QStringList();
                if (a.size() != 2 || b.size() != 2) return fail(QStringLiteral("an Envelope needs lowerCorner and upperCorner"));
                x0 = a[0].toDouble(), y0 = a[1].toDouble(), x1 = b[0].toDouble(), y1 = b[1].toDouble();
            }
            if (swap) std::swap(x0, y0), std::swap(x1, y1);
            return QStringLiteral("POLYGON((%1 %2, %3 %2, %3 %4, %1 %4, %1 %2))")
                .arg(QString::number(x0, 'g', 17), QString::number(y0, 'g', 17), QString::number(x1, 'g', 17), QString::number(y1, 'g', 17));
        }
        return fail(QStringLiteral("unsupported geometry '%1'").arg(g.name));
    }

    // Metres in one unit of a Distance's units attribute (MapServer's names and UCUM/URI forms).
    static std::optional<double> metersPerUnit(QString units)
    {
        units = units.section(QLatin1Char('#'), -1).section(QLatin1Char('/'), -1).trimmed().toLower();
        if (units.isEmpty() || units == QLatin1String("m") || units.startsWith(QLatin1String("meter")) || units.startsWith(QLatin1String("metre")))
            return 1.0;
        if (units == QLatin1String("km") || units.startsWith(QLatin1String("kilomet"))) return 1000.0;
        if (units == QLatin1String("mi") || units.startsWith(QLatin1String("mile"))) return 1609.344;
        if (units == QLatin1String("ft") || units == QLatin1String("feet") || units == QLatin1String("foot")) return 0.3048;
        if (units == QLatin1String("in") || units.startsWith(QLatin1String("inch"))) return 0.0254;
        if (units == QLatin1String("nm") || units.startsWith(QLatin1String("nauticalmile"))) return 1852.0;
        // MapServer's inches per decimal degree.
        if (units == QLatin1String("dd") || units.startsWith(QLatin1String("deg"))) return 4374754.0 * 0.0254;
        return std::nullopt;
    }

    bool spatialCondition(const Node& n)
    {
        using Op = RequestSpatialFilterDef::Op;
        RequestSpatialFilterDef f;
        f.op = n.is("Disjoint") ? Op::Disjoint : n.is("DWithin") ? Op::DWithin : n.is("Beyond") ? Op::Beyond : Op::Intersects;
        const Node* geometry = nullptr;
        for (const auto& c : n.children)
            if (!c->is("PropertyName") && !c->is("Distance")) geometry = c.get();
        if (!geometry) return bool(fail(n.name + QStringLiteral(" without a geometry")));
        const auto [crs, swap] = crsOf(*geometry);
        const std::optional<QString> text = wkt(*geometry, swap);
        if (!text) return false;
        f.wkt = *text;
        f.crs = crs;
        if (f.op == Op::DWithin || f.op == Op::Beyond) {
            const Node* d = n.child("Distance");
            bool ok = false;
            f.distance = d ? d->text.trimmed().toDouble(&ok) : 0;
            if (!ok || f.distance < 0) return bool(fail(n.name + QStringLiteral(" needs a non-negative Distance")));
            QString units = d->attribute("units");
            if (units.isEmpty()) units = d->attribute("uom");
            const std::optional<double> factor = metersPerUnit(units);
            if (!factor) return bool(fail(QStringLiteral("unknown Distance units '%1'").arg(units)));
            f.metersPerUnit = *factor;
        }
        spatial << f;
        return true;
    }

    QString m_defaultCrs;
    bool m_swapDefault;
};

}  // namespace

OgcFilter parseOgcFilter(const QString& xml, const QString& defaultCrs, bool swapDefaultAxes)
{
    OgcFilter out;
    const std::unique_ptr<Node> root = parseXml(xml, out.error);
    if (!root) return out;
    if (!root->is("Filter")) {
        out.error = QStringLiteral("the root element is '%1', not Filter").arg(root->name);
        return out;
    }
    if (root->children.size() != 1) {
        out.error = QStringLiteral("a Filter holds exactly one operator");
        return out;
    }
    Translator t(defaultCrs, swapDefaultAxes);
    const std::optional<QString> expression = t.condition(*root->children.front(), true);
    if (!expression) {
        out.error = t.error;
        return out;
    }
    out.expression = *expression;
    out.spatial = t.spatial;
    return out;
}

}  // namespace maptune
