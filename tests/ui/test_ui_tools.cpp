// Workbench tests: the map tools a GIS user expects (QGIS's canvas as the
// yardstick): zoom buttons, zoom to a dragged box, a scale box to type into,
// the identified feature outlined, a click tolerance in pixels.

#include "ui_test_support.h"

#include "editor_panel.h"
#include "identify_panel.h"
#include "layer_list_model.h"
#include "layer_properties_dialog.h"
#include "mapfile_editor.h"
#include "main_window.h"
#include "map_canvas.h"

#include "mapfile/map_loader.h"
#include "render/engine.h"

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QMenu>
#include <QTreeView>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QToolBar>
#include <QTreeWidget>

using namespace maptune;
using namespace maptune::testing;

class TestUiTools : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void toolbarHasTheZoomTools();
    void zoomBoxFitsTheDraggedRectangle_data();
    void zoomBoxFitsTheDraggedRectangle();
    void scaleBoxZoomsToTypedScale_data();
    void scaleBoxZoomsToTypedScale();
    void identifiedFeatureIsOutlined();
    void clickTolerancePixelsFindsAWideRoad();
    void layerListShowsClassLegendKeys();
    void doubleClickOpensTheLayerBlock();
    void layerMenuActions();
    void layerPropertiesHidePasswords();
};

namespace {

bool near(double a, double b, double relative) { return std::abs(a - b) <= relative * std::abs(b); }

// A 6-px road (y = 50) between two parcels, drawn 1 map unit per pixel.
const char* const kWideRoad = R"MAP(MAP
  NAME "wide"
  SIZE 100 100
  EXTENT 0 0 100 100
  LAYER
    NAME "road"
    TYPE LINE
    STATUS ON
    PROCESSING "ITEMS=ref"
    FEATURE WKT "LINESTRING(0 50, 100 50)" ITEMS "main" END
    CLASS STYLE COLOR 0 0 0 WIDTH 6 END END
  END
END
)MAP";

}  // namespace

void TestUiTools::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    initEngine();
}

void TestUiTools::toolbarHasTheZoomTools()
{
    MainWindow window;
    auto* toolbar = window.findChild<QToolBar*>(QStringLiteral("mainToolBar"));
    QVERIFY(toolbar);
    QStringList texts;
    for (QAction* a : toolbar->actions()) texts << a->text();
    for (const char* wanted : {"Zoom &In", "Zoom &Out", "Zoom to &Box", "Zoom to &Full Extent", "&Identify"})
        QVERIFY2(texts.contains(QString::fromLatin1(wanted)), wanted);
    QVERIFY(window.zoomBoxAction()->isCheckable());
    QVERIFY(window.scaleBox()->isEditable());
}

void TestUiTools::zoomBoxFitsTheDraggedRectangle_data()
{
    QTest::addColumn<bool>("shiftDrag");
    QTest::newRow("Zoom to Box tool") << false;
    QTest::newRow("Shift+drag in pan mode") << true;
}

void TestUiTools::zoomBoxFitsTheDraggedRectangle()
{
    QFETCH(bool, shiftDrag);
    MapCanvas canvas;
    canvas.setFixedSize(100, 100);
    canvas.show();  // mouse events go to a shown widget
    QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    canvas.setMap(squaresMap());
    canvas.setExtent({0, 0, 100, 100});
    if (!shiftDrag) canvas.setZoomBoxMode(true);
    const Qt::KeyboardModifiers mods = shiftDrag ? Qt::ShiftModifier : Qt::NoModifier;
    // The box from pixel (10, 10) to (60, 40): map x 10..60, y 60..90.
    QTest::mousePress(&canvas, Qt::LeftButton, mods, QPoint(10, 10));
    QTest::mouseMove(&canvas, QPoint(35, 25));
    QTest::mouseMove(&canvas, QPoint(60, 40));
    QTest::mouseRelease(&canvas, Qt::LeftButton, mods, QPoint(60, 40));
    const Rect e = canvas.extent();
    // Fitted to the square canvas: the box's 50 units wide fill the width.
    QVERIFY2(near(e.width(), 50, 1e-9), qPrintable(QString::number(e.width())));
    QVERIFY(near((e.minx + e.maxx) / 2, 35, 1e-9));
    QVERIFY(near((e.miny + e.maxy) / 2, 75, 1e-9));
    QVERIFY(canvas.canGoBack());  // a view of its own in the history
}

void TestUiTools::scaleBoxZoomsToTypedScale_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<double>("scale");
    QTest::newRow("plain") << "2500" << 2500.0;
    QTest::newRow("1:N") << "1:10000" << 10000.0;
    QTest::newRow("grouped") << "1:25 000" << 25000.0;
    QTest::newRow("not a scale") << "big" << 0.0;
}

void TestUiTools::scaleBoxZoomsToTypedScale()
{
    QFETCH(QString, typed);
    QFETCH(double, scale);
    QTemporaryDir dir;
    QByteArray text(kParcels);
    text.replace("EXTENT 0 0 100 100", "EXTENT 0 0 1000 1000\n  UNITS METERS");
    const QString path = writeFile(dir.filePath("parcels.map"), text);
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openFile(path));
    const double before = window.canvas()->scaleDenominator();
    QVERIFY(before > 0);
    QLineEdit* edit = window.scaleBox()->lineEdit();
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, typed);
    QTest::keyClick(edit, Qt::Key_Return);
    const double after = window.canvas()->scaleDenominator();
    if (scale == 0) QVERIFY(near(after, before, 1e-9));
    else QVERIFY2(near(after, scale, 1e-6), qPrintable(QString::number(after)));
}

void TestUiTools::identifiedFeatureIsOutlined()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("parcels.map"), kParcels);
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openFile(path));
    MapCanvas* canvas = window.canvas();
    canvas->setExtent({0, 0, 100, 100});
    QSignalSpy done(window.identifyPanel(), &IdentifyPanel::finished);
    window.identifyAction()->setChecked(true);
    // A click inside parcel "beta" (50..90).
    const Rect e = canvas->extent();
    const double upp = canvas->view().unitsPerPixel;
    const QPoint click(int((70 - e.minx) / upp), int((e.maxy - 70) / upp));
    QTest::mouseClick(canvas, Qt::LeftButton, Qt::NoModifier, click);
    QVERIFY(done.wait(5000));
    QCOMPARE(canvas->highlight().size(), 1);
    QCOMPARE(canvas->highlight().first().type, Geometry::Type::Polygon);
    // The outline is on screen, along beta's left edge (x = 50).
    const QImage shot = canvas->grab().toImage();
    const QColor edge = shot.pixelColor(int(std::lround((50 - e.minx) / upp)), int(std::lround((e.maxy - 70) / upp)));
    QVERIFY2(edge.red() > 200 && edge.green() < 100 && edge.blue() > 140, qPrintable(edge.name()));
    // Nothing under the next click: the outline goes.
    QTest::mouseClick(canvas, Qt::LeftButton, Qt::NoModifier,
                      QPoint(int((45 - e.minx) / upp), int((e.maxy - 20) / upp)));
    QVERIFY(done.wait(5000));
    QVERIFY(canvas->highlight().isEmpty());
}

void TestUiTools::clickTolerancePixelsFindsAWideRoad()
{
    LoadResult loaded = parseMapText(kWideRoad, QString());
    QVERIFY(loaded.ok());
    const PreparedMapPtr map = PreparedMap::prepare(loaded.map);
    IdentifyPanel panel;
    QSignalSpy done(&panel, &IdentifyPanel::finished);
    // Inside the drawn road, 5 px from its centre line: a line layer's default
    // TOLERANCE (3 px) does not reach it, as in GetFeatureInfo.
    panel.identify(map, {"road"}, QPointF(45, 55), 1.0);
    QVERIFY(done.wait(5000));
    QCOMPARE(done.last().at(0).toInt(), 0);
    // The panel's click tolerance, set like a user does it.
    QSpinBox* tolerance = panel.toleranceBox();
    tolerance->setFocus();
    tolerance->selectAll();
    QTest::keyClicks(tolerance, QStringLiteral("6"));
    QTest::keyClick(tolerance, Qt::Key_Return);
    QCOMPARE(panel.tolerancePixels(), std::optional<double>(6));
    panel.identify(map, {"road"}, QPointF(45, 55), 1.0);
    QVERIFY(done.wait(5000));
    QCOMPARE(done.last().at(0).toInt(), 1);
    QCOMPARE(panel.tree()->topLevelItem(0)->text(0), QStringLiteral("road"));
}

void TestUiTools::layerListShowsClassLegendKeys()
{
    LayerListModel model;
    model.setMap(squaresMap());
    const QModelIndex red = model.index(0, LayerListModel::NameColumn);
    QCOMPARE(model.data(red, Qt::DisplayRole).toString(), QStringLiteral("red"));
    QCOMPARE(model.rowCount(red), 1);  // its one CLASS
    const QModelIndex cls = model.index(0, LayerListModel::NameColumn, red);
    QVERIFY(LayerListModel::isClassRow(cls));
    QCOMPARE(LayerListModel::layerRowOf(cls), 0);
    QCOMPARE(model.parent(cls), red);
    QCOMPARE(model.data(cls, Qt::DisplayRole).toString(), QStringLiteral("class 1"));  // no NAME: numbered
    // The legend key is the class's style: the red square's is red in the middle.
    const QImage icon = model.data(cls, Qt::DecorationRole).value<QImage>();
    QCOMPARE(icon.size(), LayerListModel::kIconSize);
    QCOMPARE(QColor(icon.pixel(icon.width() / 2, icon.height() / 2)), QColor(255, 0, 0));
    // Classes are not layers: no check box, and setData on them does nothing.
    QVERIFY(!(model.flags(cls) & Qt::ItemIsUserCheckable));
    QVERIFY(!model.setData(cls, Qt::Unchecked, Qt::CheckStateRole));
}

void TestUiTools::doubleClickOpensTheLayerBlock()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("squares.map"), kSquares);
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openFile(path));
    QTreeView* view = window.layerView();
    QTRY_VERIFY(view->isExpanded(view->model()->index(0, 0)));  // class keys shown under each layer
    const QModelIndex blue = view->model()->index(1, LayerListModel::NameColumn);
    const QRect rect = view->visualRect(blue);
    QVERIFY(rect.isValid());
    // QTest's double click is press-release-press-double: the view sees a real one.
    // As a mouse does it: press and release, then the second press arrives as a double click.
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    MapfileEditor* editor = window.editorPanel()->editor();
    const QTextCursor cursor = editor->textCursor();
    QCOMPARE(cursor.blockNumber() + 1, 15);  // kSquares: the second LAYER is on line 15
    QVERIFY(cursor.block().text().trimmed().startsWith(QStringLiteral("LAYER")));
}

void TestUiTools::layerMenuActions()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("squares.map"), kSquares);
    MainWindow window;
    QVERIFY(window.openFile(path));
    std::unique_ptr<QMenu> menu(window.layerMenu(0));  // "red", STATUS ON
    QVERIFY(menu);
    QStringList texts;
    QAction* hide = nullptr;
    QAction* properties = nullptr;
    for (QAction* a : menu->actions()) {
        texts << a->text();
        if (a->text() == QStringLiteral("&Hide")) hide = a;
        if (a->text().startsWith(QStringLiteral("&Properties"))) properties = a;
    }
    QVERIFY2(texts.contains(QStringLiteral("&Zoom to Layer")), qPrintable(texts.join(", ")));
    QVERIFY(texts.contains(QStringLiteral("Show in &Editor")));
    QVERIFY(hide && properties);
    QSignalSpy visibility(window.layerModel(), &LayerListModel::visibilityChanged);
    hide->trigger();
    QCOMPARE(visibility.count(), 1);
    QVERIFY(!window.layerModel()->visibleLayers().contains(QStringLiteral("red")));
    // Now the same menu offers to show it again.
    std::unique_ptr<QMenu> again(window.layerMenu(0));
    bool show = false;
    for (QAction* a : again->actions()) show = show || a->text() == QStringLiteral("&Show");
    QVERIFY(show);
    // The always-drawn layer cannot be hidden.
    std::unique_ptr<QMenu> frame(window.layerMenu(2));
    for (QAction* a : frame->actions())
        if (a->text() == QStringLiteral("&Hide")) QVERIFY(!a->isEnabled());
    properties->trigger();
    auto* dialog = window.findChild<LayerPropertiesDialog*>(QStringLiteral("layerProperties"));
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QVERIFY(!window.layerMenu(99));
}

void TestUiTools::layerPropertiesHidePasswords()
{
    LoadResult loaded = parseMapText(R"MAP(MAP
  EXTENT 0 0 10 10
  LAYER
    NAME "roads"
    TYPE LINE
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION "host=db user=gis password=Secret dbname=gis"
    DATA "geom FROM roads USING UNIQUE id USING SRID=3857"
    MAXSCALEDENOM 50000
  END
END
)MAP", QStringLiteral("/tmp/props.map"));
    QVERIFY(loaded.ok());
    const auto rows = LayerPropertiesDialog::rows(*loaded.map, loaded.map->layers.first());
    QString all;
    for (const auto& [label, value] : rows) all += label + QLatin1Char('=') + value + QLatin1Char('\n');
    QVERIFY2(!all.contains(QStringLiteral("Secret")), qPrintable(all));
    QVERIFY(all.contains(QStringLiteral("host=db")));
    QVERIFY(all.contains(QStringLiteral("geom FROM roads")));
    QVERIFY(all.contains(QStringLiteral("1:50,000")) || all.contains(QStringLiteral("1:50000")));
    QVERIFY(all.contains(QStringLiteral("Defined in=props.map:3")));
}

QTEST_MAIN(TestUiTools)
#include "test_ui_tools.moc"
