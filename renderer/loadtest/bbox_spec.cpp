#include "loadtest/bbox_spec.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

namespace maptune {

namespace {

// benchlib.PRESETS
struct Preset {
    const char* name;
    std::optional<std::array<double, 4>> extent;
    std::optional<std::array<double, 2>> res, center, jitter, span;
};
const Preset kPresets[] = {
    // random windows inside the orthophoto, 0.5 .. 4 m/pixel, EPSG:6677
    {"raster", std::array<double, 4>{-9338.0, -36968.0, -5242.0, -32872.0}, std::array<double, 2>{0.5, 4.0}, {}, {}, {}},
    // ~5.4 km map centred on the Imperial Palace, shifted east-west, EPSG:4326
    {"roads", {}, {}, std::array<double, 2>{139.7528, 35.6852}, std::array<double, 2>{0.05, 0.0},
     std::array<double, 2>{0.06, 0.0487}},
};

std::optional<QList<double>> parseNumbers(const QString& text)
{
    QList<double> out;
    for (const QString& part : text.split(QLatin1Char(','))) {
        bool ok = false;
        const double v = part.trimmed().toDouble(&ok);
        if (!ok) return std::nullopt;
        out << v;
    }
    return out;
}

template <std::size_t N>
std::optional<std::array<double, N>> parseFixed(const QString& text)
{
    const auto v = parseNumbers(text);
    if (!v || v->size() != qsizetype(N)) return std::nullopt;
    std::array<double, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = (*v)[qsizetype(i)];
    return out;
}

QJsonArray jsonArray(const double* v, int n)
{
    QJsonArray a;
    for (int i = 0; i < n; ++i) a.append(v[i]);
    return a;
}

}  // namespace

QStringList bboxPresetNames()
{
    QStringList names;
    for (const Preset& p : kPresets) names << QString::fromLatin1(p.name);
    return names;
}

std::optional<std::pair<int, int>> parseImageSize(const QString& text)
{
    const QStringList parts = text.toLower().split(QLatin1Char('x'));
    if (parts.size() > 2) return std::nullopt;
    bool okW = false, okH = false;
    const int w = parts[0].trimmed().toInt(&okW);
    const int h = parts.size() == 2 ? parts[1].trimmed().toInt(&okH) : w;
    if (parts.size() == 1) okH = okW;
    if (!okW || !okH || w <= 0 || h <= 0) return std::nullopt;
    return std::pair{w, h};
}

std::variant<QList<Bbox>, QString> readBboxFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return QStringLiteral("cannot read the bbox file %1: %2").arg(path, f.errorString());
    QList<Bbox> rows;
    int lineNo = 0;
    while (!f.atEnd()) {
        ++lineNo;
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        const QStringList parts = line.split(QRegularExpression(QStringLiteral("[ ,]+")), Qt::SkipEmptyParts);
        QList<double> v;
        for (const QString& p : parts) {
            bool ok = false;
            v << p.toDouble(&ok);
            if (!ok) v.clear();
            if (!ok) break;
        }
        if (v.size() != 4)
            return QStringLiteral("%1:%2: expected minx,miny,maxx,maxy").arg(path).arg(lineNo);
        rows << Bbox{v[0], v[1], v[2], v[3]};
    }
    if (rows.isEmpty()) return QStringLiteral("%1: no bbox (one minx,miny,maxx,maxy a line)").arg(path);
    return rows;
}

BboxSpecResult resolveBboxSpec(const BboxOptions& o)
{
    auto fail = [](const QString& message) { return BboxSpecResult{std::nullopt, message}; };
    const auto size = parseImageSize(o.size);
    if (!size) return fail(QStringLiteral("--size: expected WxH or N, got '%1'").arg(o.size));
    BboxSpec spec;
    spec.width = size->first;
    spec.height = size->second;
    spec.seed = o.seed;
    if (!o.bboxFile.isEmpty()) {
        auto rows = readBboxFile(o.bboxFile);
        if (auto* error = std::get_if<QString>(&rows)) return fail(*error);
        spec.mode = BboxSpec::Mode::File;
        spec.file = QFileInfo(o.bboxFile).absoluteFilePath();
        spec.rows = std::get<QList<Bbox>>(rows);
        return {spec, {}};
    }
    // The same override rules as benchlib.bbox_spec_from_args.
    Preset p{};
    if (!o.preset.isEmpty()) {
        const Preset* found = nullptr;
        for (const Preset& candidate : kPresets)
            if (o.preset == QLatin1String(candidate.name)) found = &candidate;
        if (!found)
            return fail(QStringLiteral("unknown preset '%1' (known: %2)").arg(o.preset, bboxPresetNames().join(QStringLiteral(", "))));
        p = *found;
        spec.preset = o.preset;
    }
    if (!o.extent.isEmpty()) {
        const auto e = parseFixed<4>(o.extent);
        if (!e) return fail(QStringLiteral("--extent: expected minx,miny,maxx,maxy"));
        p = Preset{nullptr, e, p.res, {}, {}, {}};
    }
    if (!o.res.isEmpty()) {
        p.res = parseFixed<2>(o.res);
        if (!p.res) return fail(QStringLiteral("--res: expected min,max"));
    }
    if (!o.center.isEmpty()) {
        const auto c = parseFixed<2>(o.center);
        const auto j = parseFixed<2>(o.jitter);
        if (!c || !j) return fail(QStringLiteral("--center and --jitter: expected x,y"));
        p = Preset{nullptr, {}, {}, c, j, p.span};
    }
    if (!o.span.isEmpty()) {
        const auto v = parseNumbers(o.span);
        if (!v || v->isEmpty() || v->size() > 2) return fail(QStringLiteral("--span: expected w[,h]"));
        p.span = std::array<double, 2>{v->at(0), v->size() == 2 ? v->at(1) : v->at(0) * spec.height / spec.width};
    }
    if (p.extent) {
        if (!p.res) return fail(QStringLiteral("--extent needs --res min,max"));
        if ((*p.res)[0] <= 0 || (*p.res)[1] <= 0) return fail(QStringLiteral("--res must be positive"));
        spec.mode = BboxSpec::Mode::Extent;
        spec.extent = *p.extent;
        spec.res = *p.res;
    } else if (p.center) {
        if (!p.span) return fail(QStringLiteral("--center needs --span"));
        spec.mode = BboxSpec::Mode::Jitter;
        spec.center = *p.center;
        spec.jitter = p.jitter.value_or(std::array<double, 2>{0, 0});
        spec.span = *p.span;
    } else {
        return fail(QStringLiteral("no request sequence: give --preset, --extent/--res, --center/--span or --bbox-file"));
    }
    return {spec, {}};
}

QJsonObject BboxSpec::toJson() const
{
    QJsonObject o{{QStringLiteral("seed"), double(seed)}};
    if (!preset.isEmpty()) o.insert(QStringLiteral("preset"), preset);
    switch (mode) {
    case Mode::File:
        o.insert(QStringLiteral("mode"), QStringLiteral("file"));
        o.insert(QStringLiteral("file"), file);
        break;
    case Mode::Extent:
        o.insert(QStringLiteral("mode"), QStringLiteral("extent"));
        o.insert(QStringLiteral("extent"), jsonArray(extent.data(), 4));
        o.insert(QStringLiteral("res"), jsonArray(res.data(), 2));
        break;
    case Mode::Jitter:
        o.insert(QStringLiteral("mode"), QStringLiteral("jitter"));
        o.insert(QStringLiteral("center"), jsonArray(center.data(), 2));
        o.insert(QStringLiteral("jitter"), jsonArray(jitter.data(), 2));
        o.insert(QStringLiteral("span"), jsonArray(span.data(), 2));
        break;
    }
    return o;
}

}  // namespace maptune
