#pragma once
// What the WMS test executables share: their two mapfiles served, and a
// reader of the OGC exception reports they check.

#include "mapfile/map_loader.h"
#include "wms/wms_service.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <QXmlStreamReader>

#include <memory>

namespace maptune::test {

struct ExceptionInfo {
    bool isReport = false;
    QString version;
    QString code;
    QString text;
};

inline ExceptionInfo parseException(const QByteArray& body)
{
    ExceptionInfo info;
    QXmlStreamReader xml(body);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("ServiceExceptionReport")) {
            info.isReport = true;
            info.version = xml.attributes().value(QLatin1String("version")).toString();
        } else if (xml.name() == QLatin1String("ServiceException")) {
            info.code = xml.attributes().value(QLatin1String("code")).toString();
            info.text = xml.readElementText().trimmed();
        }
    }
    if (xml.hasError()) info.isReport = false;
    return info;
}

// A test class over tests/data/wms: inline.map, and escaping.map with markup
// and non-ASCII everywhere. initTestCase calls loadMaps().
class WmsTestCase : public QObject {
protected:
    bool loadMaps()
    {
        const LoadResult plain = loadMapFile(QStringLiteral(MAPTUNE_TEST_DATA "/wms/inline.map"));
        const LoadResult escaping = loadMapFile(QStringLiteral(MAPTUNE_TEST_DATA "/wms/escaping.map"));
        if (!plain.ok() || !escaping.ok()) return false;
        m_service = std::make_unique<WmsService>(plain.map);
        m_escaping = std::make_unique<WmsService>(escaping.map);
        return true;
    }
    const WmsService& service() const { return *m_service; }
    Response ask(const QString& query) const { return m_service->handle(WmsRequest::fromQueryString(query.toUtf8())); }
    Response askEscaping(const QString& query) const
    {
        return m_escaping->handle(WmsRequest::fromQueryString(query.toUtf8()));
    }

private:
    std::unique_ptr<WmsService> m_service, m_escaping;
};

}  // namespace maptune::test
