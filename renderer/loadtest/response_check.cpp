#include "loadtest/response_check.h"

#include <QList>

namespace maptune {

QString ResponseCheck::imageKind(const QByteArray& body)
{
    static const std::pair<QByteArray, const char*> kMagic[] = {
        {QByteArray("\x89PNG\r\n\x1a\n", 8), "png"}, {QByteArray("\xff\xd8\xff", 3), "jpeg"},
        {QByteArray("GIF8"), "gif"},                 {QByteArray("II*\x00", 4), "tiff"},
        {QByteArray("MM\x00*", 4), "tiff"},          {QByteArray("RIFF"), "webp"},
    };
    for (const auto& [magic, kind] : kMagic)
        if (body.startsWith(magic)) return QString::fromLatin1(kind);
    return {};
}

std::optional<std::pair<int, int>> ResponseCheck::pngSize(const QByteArray& body)
{
    if (body.size() < 24 || body.mid(12, 4) != "IHDR") return std::nullopt;
    auto be32 = [&](int at) {
        const auto* p = reinterpret_cast<const unsigned char*>(body.constData() + at);
        return int((quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | quint32(p[3]));
    };
    return std::pair{be32(16), be32(20)};
}

QString ResponseCheck::kindOfFormat(const QString& format)
{
    const QString f = format.toLower();
    for (const char* kind : {"png", "jpeg", "gif", "tiff", "webp"})
        if (f.contains(QLatin1String(kind))) return QString::fromLatin1(kind);
    if (f.contains(QLatin1String("jpg"))) return QStringLiteral("jpeg");
    return {};
}

QString ResponseCheck::preview(const QByteArray& body, int maxBytes)
{
    QString out;
    for (int i = 0; i < body.size() && i < maxBytes; ++i) {
        const auto c = static_cast<unsigned char>(body[i]);
        if (c >= 0x20 && c < 0x7f)
            out += QLatin1Char(char(c));
        else if (c == '\n' || c == '\r' || c == '\t')
            out += QLatin1Char(' ');
        else
            out += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
    }
    if (body.size() > maxBytes) out += QStringLiteral("...");
    return out;
}

ResponseVerdict ResponseCheck::classify(int status, const QByteArray& contentType, const QByteArray& body, int width,
                                        int height, bool checkSize, const QString& expectedKind)
{
    ResponseVerdict v;
    v.kind = imageKind(body);
    const QByteArray mime = contentType.split(';').first().trimmed();
    const bool exception = body.left(2048).contains("ServiceException");
    if (status != 200) {
        v.reason = QStringLiteral("HTTP %1").arg(status);
    } else if (exception && v.kind.isEmpty()) {
        v.reason = QStringLiteral("ServiceException (%1)").arg(QString::fromLatin1(mime));
    } else if (!contentType.startsWith("image/")) {
        v.reason = QStringLiteral("content-type %1").arg(QString::fromLatin1(mime));
    } else if (v.kind.isEmpty()) {
        v.reason = QStringLiteral("body is not an image");
    } else if (!expectedKind.isEmpty() && v.kind != expectedKind) {
        v.reason = QStringLiteral("%1 body, %2 asked").arg(v.kind, expectedKind);
    } else if (checkSize && v.kind == QLatin1String("png") && pngSize(body) != std::pair{width, height}) {
        const auto s = pngSize(body);
        v.reason = s ? QStringLiteral("png size (%1, %2)").arg(s->first).arg(s->second) : QStringLiteral("png size None");
    } else {
        v.ok = true;
    }
    return v;
}

}  // namespace maptune
