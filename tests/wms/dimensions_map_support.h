#pragma once
// Helpers of the tests that draw tests/data/wms/dimensions.map: which of its
// points an image shows, and what a ServiceException says.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "wms/wms_service.h"

#include <QImage>
#include <QString>
#include <QXmlStreamReader>

#include <memory>

namespace maptune::test {

// The WMS service of tests/data/wms/dimensions.map (engine initialised);
// null when the map does not load.
inline std::unique_ptr<WmsService> dimensionsService()
{
    initEngine();
    LoadResult loaded = loadMapFile(QStringLiteral(MAPTUNE_TEST_DATA "/wms/dimensions.map"));
    return loaded.ok() ? std::make_unique<WmsService>(loaded.map) : nullptr;
}

// The points a map of dimensions.map shows, by name: a (x 10), b (30),
// c (50), d (70), on row 50.
inline QString drawnPoints(const QImage& image)
{
    QString out;
    const char* names = "abcd";
    for (int i = 0; i < 4; ++i)
        if (qGray(image.pixel(10 + 20 * i, 49)) < 128) out += QLatin1Char(names[i]);
    return out;
}

// "code: message" of a ServiceException, or empty.
inline QString serviceExceptionText(const QByteArray& body)
{
    QXmlStreamReader xml(body);
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("ServiceException")) {
            const QString code = xml.attributes().value(QLatin1String("code")).toString();
            return code + QStringLiteral(": ") + xml.readElementText().trimmed();
        }
    return QString();
}

}  // namespace maptune::test
