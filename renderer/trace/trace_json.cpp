#include "trace/trace_json.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace maptune {

namespace {

double rounded(double ms) { return std::round(ms * 1000.0) / 1000.0; }

QJsonObject phase(const QString& name, double start, double ms)
{
    return {{QStringLiteral("phase"), name},
            {QStringLiteral("startMs"), rounded(start)},
            {QStringLiteral("ms"), rounded(ms)}};
}

QJsonObject dbJson(const DbTrace& db, double start)
{
    QJsonArray phases;
    double at = start;
    for (const auto& [name, ms] : {std::pair{"pool wait", db.poolWaitMs}, std::pair{"connect", db.connectMs},
                                   std::pair{"query", db.queryMs}, std::pair{"fetch", db.fetchMs}}) {
        phases.append(phase(QLatin1String(name), at, ms));
        at += ms;
    }
    QJsonObject o{{QStringLiteral("sql"), db.sql},
                  {QStringLiteral("params"), QJsonArray::fromStringList(db.params)},
                  {QStringLiteral("poolWaitMs"), rounded(db.poolWaitMs)},
                  {QStringLiteral("connectMs"), rounded(db.connectMs)},
                  {QStringLiteral("queryMs"), rounded(db.queryMs)},
                  {QStringLiteral("fetchMs"), rounded(db.fetchMs)},
                  {QStringLiteral("rows"), db.rows},
                  {QStringLiteral("bytes"), db.bytes},
                  {QStringLiteral("cachedRows"), db.cachedRows},
                  {QStringLiteral("changedRows"), db.changedRows},
                  {QStringLiteral("newConnection"), db.newConnection},
                  {QStringLiteral("prepared"), db.prepared},
                  {QStringLiteral("phases"), phases}};
    if (!db.error.isEmpty()) o.insert(QStringLiteral("error"), db.error);
    return o;
}

QJsonObject layerJson(const LayerTrace& l)
{
    QJsonArray phases;
    double at = l.startMs;
    for (const auto& [name, ms] : {std::pair{"open", l.openMs}, std::pair{"read", l.readMs}, std::pair{"draw", l.drawMs},
                                   std::pair{"lut", l.lutMs}}) {
        if (ms <= 0 && std::string_view(name) == "lut") continue;
        phases.append(phase(QLatin1String(name), at, ms));
        at += ms;
        // A computed surface or geometry (density, contour, ...) follows the read.
        if (std::string_view(name) == "read" && l.computeMs > 0) {
            phases.append(phase(l.computePhase, at, l.computeMs));
            at += l.computeMs;
        }
    }
    QJsonArray db;
    double dbAt = l.startMs + l.openMs;
    for (const DbTrace& call : l.db) {
        db.append(dbJson(call, dbAt));
        dbAt += call.poolWaitMs + call.connectMs + call.queryMs + call.fetchMs;
    }
    QJsonObject o{{QStringLiteral("layer"), l.layer},
                  {QStringLiteral("startMs"), rounded(l.startMs)},
                  {QStringLiteral("totalMs"), rounded(l.totalMs)},
                  {QStringLiteral("openMs"), rounded(l.openMs)},
                  {QStringLiteral("readMs"), rounded(l.readMs)},
                  {QStringLiteral("drawMs"), rounded(l.drawMs)},
                  {QStringLiteral("lutMs"), rounded(l.lutMs)},
                  {QStringLiteral("labelMs"), rounded(l.labelMs)},
                  {QStringLiteral("computeMs"), rounded(l.computeMs)},
                  {QStringLiteral("features"), l.features},
                  {QStringLiteral("pixels"), l.pixels},
                  {QStringLiteral("labelsTried"), l.labelsTried},
                  {QStringLiteral("labelsPlaced"), l.labelsPlaced},
                  {QStringLiteral("skipped"), l.skipped},
                  {QStringLiteral("phases"), phases},
                  {QStringLiteral("db"), db}};
    if (!l.computePhase.isEmpty()) o.insert(QStringLiteral("computePhase"), l.computePhase);
    if (!l.error.isEmpty()) o.insert(QStringLiteral("error"), l.error);
    return o;
}

}  // namespace

QJsonObject traceToJsonObject(const Trace& trace)
{
    QJsonArray layers;
    double layersEnd = 0;
    for (const LayerTrace& l : trace.layers) {
        layers.append(layerJson(l));
        layersEnd = std::max(layersEnd, l.startMs + l.totalMs);
    }
    // Legends and scalebars embedded between layers and labels are in the gaps.
    const double encodeStart = std::max(layersEnd + trace.labelMs, trace.totalMs - trace.encodeMs);
    return {{QStringLiteral("totalMs"), rounded(trace.totalMs)},
            {QStringLiteral("dbMs"), rounded(trace.dbMs())},
            {QStringLiteral("labelMs"), rounded(trace.labelMs)},
            {QStringLiteral("encodeMs"), rounded(trace.encodeMs)},
            {QStringLiteral("bytes"), trace.bytes},
            {QStringLiteral("layers"), layers},
            {QStringLiteral("label"), phase("label", layersEnd, trace.labelMs)},
            {QStringLiteral("encode"), phase("encode", encodeStart, trace.encodeMs)}};
}

QByteArray traceToJson(const Trace& trace)
{
    return QJsonDocument(traceToJsonObject(trace)).toJson(QJsonDocument::Indented);
}

}  // namespace maptune
