// MT104 MT108 MT110 MT111: how the map is served.

#include "lint/lint_context.h"

#include <QRegularExpression>

namespace maptune {

namespace {

bool hasKey(const KeyValues& metadata, const char* wms, const char* ows)
{
    return metadata.value(QLatin1String(wms)).has_value() || metadata.value(QLatin1String(ows)).has_value();
}

bool servesWms(const MapDef& map)
{
    auto isOws = [](const KeyValues& kv) {
        for (const auto& [key, value] : kv.items)
            if (key.startsWith(QLatin1String("wms_"), Qt::CaseInsensitive) ||
                key.startsWith(QLatin1String("ows_"), Qt::CaseInsensitive))
                return true;
        return false;
    };
    if (isOws(map.web.metadata)) return true;
    for (const LayerDef& l : map.layers)
        if (isOws(l.metadata)) return true;
    return false;
}

// Where WEB METADATA entries go: after the METADATA keyword, one level deeper.
std::optional<LintEdit> addMetadata(const LintContext& c, const QString& entry, const QString& title)
{
    const SyntaxNode* metadata = c.webMetadata();
    if (!metadata) return std::nullopt;
    LintEdit edit{metadata->keyword.pos.file, metadata->keyword.offset + metadata->keyword.length, 0, {}, title};
    edit.replacement = QLatin1Char('\n') + QString(metadata->keyword.pos.column + 1, QLatin1Char(' ')) + entry;
    return edit;
}

SourcePos metadataPos(const LintContext& c)
{
    if (const SyntaxNode* m = c.webMetadata()) return m->keyword.pos;
    if (const SyntaxNode* web = c.mapNode ? c.mapNode->child(QStringLiteral("WEB")) : nullptr) return web->keyword.pos;
    return c.map.pos;
}

void checkDebug(LintContext& c, const SyntaxNode* block, const QString& what, int level)
{
    if (level <= 0 || !block) return;
    const SyntaxNode* debug = block->child(QStringLiteral("DEBUG"));
    if (!debug) return;
    std::optional<LintEdit> edit;
    if (!debug->values.isEmpty())
        edit = LintContext::replaceToken(debug->values.first(), QStringLiteral("OFF"), QStringLiteral("Set DEBUG OFF"));
    c.add(QStringLiteral("MT104"), debug->keyword.pos, QStringLiteral("%1: DEBUG %2 is on").arg(what).arg(level), edit);
}

// MS_DEBUGLEVEL writes debug output; MS_ERRORFILE alone logs errors only
// (a production setting) and is flagged just where DEBUG also fills it.
void checkDebugConfig(LintContext& c, bool debugOn)
{
    if (!c.mapNode) return;
    for (const SyntaxNode* config : c.mapNode->childrenNamed(QStringLiteral("CONFIG"))) {
        const QString key = config->text().toUpper();
        if (key == QLatin1String("MS_DEBUGLEVEL"))
            c.add(QStringLiteral("MT104"), config->keyword.pos, QStringLiteral("CONFIG \"MS_DEBUGLEVEL\" writes debug output"),
                  LintContext::removeNode(*config, QStringLiteral("Remove CONFIG \"MS_DEBUGLEVEL\"")));
        else if (key == QLatin1String("MS_ERRORFILE") && debugOn)
            c.add(QStringLiteral("MT104"), config->keyword.pos,
                  QStringLiteral("CONFIG \"MS_ERRORFILE\" receives the debug output of DEBUG"));
    }
}

void checkScaleAuto(LintContext& c)
{
    static const QRegularExpression scaleAuto(QStringLiteral("^\\s*SCALE(_\\d+)?\\s*=\\s*AUTO\\s*$"),
                                              QRegularExpression::CaseInsensitiveOption);
    for (int i = 0; i < c.map.layers.size(); ++i) {
        const SyntaxNode* node = c.layerNode(i);
        if (!node) continue;
        for (const SyntaxNode* p : node->childrenNamed(QStringLiteral("PROCESSING")))
            if (scaleAuto.match(p->text()).hasMatch())
                c.add(QStringLiteral("MT108"), p->keyword.pos,
                      QStringLiteral("layer '%1': PROCESSING \"%2\" stretches every request differently (seams "
                                     "between tiles)")
                          .arg(c.map.layers[i].name, p->text()));
    }
}

}  // namespace

void checkServiceSettings(LintContext& c)
{
    checkDebug(c, c.mapNode, QStringLiteral("MAP"), c.map.debug);
    for (int i = 0; i < c.map.layers.size(); ++i)
        checkDebug(c, c.layerNode(i), QStringLiteral("layer '%1'").arg(c.map.layers[i].name), c.map.layers[i].debug);
    bool debugOn = c.map.debug > 0;
    for (const LayerDef& l : c.map.layers) debugOn = debugOn || l.debug > 0;
    checkDebugConfig(c, debugOn);
    if (!servesWms(c.map)) return;
    checkScaleAuto(c);
    const KeyValues& metadata = c.map.web.metadata;
    if (!hasKey(metadata, "wms_srs", "ows_srs"))
        c.add(QStringLiteral("MT110"), metadataPos(c),
              QStringLiteral("WEB METADATA has no wms_srs or ows_srs: clients can ask for no CRS but the map's"),
              addMetadata(c, QStringLiteral("\"wms_srs\" \"EPSG:4326 EPSG:3857\""),
                          QStringLiteral("Add \"wms_srs\" \"EPSG:4326 EPSG:3857\"")));
    bool enabled = hasKey(metadata, "wms_enable_request", "ows_enable_request");
    for (const LayerDef& l : c.map.layers) enabled = enabled || hasKey(l.metadata, "wms_enable_request", "ows_enable_request");
    if (!enabled)
        c.add(QStringLiteral("MT111"), metadataPos(c),
              QStringLiteral("no wms_enable_request or ows_enable_request: MapServer 8 refuses every WMS request"),
              addMetadata(c, QStringLiteral("\"wms_enable_request\" \"*\""),
                          QStringLiteral("Add \"wms_enable_request\" \"*\"")));
}

}  // namespace maptune
