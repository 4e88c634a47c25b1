#pragma once
// Is a GetMap answer a good image? The rules of ../shared/bench/benchlib.py:
// HTTP 200, an image/* Content-Type, a body starting with an image's magic
// bytes and, for PNG, the requested width and height in IHDR. We also
// recognise an OGC ServiceException (often served with status 200) and a
// body of another format than the one asked for.

#include <QByteArray>
#include <QString>

#include <optional>
#include <utility>

namespace maptune {

struct ResponseVerdict {
    bool ok = false;
    QString reason;     // empty when ok: "HTTP 500", "ServiceException", ...
    QString kind;       // png jpeg gif tiff webp, or empty
};

class ResponseCheck {
public:
    // expectedKind: "png", "jpeg"... from the request's FORMAT; empty: any image.
    static ResponseVerdict classify(int status, const QByteArray& contentType, const QByteArray& body, int width,
                                    int height, bool checkSize = true, const QString& expectedKind = {});

    static QString imageKind(const QByteArray& body);
    static std::optional<std::pair<int, int>> pngSize(const QByteArray& body);
    // The image kind a FORMAT value (image/png, image/png; mode=8bit, png...) asks for.
    static QString kindOfFormat(const QString& format);
    // The first bytes of a bad body, printable (other bytes as \xNN).
    static QString preview(const QByteArray& body, int maxBytes = 160);
};

}  // namespace maptune
