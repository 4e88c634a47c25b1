#include <QTest>
class TestMapfile : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(TestMapfile)
#include "test_mapfile.moc"
