#pragma once
// Reading the OGC exception reports the WMS tests check.

#include <QByteArray>
#include <QString>
#include <QXmlStreamReader>

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

}  // namespace maptune::test
