#include "symbol_preview.h"

#include "render/legend_icon.h"

#include <QBuffer>
#include <QPainter>

namespace maptune {

QImage symbolPreview(const MapDef& map, const QString& name, int size)
{
    if (!map.symbol(name)) return {};
    LayerDef layer;
    layer.type = LayerType::Point;
    ClassDef cls;
    StyleDef style;
    style.symbolName = name;
    style.size = size * 0.6;
    style.color = Color::rgb(40, 40, 40);
    style.outlineColor = Color::rgb(40, 40, 40);
    cls.styles << style;
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    drawLegendIcon(painter, map, layer, cls, QRect(0, 0, size, size));
    painter.end();
    return image;
}

QString symbolPreviewHtml(const MapDef& map, const QString& name)
{
    const QImage image = symbolPreview(map, name);
    if (image.isNull()) return {};
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QStringLiteral("<img src=\"data:image/png;base64,%1\" width=\"%2\" height=\"%2\"/> SYMBOL '%3'")
        .arg(QString::fromLatin1(png.toBase64()))
        .arg(image.width())
        .arg(name.toHtmlEscaped());
}

}  // namespace maptune
