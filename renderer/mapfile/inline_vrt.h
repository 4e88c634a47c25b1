#pragma once
// An OGR layer's CONNECTION may be a whole VRT document
// ('<OGRVRTDataSource>...<SrcDataSource>data/x</SrcDataSource>...'), which
// OGR opens from the string itself. The files it reads are its
// SrcDataSource elements: those are what the data roots must allow, and a
// relative one is taken from the mapfile's folder (MapServer takes it from
// its working directory, which for mapserv is seldom the mapfile's).

#include <QString>
#include <QStringList>

namespace maptune {

bool isInlineVrt(const QString& connection);
// The SrcDataSource values, as written (XML entities decoded).
QStringList inlineVrtSources(const QString& vrt);
// The document with each relative SrcDataSource made absolute against
// `baseDir` (relativeToVRT="1" too: the document has no file to be relative to).
QString withAbsoluteVrtSources(const QString& vrt, const QString& baseDir);

}  // namespace maptune
