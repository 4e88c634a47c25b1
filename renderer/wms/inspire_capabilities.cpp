#include "wms/inspire_capabilities.h"

namespace maptune {

const QString kInspireCommonNs = QStringLiteral("http://inspire.ec.europa.eu/schemas/common/1.0");
const QString kInspireVsNs = QStringLiteral("http://inspire.ec.europa.eu/schemas/inspire_vs/1.0");

namespace {

class InspireWriter {
public:
    explicit InspireWriter(CapabilitiesWriter& w) : m_w(w), m_xml(w.xml), m_md(w.ctx.map.web.metadata) {}

    void write(bool declareNamespaces)
    {
        m_xml.writeStartElement(QStringLiteral("inspire_vs:ExtendedCapabilities"));
        if (declareNamespaces) {
            m_xml.writeAttribute(QStringLiteral("xmlns:inspire_vs"), kInspireVsNs);
            m_xml.writeAttribute(QStringLiteral("xmlns:inspire_common"), kInspireCommonNs);
            m_xml.writeAttribute(QStringLiteral("xmlns:xsi"), QStringLiteral("http://www.w3.org/2001/XMLSchema-instance"));
        }
        const QString mode = wmsMetadata(m_md, QStringLiteral("inspire_capabilities")).value_or(QString());
        if (mode.compare(QLatin1String("url"), Qt::CaseInsensitive) == 0) metadataUrl();
        else if (mode.compare(QLatin1String("embed"), Qt::CaseInsensitive) == 0) embedded();
        else warn(QStringLiteral("invalid value '%1' for 'inspire_capabilities', only 'embed' and 'url' are supported.").arg(mode));
        languages();
        m_xml.writeEndElement();
    }

private:
    std::optional<QString> get(const char* key) const { return wmsMetadata(m_md, QLatin1String(key)); }
    void warn(const QString& text) { m_xml.writeComment(QStringLiteral(" WARNING: ") + text + QLatin1Char(' ')); }
    void common(const QString& element, const QString& value) { m_xml.writeTextElement(QStringLiteral("inspire_common:") + element, value); }
    void open(const QString& element) { m_xml.writeStartElement(QStringLiteral("inspire_common:") + element); }
    void close() { m_xml.writeEndElement(); }
    // A mandatory value: written empty, with a warning, when the metadata lacks it.
    QString required(const char* key)
    {
        const auto v = get(key);
        if (!v) warn(QStringLiteral("Mandatory metadata wms_%1 was missing in this context.").arg(QLatin1String(key)));
        return v.value_or(QString());
    }

    void metadataUrl()
    {
        const auto href = get("inspire_metadataurl_href");
        if (!href) {
            warn(QStringLiteral("Mandatory metadata wms_inspire_metadataurl_href was missing in this context."));
            return;
        }
        open(QStringLiteral("MetadataUrl"));
        m_xml.writeAttribute(QStringLiteral("xsi:type"), QStringLiteral("inspire_common:resourceLocatorType"));
        common(QStringLiteral("URL"), *href);
        common(QStringLiteral("MediaType"), required("inspire_metadataurl_format"));
        close();
    }

    void embedded()
    {
        if (const auto locator = get("inspire_resourcelocator")) {
            open(QStringLiteral("ResourceLocator"));
            common(QStringLiteral("URL"), *locator);
            close();
        } else {
            warn(QStringLiteral("Mandatory metadata wms_inspire_resourcelocator was missing in this context."));
        }
        common(QStringLiteral("ResourceType"), QStringLiteral("service"));
        const QString revised = required("inspire_temporal_reference");
        open(QStringLiteral("TemporalReference"));
        common(QStringLiteral("DateOfLastRevision"), revised);
        close();
        open(QStringLiteral("Conformity"));
        open(QStringLiteral("Specification"));
        common(QStringLiteral("Title"), QStringLiteral("-"));
        common(QStringLiteral("DateOfLastRevision"), revised);
        close();
        common(QStringLiteral("Degree"), QStringLiteral("notEvaluated"));
        close();
        open(QStringLiteral("MetadataPointOfContact"));
        common(QStringLiteral("OrganisationName"), required("inspire_mpoc_name"));
        common(QStringLiteral("EmailAddress"), required("inspire_mpoc_email"));
        close();
        common(QStringLiteral("MetadataDate"), required("inspire_metadatadate"));
        common(QStringLiteral("SpatialDataServiceType"), QStringLiteral("view"));
        open(QStringLiteral("MandatoryKeyword"));
        common(QStringLiteral("KeywordValue"), required("inspire_keyword"));
        close();
    }

    void languages()
    {
        const QStringList all = wmsLanguages(m_w.ctx.map);
        if (all.isEmpty() || !m_w.language) {
            warn(QStringLiteral("Mandatory metadata wms_languages was missing in this context."));
            return;
        }
        const auto language = [this](const QString& wrapper, const QString& code) {
            open(wrapper);
            common(QStringLiteral("Language"), code);
            close();
        };
        open(QStringLiteral("SupportedLanguages"));
        language(QStringLiteral("DefaultLanguage"), all.first());
        for (const QString& l : all)
            if (l != all.first()) language(QStringLiteral("SupportedLanguage"), l);
        close();
        language(QStringLiteral("ResponseLanguage"), *m_w.language);
    }

    CapabilitiesWriter& m_w;
    QXmlStreamWriter& m_xml;
    const KeyValues& m_md;
};

}  // namespace

void writeInspireExtendedCapabilities(CapabilitiesWriter& w, bool declareNamespaces)
{
    InspireWriter(w).write(declareNamespaces);
}

}  // namespace maptune
