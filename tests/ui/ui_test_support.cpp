#include "ui_test_support.h"

#include "mapfile/map_loader.h"

#include <gdal_priv.h>

#include <QAction>
#include <QFile>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

#include <vector>

namespace maptune::testing {

const char* const kSquares = R"MAP(MAP
  NAME "squares"
  SIZE 100 100
  EXTENT 0 0 100 100
  IMAGECOLOR 255 255 255
  LAYER
    NAME "red"
    TYPE POLYGON
    STATUS ON
    FEATURE WKT "POLYGON((10 60, 40 60, 40 90, 10 90, 10 60))" END
    CLASS
      STYLE COLOR 255 0 0 END
    END
  END
  LAYER
    NAME "blue"
    TYPE POLYGON
    STATUS OFF
    MAXSCALEDENOM 5000
    FEATURE WKT "POLYGON((60 10, 90 10, 90 40, 60 40, 60 10))" END
    CLASS
      STYLE COLOR 0 0 255 END
    END
  END
  LAYER
    NAME "frame"
    TYPE LINE
    STATUS DEFAULT
    FEATURE WKT "LINESTRING(1 1, 99 1, 99 99, 1 99, 1 1)" END
    CLASS
      STYLE COLOR 0 0 0 WIDTH 2 END
    END
  END
END
)MAP";

const char* const kRasterMap = R"MAP(MAP
  NAME "flat"
  SIZE 4 4
  EXTENT 0.5 0.5 3.5 3.5
  LAYER
    NAME "flat"
    TYPE RASTER
    STATUS ON
    DATA "flat.tif"
    PROCESSING "BANDS=1,2,3"
    PROCESSING "LUT=0:0,255:128"
  END
  LAYER
    NAME "plain"
    TYPE RASTER
    STATUS OFF
    DATA "flat.tif"
  END
END
)MAP";

const char* const kParcels = R"MAP(MAP
  NAME "parcels"
  SIZE 100 100
  EXTENT 0 0 100 100
  LAYER
    NAME "parcels"
    TYPE POLYGON
    STATUS ON
    PROCESSING "ITEMS=name,area"
    FEATURE WKT "POLYGON((10 10, 40 10, 40 40, 10 40, 10 10))" ITEMS "alpha;900" END
    FEATURE WKT "POLYGON((50 50, 90 50, 90 90, 50 90, 50 50))" ITEMS "beta;1600" END
    CLASS STYLE COLOR 200 200 200 END END
  END
  LAYER
    NAME "road"
    TYPE LINE
    STATUS ON
    PROCESSING "ITEMS=ref"
    FEATURE WKT "LINESTRING(0 50, 100 50)" ITEMS "main" END
    CLASS STYLE COLOR 0 0 0 END END
  END
END
)MAP";

QByteArray servedSquares()
{
    QByteArray served(kSquares);
    served.replace("  IMAGECOLOR", "  WEB METADATA \"wms_enable_request\" \"*\" \"wms_srs\" \"EPSG:3857\" END END\n"
                                   "  PROJECTION \"init=epsg:3857\" END\n  IMAGECOLOR");
    return served;
}

MapDefPtr squaresMap()
{
    LoadResult r = parseMapText(kSquares, QString());
    return r.ok() ? MapDefPtr(r.map) : nullptr;
}

QString writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) f.write(bytes);
    return path;
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

LayerTrace layerTrace(const QString& name, double totalMs, bool skipped)
{
    LayerTrace t;
    t.layer = name;
    t.totalMs = totalMs;
    t.skipped = skipped;
    return t;
}

bool writeFlatRaster(const QString& path)
{
    GDALDriver* gtiff = GetGDALDriverManager()->GetDriverByName("GTiff");
    if (!gtiff) return false;
    GDALDataset* ds = gtiff->Create(path.toUtf8().constData(), 4, 4, 3, GDT_Byte, nullptr);
    if (!ds) return false;
    double gt[6] = {0, 1, 0, 4, 0, -1};
    ds->SetGeoTransform(gt);
    std::vector<unsigned char> values(16, 100);
    bool ok = true;
    for (int b = 1; b <= 3; ++b)
        ok &= ds->GetRasterBand(b)->RasterIO(GF_Write, 0, 0, 4, 4, values.data(), 4, 4, GDT_Byte, 0, 0) == CE_None;
    GDALClose(ds);
    return ok;
}

QAction* menuAction(QMainWindow& window, const QString& text)
{
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->text().remove(QLatin1Char('&')) == text) return a;
    return nullptr;
}

}  // namespace maptune::testing
