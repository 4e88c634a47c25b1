// The mapfile lexer + parser (parseMapText), then the validator and the writer
// on whatever model came back: the workbench does exactly this with every edit;
// and the lossless formatter (its Format action): same model, idempotent.

#include "fuzz_targets.h"

#include "mapfile/map_formatter.h"
#include "mapfile/map_loader.h"
#include "mapfile/map_validator.h"
#include "mapfile/map_writer.h"

#include <QByteArray>

#include <cstdio>

namespace maptune::fuzz {

namespace {

// INCLUDE, SYMBOLSET and FONTSET open files named by the input; a fuzzer
// reading /dev/zero or the tester's home folder would be neither deterministic
// nor safe, so such inputs are skipped (the include code has its own tests).
bool opensFiles(const QByteArray& text)
{
    const QByteArray lower = text.toLower();
    return lower.contains("include") || lower.contains("symbolset") || lower.contains("fontset");
}

}  // namespace

int mapfile(const uint8_t* data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char*>(data), qsizetype(size));
    if (opensFiles(text)) return -1;  // -1: libFuzzer keeps it out of the corpus
    // A virtual path in a folder that does not exist: nothing relative resolves.
    const LoadResult result = parseMapText(text, QStringLiteral("/nonexistent-maptune-fuzz/fuzz.map"));
    if (!result.map) return 0;
    validateMap(*result.map);
    const QString written = writeMapFile(*result.map);
    // What the workbench saves must read back to the same model (map_writer.h:
    // write(parse(write(m))) == write(m)). Only for text that read without
    // errors: an unterminated string or expression has no faithful mapfile form.
    if (!result.ok()) return 0;
    const LoadResult again = parseMapText(written.toUtf8(), QStringLiteral("/nonexistent-maptune-fuzz/fuzz.map"));
    check(again.map != nullptr, "writeMapFile output parses");
    const QString rewritten = writeMapFile(*again.map);
    if (rewritten != written)
        std::fprintf(stderr, "--- written:\n%s\n--- rewritten:\n%s\n", qPrintable(written), qPrintable(rewritten));
    check(rewritten == written, "writeMapFile is idempotent");

    const QString path = QStringLiteral("/nonexistent-maptune-fuzz/fuzz.map");
    const FormatResult formatted = formatMapText(text, path);
    check(formatted.ok(), "text that parses formats");
    const FormatResult twice = formatMapText(formatted.text.toUtf8(), path);
    check(twice.ok() && twice.text == formatted.text, "formatMapText is idempotent");
    LoadResult before = parseMapText(text, path), after = parseMapText(formatted.text.toUtf8(), path);
    check(before.map && after.map, "formatted text parses");
    clearPositions(*before.map);
    clearPositions(*after.map);
    check(*before.map == *after.map, "formatting keeps the model");
    return 0;
}

}  // namespace maptune::fuzz
