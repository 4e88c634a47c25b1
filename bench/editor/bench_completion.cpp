// Completion and hover help on a 5,000-line mapfile (issue 18: each under
// 10 ms, since both run on a keystroke or mouse stop on the GUI thread).
// Not part of the test suite: run build/bench/editor/bench_completion.

#include "mapfile/syntax/mapfile_completion.h"

#include <benchmark/benchmark.h>

namespace {

// 200 layers of 25 lines each: 5,002 lines with MAP and its END.
QByteArray bigMapfile()
{
    QByteArray text = "MAP\n";
    for (int i = 0; i < 200; ++i) {
        text += "  LAYER\n    NAME \"layer" + QByteArray::number(i) + "\"\n    TYPE POLYGON\n    STATUS ON\n"
                "    DATA \"data/parcels\"\n    CLASSITEM \"kind\"\n    METADATA\n      \"wms_title\" \"Parcels\"\n"
                "      \"wms_srs\" \"EPSG:4326\"\n    END\n    CLASS\n      NAME \"a\"\n      EXPRESSION \"a\"\n"
                "      STYLE\n        COLOR 200 100 50\n        OUTLINECOLOR 0 0 0\n        WIDTH 1\n      END\n"
                "      LABEL\n        SIZE 8\n        COLOR 0 0 0\n      END\n    END\n  END\n  # layer end\n";
    }
    return text + "END\n";
}

const QByteArray& text()
{
    static const QByteArray t = bigMapfile();
    return t;
}

// The cursor in the last STYLE, after "CO": the worst case (everything before it is read).
void BM_CompletionAtEnd(benchmark::State& state)
{
    QByteArray t = text();
    const int at = t.lastIndexOf("WIDTH 1");
    t.insert(at, "CO\n        ");
    const int cursor = at + 2;
    for (auto _ : state) {
        const maptune::CompletionContext ctx = maptune::completionContextAt(t, cursor);
        benchmark::DoNotOptimize(maptune::completionsFor(ctx));
    }
    state.counters["lines"] = double(t.count('\n'));
}
BENCHMARK(BM_CompletionAtEnd)->Unit(benchmark::kMillisecond);

void BM_HoverInTheMiddle(benchmark::State& state)
{
    const int at = text().indexOf("OUTLINECOLOR", text().size() / 2) + 3;
    for (auto _ : state) benchmark::DoNotOptimize(maptune::keywordAt(text(), at));
}
BENCHMARK(BM_HoverInTheMiddle)->Unit(benchmark::kMillisecond);

}  // namespace



BENCHMARK_MAIN();
