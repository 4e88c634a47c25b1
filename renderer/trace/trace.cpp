#include "trace/trace.h"

#include <QTextStream>

namespace maptune {

namespace {
QString quoted(QString s)
{
    s.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QLatin1Char('"') + s + QLatin1Char('"');
}
QString ms(double v) { return QString::number(v, 'f', 3); }
}  // namespace

double Trace::dbMs() const
{
    double sum = 0;
    for (const auto& l : layers)
        for (const auto& d : l.db) sum += d.poolWaitMs + d.connectMs + d.queryMs + d.fetchMs;
    return sum;
}

QString Trace::serverTiming() const
{
    QStringList parts;
    for (const auto& l : layers) {
        if (l.skipped) continue;
        parts << QStringLiteral("layer;desc=%1;dur=%2").arg(quoted(l.layer), ms(l.totalMs));
        double db = 0;
        for (const auto& d : l.db) db += d.poolWaitMs + d.connectMs + d.queryMs + d.fetchMs;
        if (!l.db.isEmpty()) parts << QStringLiteral("db;desc=%1;dur=%2").arg(quoted(l.layer), ms(db));
    }
    if (labelMs > 0) parts << QStringLiteral("label;dur=%1").arg(ms(labelMs));
    parts << QStringLiteral("encode;dur=%1").arg(ms(encodeMs));
    parts << QStringLiteral("total;dur=%1").arg(ms(totalMs));
    return parts.join(QLatin1String(", "));
}

QString Trace::table() const
{
    QString out;
    QTextStream ts(&out);
    ts << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9\n")
              .arg(QStringLiteral("layer"), -20)
              .arg(QStringLiteral("open"), 9)
              .arg(QStringLiteral("read"), 9)
              .arg(QStringLiteral("lut"), 9)
              .arg(QStringLiteral("draw"), 9)
              .arg(QStringLiteral("label"), 9)
              .arg(QStringLiteral("total"), 9)
              .arg(QStringLiteral("features"), 9)
              .arg(QStringLiteral("pixels"), 10);
    for (const auto& l : layers) {
        if (l.skipped) continue;
        ts << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9\n")
                  .arg(l.layer.left(20), -20)
                  .arg(ms(l.openMs), 9)
                  .arg(ms(l.readMs), 9)
                  .arg(ms(l.lutMs), 9)
                  .arg(ms(l.drawMs), 9)
                  .arg(ms(l.labelMs), 9)
                  .arg(ms(l.totalMs), 9)
                  .arg(l.features, 9)
                  .arg(l.pixels, 10);
        for (const auto& d : l.db)
            ts << QStringLiteral("  db: pool_wait=%1 connect=%2 query=%3 fetch=%4 rows=%5 bytes=%6%7\n")
                      .arg(ms(d.poolWaitMs), ms(d.connectMs), ms(d.queryMs), ms(d.fetchMs))
                      .arg(d.rows)
                      .arg(d.bytes)
                      .arg(d.prepared ? QStringLiteral(" prepared") : QString());
        if (l.computeMs > 0 || !l.computePhase.isEmpty())
            ts << QStringLiteral("  %1: %2 ms\n").arg(l.computePhase, ms(l.computeMs));
        if (l.labelsTried > 0)
            ts << QStringLiteral("  labels: %1 placements tried, %2 placed\n").arg(l.labelsTried).arg(l.labelsPlaced);
        if (!l.error.isEmpty()) ts << QStringLiteral("  error: %1\n").arg(l.error);
    }
    ts << QStringLiteral("label %1 ms, encode %2 ms (%3 bytes), total %4 ms\n")
              .arg(ms(labelMs), ms(encodeMs))
              .arg(bytes)
              .arg(ms(totalMs));
    return out;
}

}  // namespace maptune
