#pragma once
// A decoded OGC KVP request: parameter names compare case-insensitively, values
// keep their case. The first occurrence of a repeated key wins, as in mapserv.

#include "trace/cancel_token.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace maptune {

struct WmsRequest {
    QList<std::pair<QString, QString>> params;
    // Cancelled by the transport when the request runs over its time limit.
    CancelToken cancel;
    // The URL the client called ("http://host:port/map"), when the transport
    // knows it: capabilities of a map without wms_/ows_onlineresource name it.
    QString selfUrl;

    // "a=1&B=x%20y": '+' is a space, %XX decoded as UTF-8; empty keys are dropped.
    static WmsRequest fromQueryString(const QByteArray& rawUrlEncoded);

    std::optional<QString> value(const QString& key) const;
    bool has(const QString& key) const { return value(key).has_value(); }
};

}  // namespace maptune
