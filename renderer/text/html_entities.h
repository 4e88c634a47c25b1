#pragma once
// HTML character references in label text, as MapServer's text layout reads
// them (msGetUnicodeEntity): "&#169;", "&#xA9;" and named ones ("&nbsp;",
// "&copy;", ...). Anything that is no known reference stays as written.

#include <QString>

namespace maptune {

QString decodeHtmlEntities(const QString& text);

}  // namespace maptune
