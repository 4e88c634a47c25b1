#include "wms/wms_request.h"

#include <QUrl>

namespace maptune {

namespace {

QString decodeComponent(QByteArray part)
{
    part.replace('+', ' ');
    return QString::fromUtf8(QByteArray::fromPercentEncoding(part));
}

}  // namespace

WmsRequest WmsRequest::fromQueryString(const QByteArray& rawUrlEncoded)
{
    WmsRequest request;
    for (const QByteArray& pair : rawUrlEncoded.split('&')) {
        if (pair.isEmpty()) continue;
        const qsizetype eq = pair.indexOf('=');
        const QString key = decodeComponent(eq < 0 ? pair : pair.left(eq)).trimmed();
        if (key.isEmpty()) continue;
        request.params.append({key, eq < 0 ? QString() : decodeComponent(pair.mid(eq + 1))});
    }
    return request;
}

std::optional<QString> WmsRequest::value(const QString& key) const
{
    for (const auto& [k, v] : params)
        if (k.compare(key, Qt::CaseInsensitive) == 0) return v;
    return std::nullopt;
}

}  // namespace maptune
