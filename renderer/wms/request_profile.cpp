#include "wms/request_profile.h"

#include "trace/trace_json.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace maptune {

bool wantsProfile(const WmsRequest& request)
{
    const std::optional<QString> value = request.value(QStringLiteral("MAPTUNE_PROFILE"));
    return value && value->compare(QLatin1String("json"), Qt::CaseInsensitive) == 0;
}

Response profileResponse(const Response& answered)
{
    QJsonObject o{{QStringLiteral("status"), answered.status},
                  {QStringLiteral("contentType"), QString::fromLatin1(answered.contentType())},
                  {QStringLiteral("bytes"), answered.body.size()}};
    o.insert(QStringLiteral("trace"), answered.trace ? QJsonValue(traceToJsonObject(*answered.trace)) : QJsonValue());
    if (answered.status >= 400 || !answered.contentType().startsWith("image/"))
        o.insert(QStringLiteral("body"), QString::fromUtf8(answered.body.left(4096)));
    Response r;
    r.status = 200;
    r.setContentType("application/json");
    r.headers.append({QByteArray("Cache-Control"), QByteArray("no-store")});  // SQL and timings: never for a shared cache
    r.body = QJsonDocument(o).toJson(QJsonDocument::Indented);
    r.trace = answered.trace;
    r.subject = answered.subject;
    return r;
}

bool isLoopbackAddress(const QByteArray& address)
{
    return address.startsWith("127.") || address == "::1" || address.startsWith("::ffff:127.") ||
           address == "localhost";
}

}  // namespace maptune
