#pragma once
// The mapfiles every whole-file test runs over: the project's own test maps
// and, where this checkout has ../shared (CI does), MapServer's regression maps.

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QTest>

inline void addMapfileCorpusRows()
{
    QTest::addColumn<QString>("path");
    QDirIterator own(QStringLiteral(MAPTUNE_TEST_DATA "/mapfile"), {QStringLiteral("*.map")}, QDir::Files);
    while (own.hasNext()) {
        const QString p = own.next();
        QTest::newRow(qPrintable("own/" + QFileInfo(p).fileName())) << p;
    }
    const QDir conformance(QDir::cleanPath(QStringLiteral(MAPTUNE_SOURCE_DIR "/../shared/conformance/msautotest")));
    if (!conformance.exists()) return;
    for (const char* sub : {"gdal", "misc", "query", "renderers", "wxs"}) {
        const QDir d(conformance.filePath(QLatin1String(sub)));
        for (const QString& f : d.entryList({QStringLiteral("*.map")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(QStringLiteral("%1/%2").arg(QLatin1String(sub), f))) << d.filePath(f);
    }
}
