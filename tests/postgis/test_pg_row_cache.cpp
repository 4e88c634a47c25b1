// The row cache without a database: tuple ids from their binary form, rows
// packed and read back, lookups by tuple version, snapshots that do not see
// later rows, a table file that changes, the byte budget, and tables kept
// whole (float boxes as PostGIS rounds them, table order, rationed reads).

#include "data/postgis/pg_row_cache.h"
#include "data/postgis/pg_whole_table.h"

#include <QtTest>

#include <cfloat>
#include <cmath>
#include <limits>

using namespace maptune;

namespace {

Geometry line(std::initializer_list<double> xy, std::vector<int> parts = {0})
{
    Geometry g;
    g.type = Geometry::Type::Line;
    g.xy = xy;
    g.partStart = std::move(parts);
    return g;
}

PgRowBatch batchOf(std::initializer_list<std::pair<PgTupleId, QByteArray>> rows)
{
    PgRowBatch b;
    for (const auto& [id, name] : rows) {
        const QByteArrayView v(name);
        b.add(id, line({double(id.block), double(id.offset), 1, 1}), &v, 1);
    }
    return b;
}

QStringList valuesOf(const unsigned char* row)
{
    QStringList out;
    PgCachedRow(row).forEachValue([&](int, QByteArrayView v) { out << (v.data() ? QString::fromUtf8(v) : QStringLiteral("<null>")); });
    return out;
}

}  // namespace

class TestPgRowCache : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tupleIdFromBinary();
    void rowsPackedAndReadBack();
    void findsOnlyTheSameTupleVersion();
    void snapshotsDoNotSeeLaterRows();
    void anotherTableFileStartsOver();
    void budgetLeavesRowsOut();
    void scopesReleaseTheirBytes();
    void floatBoxesRoundOutward();
    void wholeTableInTableOrder();
    void wholeTableReadsAreRationed();
};

void TestPgRowCache::tupleIdFromBinary()
{
    // tid (0x00010203, 0x0405), xid 0x0A0B0C0D -- network order, as tidsend/xidsend write them.
    const char tid[] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05};
    const char xid[] = {0x0A, 0x0B, 0x0C, 0x0D};
    PgTupleId id;
    QVERIFY(PgTupleId::fromBinary(tid, 6, xid, 4, id));
    QCOMPARE(id.block, 0x00010203u);
    QCOMPARE(id.offset, quint16(0x0405));
    QCOMPARE(id.xmin, 0x0A0B0C0Du);
    QCOMPARE(id.ctidText(), QByteArray("(66051,1029)"));
    QVERIFY(!PgTupleId::fromBinary(tid, 5, xid, 4, id));
    QVERIFY(!PgTupleId::fromBinary(tid, 6, xid, 8, id));
    const char zeroOffset[] = {0, 0, 0, 1, 0, 0};
    QVERIFY(!PgTupleId::fromBinary(zeroOffset, 6, xid, 4, id));  // line pointers count from 1
}

void TestPgRowCache::rowsPackedAndReadBack()
{
    PgRowBatch b;
    const Geometry twoParts = line({0, 0, 1, 1, 2, 2, 5, 5, 6, 7}, {0, 3});
    const QByteArray name = QByteArrayLiteral("Å road"), empty;
    const QByteArrayView values[] = {QByteArrayView(name), QByteArrayView(), QByteArrayView(empty.constData() ? empty.constData() : "", 0)};
    b.add({1, 2, 3}, twoParts, values, 3);
    b.add({1, 3, 3}, Geometry(), nullptr, 0);  // a row without geometry
    QCOMPARE(b.size(), size_t(2));
    QCOMPARE(reinterpret_cast<quintptr>(b.rowData(1)) % 8, quintptr(0));  // doubles stay aligned

    Geometry g;
    const PgCachedRow first(b.rowData(0));
    QVERIFY(first.hasGeometry());
    first.geometryInto(g);
    QCOMPARE(int(g.type), int(Geometry::Type::Line));
    QCOMPARE(g.xy, twoParts.xy);
    QCOMPARE(g.partStart, twoParts.partStart);
    QCOMPARE(valuesOf(b.rowData(0)), (QStringList{QStringLiteral("Å road"), QStringLiteral("<null>"), QString()}));
    QVERIFY(!PgCachedRow(b.rowData(1)).hasGeometry());
    QVERIFY(valuesOf(b.rowData(1)).isEmpty());
}

void TestPgRowCache::findsOnlyTheSameTupleVersion()
{
    PgRowCache cache(1 << 20);
    auto scope = cache.scope(QStringLiteral("db"), QStringLiteral("SELECT a"));
    QCOMPARE(scope->publish(7, batchOf({{{0, 1, 100}, "a"}, {{0, 2, 100}, "b"}, {{3, 1, 101}, "c"}})), size_t(3));
    const PgRowCacheSnapshotPtr s = scope->snapshot();
    QCOMPARE(s->tableFile(), 7u);
    QCOMPARE(s->rows(), size_t(3));
    QCOMPARE(valuesOf(s->find({0, 2, 100})), QStringList{"b"});
    QCOMPARE(valuesOf(s->find({3, 1, 101})), QStringList{"c"});
    QVERIFY(!s->find({0, 2, 101}));  // the row at (0,2) was updated: another xmin
    QVERIFY(!s->find({0, 3, 100}));  // a line pointer not cached
    QVERIFY(!s->find({1, 1, 100}));  // a block not cached
    QVERIFY(!s->find({9, 1, 100}));  // past the last block

    // A newer version at the same line pointer replaces the old one.
    QCOMPARE(scope->publish(7, batchOf({{{0, 2, 200}, "b2"}})), size_t(1));
    const PgRowCacheSnapshotPtr t = scope->snapshot();
    QVERIFY(!t->find({0, 2, 100}));
    QCOMPARE(valuesOf(t->find({0, 2, 200})), QStringList{"b2"});
    QCOMPARE(t->rows(), size_t(3));
    // The same scope for the same connection and shape; another for another shape.
    QCOMPARE(cache.scope(QStringLiteral("db"), QStringLiteral("SELECT a")), scope);
    QVERIFY(cache.scope(QStringLiteral("db"), QStringLiteral("SELECT b")) != scope);
}

void TestPgRowCache::snapshotsDoNotSeeLaterRows()
{
    PgRowCache cache(1 << 20);
    auto scope = cache.scope(QStringLiteral("db"), QStringLiteral("SELECT a"));
    scope->publish(7, batchOf({{{0, 1, 100}, "a"}}));
    const PgRowCacheSnapshotPtr before = scope->snapshot();
    scope->publish(7, batchOf({{{0, 2, 100}, "b"}, {{0, 1, 300}, "a2"}}));
    // The draw that took `before` keeps reading what it began with.
    QCOMPARE(valuesOf(before->find({0, 1, 100})), QStringList{"a"});
    QVERIFY(!before->find({0, 2, 100}));
    QCOMPARE(before->rows(), size_t(1));
    QCOMPARE(scope->snapshot()->rows(), size_t(2));
}

void TestPgRowCache::anotherTableFileStartsOver()
{
    PgRowCache cache(1 << 20);
    auto scope = cache.scope(QStringLiteral("db"), QStringLiteral("SELECT a"));
    scope->publish(7, batchOf({{{0, 1, 100}, "a"}, {{0, 2, 100}, "b"}}));
    const size_t bytesBefore = cache.bytes();
    QVERIFY(bytesBefore > 0);
    // VACUUM FULL moved the rows to file 8: (0,1) may now hold another row with the same xmin.
    scope->publish(8, batchOf({{{0, 1, 100}, "b"}}));
    const PgRowCacheSnapshotPtr s = scope->snapshot();
    QCOMPARE(s->tableFile(), 8u);
    QCOMPARE(s->rows(), size_t(1));
    QCOMPARE(valuesOf(s->find({0, 1, 100})), QStringList{"b"});
    QVERIFY(!s->find({0, 2, 100}));
    QVERIFY(cache.bytes() < bytesBefore);
}

void TestPgRowCache::budgetLeavesRowsOut()
{
    const PgRowBatch one = batchOf({{{0, 1, 1}, "a"}});
    const size_t perBatch = one.bytes() + 2 * sizeof(void*);  // the row and its slot in the page
    PgRowCache cache(perBatch * 2);
    auto scope = cache.scope(QStringLiteral("db"), QStringLiteral("SELECT a"));
    QCOMPARE(scope->publish(1, batchOf({{{0, 1, 1}, "a"}})), size_t(1));
    QCOMPARE(scope->publish(1, batchOf({{{0, 2, 1}, "b"}})), size_t(1));
    QVERIFY(cache.bytes() <= cache.budgetBytes());
    // Full: a draw that mostly found its rows keeps them; the new ones are left out.
    scope->recordMisses(10, 1);
    QCOMPARE(scope->publish(1, batchOf({{{0, 3, 1}, "c"}})), size_t(0));
    QVERIFY(!scope->snapshot()->find({0, 3, 1}));
    QVERIFY(scope->snapshot()->find({0, 1, 1}));
    // Draws that keep missing: the scope starts over with their rows.
    scope->recordMisses(10, 10);
    QCOMPARE(scope->publish(1, batchOf({{{0, 4, 1}, "d"}})), size_t(1));
    QVERIFY(scope->snapshot()->find({0, 4, 1}));
    QVERIFY(!scope->snapshot()->find({0, 1, 1}));
    QVERIFY(cache.bytes() <= cache.budgetBytes());
    // ... but not again within PgRowCacheScope::kRefillInterval.
    QCOMPARE(scope->publish(1, batchOf({{{0, 5, 1}, "e"}})), size_t(1));
    QCOMPARE(scope->publish(1, batchOf({{{0, 6, 1}, "f"}})), size_t(0));
    QVERIFY(scope->snapshot()->find({0, 4, 1}));
}

void TestPgRowCache::scopesReleaseTheirBytes()
{
    PgRowCache cache(1 << 20);
    {
        auto scope = cache.scope(QStringLiteral("db"), QStringLiteral("SELECT a"));
        scope->publish(1, batchOf({{{0, 1, 1}, "a"}}));
        QVERIFY(cache.bytes() > 0);
        scope->clear();
        QCOMPARE(cache.bytes(), size_t(0));
        QVERIFY(!scope->snapshot());
        scope->publish(1, batchOf({{{0, 1, 1}, "a"}}));
    }
    QVERIFY(cache.bytes() > 0);  // the cache holds its scopes
}

void TestPgRowCache::floatBoxesRoundOutward()
{
    // Exact floats stay; others widen to the next float out.
    const PgBox2f exact = PgBox2f::outward(1, -2, 0.5, 100);
    QCOMPARE(exact.xmin, 1.0f);
    QCOMPARE(exact.ymin, -2.0f);
    QCOMPARE(exact.ymax, 100.0f);
    const PgBox2f b = PgBox2f::outward(0.1, -0.1, 0.1, -0.1);
    QVERIFY(double(b.xmin) < 0.1 && double(b.xmax) > 0.1);
    QVERIFY(double(b.ymin) < -0.1 && double(b.ymax) > -0.1);
    QCOMPARE(std::nextafter(b.xmin, 1.0f), b.xmax);  // one float apart
    const PgBox2f huge = PgBox2f::outward(-1e300, -1e300, 1e300, 1e300);
    QCOMPARE(huge.xmin, -FLT_MAX);
    QCOMPARE(huge.xmax, FLT_MAX);
    // Touching edges overlap, as `&&` has them.
    const PgBox2f unit{0, 0, 1, 1};
    QVERIFY(unit.overlaps({1, 1, 2, 2}));
    QVERIFY(unit.overlaps({-1, 0.5, 0, 0.6}));
    QVERIFY(!unit.overlaps({1.0001f, 0, 2, 1}));
    QVERIFY(!unit.overlaps({0, -2, 1, -0.0001f}));
}

void TestPgRowCache::wholeTableInTableOrder()
{
    PgRowCache cache(1 << 20);
    auto scope = cache.scope(QStringLiteral("db"), QStringLiteral("SELECT a"));
    QVERIFY(scope->beginWholeRead());
    PgWholeTableRows rows;
    const QByteArrayView a("a"), b("b"), c("c"), d("d");
    QVERIFY(rows.add({2, 1, 7}, line({10, 10, 11, 11}), &a, 1));
    QVERIFY(rows.add({0, 3, 7}, line({0, 0, 1, 1}), &b, 1));
    QVERIFY(rows.add({0, 1, 7}, Geometry(), &c, 1));  // no geometry: in the cache, never drawn
    QVERIFY(rows.add({1, 1, 7}, line({0.5, 0.5, 20, 0.7}), &d, 1));
    const PgWholeTablePtr whole = scope->publishWhole(4, "10:10:", std::move(rows));
    QVERIFY(whole);
    QCOMPARE(whole->dbSnapshot(), QByteArray("10:10:"));
    QCOMPARE(whole->rows(), size_t(3));
    auto drawn = [&](const PgBox2f* box) {
        QStringList out;
        for (size_t i = whole->nextOverlapping(0, box); i < whole->rows(); i = whole->nextOverlapping(i + 1, box))
            whole->row(i).forEachValue([&](int, QByteArrayView v) { out << QString::fromUtf8(v); });
        return out;
    };
    QCOMPARE(drawn(nullptr), (QStringList{"b", "d", "a"}));  // by ctid
    const PgBox2f box{0.9f, 0.6f, 5, 5};
    QCOMPARE(drawn(&box), (QStringList{"b", "d"}));
    // The scope started over with every row, found by tuple version.
    const PgRowCacheSnapshotPtr snap = scope->snapshot();
    QCOMPARE(snap->rows(), size_t(4));
    QCOMPARE(valuesOf(snap->find({0, 1, 7})), QStringList{"c"});
    QVERIFY(!snap->find({0, 1, 8}));
    // Dropped, the table answers no draws; its rows stay.
    const size_t held = cache.bytes();
    scope->dropWhole(whole.get());
    QVERIFY(!scope->wholeTable());
    QVERIFY(cache.bytes() < held);
    QCOMPARE(scope->snapshot()->rows(), size_t(4));
    QVERIFY(!scope->beginWholeRead());  // stale at once: not read again for 20 s
    scope->clear();
    QCOMPARE(cache.bytes(), size_t(0));
}

void TestPgRowCache::wholeTableReadsAreRationed()
{
    PgRowCache cache(1 << 20, 100);
    QCOMPARE(cache.wholeTableBytes(), size_t(100));
    QCOMPARE(PgRowCache(1 << 20).wholeTableBytes(), size_t(1 << 18));  // a quarter of the budget
    auto scope = cache.scope(QStringLiteral("db"), QStringLiteral("SELECT a"));
    QVERIFY(scope->beginWholeRead());
    QVERIFY(!scope->beginWholeRead());  // one reader at a time
    PgWholeTableRows rows;
    const QByteArray big(200, 'x');
    const QByteArrayView v(big);
    QVERIFY(rows.add({0, 1, 1}, line({0, 0, 1, 1}), &v, 1));
    QVERIFY(!scope->publishWhole(1, "1:1:", std::move(rows)));  // more than 100 bytes
    QCOMPARE(cache.bytes(), size_t(0));
    QVERIFY(!scope->beginWholeRead());  // not again within kRefillInterval
    PgWholeTableRows emptyPoint;  // WKB's POINT EMPTY
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Geometry p;
    p.type = Geometry::Type::Point;
    p.xy = {nan, nan};
    p.partStart = {0};
    QVERIFY(emptyPoint.add({0, 1, 1}, p, &v, 1));
    PgRowCache roomy(1 << 20);
    auto other = roomy.scope(QStringLiteral("db"), QStringLiteral("SELECT a"));
    QVERIFY(other->beginWholeRead());
    const PgWholeTablePtr noBox = other->publishWhole(1, "1:1:", std::move(emptyPoint));
    QVERIFY(noBox);
    QCOMPARE(noBox->rows(), size_t(0));
    QVERIFY(other->snapshot()->find({0, 1, 1}));
    PgWholeTableRows bad;
    QVERIFY(!bad.add({0, 1, 1}, line({0, 0, nan, 1}), &v, 1));
    QVERIFY(!bad.add({0, 2, 1}, line({0, 0, nan, nan, 10, 10}), &v, 1));  // PostGIS's box would depend on the order
    QVERIFY(!bad.add({0, 3, 1}, line({0, 0, INFINITY, 1}), &v, 1));
    // A read that something committed during puts the next one off too.
    QVERIFY(other->beginWholeRead() == false);  // holds a table
    auto third = roomy.scope(QStringLiteral("db"), QStringLiteral("SELECT b"));
    QVERIFY(third->beginWholeRead());
    third->endWholeReadOutdated();
    QVERIFY(!third->beginWholeRead());
}

QTEST_GUILESS_MAIN(TestPgRowCache)
#include "test_pg_row_cache.moc"
