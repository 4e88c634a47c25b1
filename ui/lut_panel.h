#pragma once
// The LUT editor dock: pick a raster layer and a channel, edit its curve,
// preview on the canvas at once, write PROCESSING "LUT..." back into the
// mapfile text as one undoable step. Histograms (QCustomPlot) show the
// layer's pixels in the current view before and after the LUT; a split view
// on the canvas shows the layer without its LUT left of a draggable divider.
// Curves import from and export to GIMP curves files.

#include "core/result.h"
#include "data/engine_context.h"
#include "raster/lut_curves.h"

#include "mapfile/map_def.h"

#include <QFutureWatcher>
#include <QImage>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;

namespace maptune {

class LutCurveWidget;
class MapDocument;

class LutPanel : public QWidget {
    Q_OBJECT
public:
    LutPanel(MapDocument* document, QWidget* parent = nullptr);
    ~LutPanel() override;

    // A new map from the document: raster layers listed, curves read from PROCESSING.
    void setMap(MapDefPtr map);
    QString layerName() const;
    void setLayer(const QString& name);
    void setChannel(int channel);
    const LutCurves& curves() const { return m_curves; }
    void setCurves(const LutCurves& curves);
    LutCurveWidget* curveWidget() const { return m_curve; }
    // The map with the edited curves in the selected layer's PROCESSING.
    MapDefPtr previewMap() const;
    // The map with the selected layer's LUT directives removed.
    MapDefPtr mapWithoutLut() const;
    // Before/after split on the canvas (compareChanged carries the "before" map).
    void setCompareEnabled(bool on);
    bool isCompareEnabled() const;
    // GIMP curves files; the error says what went wrong.
    Status exportGimpCurves(const QString& path) const;
    Status importGimpCurves(const QString& path);
    // Histograms of the layer in this view, rendered without its LUT.
    void setHistogramView(const Rect& bbox, const QSize& size);
    // Histogram renders draw from this context's pool (the workbench's).
    void setEngineContext(EngineContextPtr context) { m_context = std::move(context); }
    // Histograms: [band 0..2][value 0..255]; before and after the LUT.
    const QList<QList<double>>& histogramBefore() const { return m_before; }

public Q_SLOTS:
    bool writeToMapfile();
    void applyPreset(const QString& name);
    void reset();

Q_SIGNALS:
    void previewChanged(maptune::MapDefPtr map);
    // The map to show left of the canvas' divider; null: no split.
    void compareChanged(maptune::MapDefPtr before);
    void histogramReady();

private:
    void loadCurves();
    void curveEdited(const QList<QPoint>& points);
    void histogramRendered();
    void plotHistograms();
    void emitCompare();
    QLayout* createFileButtons();

    MapDocument* m_document;
    MapDefPtr m_map;
    LutCurves m_curves;
    int m_channel = LutCurves::Master;
    QComboBox* m_layers;
    QComboBox* m_channels;
    LutCurveWidget* m_curve;
    QLabel* m_note;
    QCheckBox* m_compare;
    QCustomPlot* m_histogram;
    QFutureWatcher<QImage> m_watcher;
    QList<QList<double>> m_before;
    EngineContextPtr m_context = std::make_shared<const EngineContext>();
};

}  // namespace maptune
