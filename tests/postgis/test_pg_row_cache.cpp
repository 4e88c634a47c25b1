// The row cache without a database: tuple ids from their binary form, rows
// packed and read back, lookups by tuple version, snapshots that do not see
// later rows, a table file that changes, and the byte budget.

#include "data/postgis/pg_row_cache.h"

#include <QtTest>

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

QTEST_GUILESS_MAIN(TestPgRowCache)
#include "test_pg_row_cache.moc"
