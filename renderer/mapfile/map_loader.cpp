#include "mapfile/map_loader.h"

#include "mapfile/map_lexer.h"
#include "mapfile/map_parser.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace maptune {

namespace {

QString resolve(const QString& base, const QString& path)
{
    if (QFileInfo(path).isAbsolute()) return QDir::cleanPath(path);
    return QDir::cleanPath(QDir(base).filePath(path));
}

void loadSymbolSet(MapDef& map, const QString& baseDir, const SourcePos& where, Diagnostics& diags)
{
    const QString file = resolve(baseDir, map.symbolSet);
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) {
        diags.append({Diagnostic::Severity::Error, where,
                      QStringLiteral("cannot open SYMBOLSET file '%1': %2").arg(file, f.errorString())});
        return;
    }
    map.includedFiles.append(file);
    MapLexer lexer(f.readAll(), file, QFileInfo(file).path(), diags);
    MapParser parser(lexer, diags);
    map.symbols.append(parser.parseSymbolSet());
    for (const QString& inc : lexer.includedFiles())
        if (!map.includedFiles.contains(inc)) map.includedFiles.append(inc);
}

// "alias path" per line; the font files themselves are only checked when drawing.
void loadFontSet(MapDef& map, const QString& baseDir, const SourcePos& where, Diagnostics& diags)
{
    const QString file = resolve(baseDir, map.fontSet);
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        diags.append({Diagnostic::Severity::Error, where,
                      QStringLiteral("cannot open FONTSET file '%1': %2").arg(file, f.errorString())});
        return;
    }
    map.includedFiles.append(file);
    const QDir fontDir = QFileInfo(file).absoluteDir();
    int lineNo = 0;
    while (!f.atEnd()) {
        ++lineNo;
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        const int split = line.indexOf(QRegularExpression(QStringLiteral("\\s")));
        if (split < 0) {
            diags.append({Diagnostic::Severity::Warning, {file, lineNo, 1},
                          QStringLiteral("FONTSET line has an alias but no font file (expected \"alias path\")")});
            continue;
        }
        QString path = line.mid(split).trimmed();
        if (path.size() >= 2 && (path.startsWith(QLatin1Char('"')) || path.startsWith(QLatin1Char('\''))) &&
            path.endsWith(path[0]))
            path = path.mid(1, path.size() - 2);
        map.fonts.set(line.left(split), QDir::cleanPath(fontDir.absoluteFilePath(path)));
    }
}

LoadResult parse(const QByteArray& text, const QString& displayPath, TokenRoles* roles = nullptr)
{
    LoadResult result;
    const QString baseDir = displayPath.isEmpty() ? QStringLiteral(".") : QFileInfo(displayPath).path();
    MapLexer lexer(text, displayPath, baseDir, result.diagnostics);
    MapParser parser(lexer, result.diagnostics);
    parser.setRoles(roles);
    result.map = parser.parseMap();
    if (!result.map) return result;
    MapDef& map = *result.map;
    map.path = displayPath.isEmpty() ? QString() : QFileInfo(displayPath).absoluteFilePath();
    map.includedFiles = lexer.includedFiles();
    if (!map.symbolSet.isEmpty()) loadSymbolSet(map, baseDir, parser.symbolSetPos, result.diagnostics);
    if (!map.fontSet.isEmpty()) loadFontSet(map, baseDir, parser.fontSetPos, result.diagnostics);
    return result;
}

}  // namespace

LoadResult loadMapFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        LoadResult result;
        result.diagnostics.append({Diagnostic::Severity::Error, {path, 0, 0},
                                   QStringLiteral("cannot open mapfile: %1").arg(f.errorString())});
        return result;
    }
    return parse(f.readAll(), path);
}

LoadResult parseMapText(const QByteArray& text, const QString& virtualPath)
{
    return parse(text, virtualPath);
}

LoadResult parseMapText(const QByteArray& text, const QString& virtualPath, TokenRoles* roles)
{
    return parse(text, virtualPath, roles);
}

}  // namespace maptune
