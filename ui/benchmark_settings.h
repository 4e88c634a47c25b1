#pragma once
// The Benchmark panel's load settings: concurrency, a request count or a
// duration per run, rounds, image size and format, and where the requests go
// (random windows inside the map's EXTENT, a ../shared/bench test-data scene, an
// extent with a resolution range, or a bbox file), resolved into the
// LoadOptions and BboxSpec that every configuration shares.

#include "loadtest/load_runner.h"
#include "mapfile/map_def.h"

#include <QWidget>

#include <variant>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace maptune {

class BenchmarkSettings : public QWidget {
    Q_OBJECT
public:
    enum class Area { MapExtent, PresetRaster, PresetRoads, Extent, BboxFile };

    explicit BenchmarkSettings(QWidget* parent = nullptr);

    void setConcurrency(int c);
    void setRequestCount(int n);     // each run stops after n measured requests
    void setDurationS(int seconds);  // each run measures for this long
    void setRounds(int rounds);
    void setImageSize(int width, int height);
    void setFormat(const QString& format);
    void setArea(Area area, const QString& extent = {}, const QString& res = {});
    void setBboxFile(const QString& path);
    void setWarmup(int requests);    // -1: 4 x concurrency

    int rounds() const;
    QString format() const;
    QString describe() const;        // "c=2, 10 requests x 2 rounds, 512x512 image/png"
    QComboBox* areaCombo() const { return m_area; }   // "Requests": which views a run asks for

    // The shared load options (no URL template); the map gives the default
    // area. An error message instead.
    std::variant<LoadOptions, QString> loadOptions(const MapDef* map) const;

private:
    void updateAreaFields();

    QSpinBox* m_concurrency;
    QComboBox* m_stopKind;
    QSpinBox* m_stopValue;
    QSpinBox* m_rounds;
    QLineEdit* m_size;
    QComboBox* m_format;
    QComboBox* m_area;
    QLineEdit* m_extent;
    QLineEdit* m_res;
    QLineEdit* m_bboxFile;
    int m_warmup = -1;
};

}  // namespace maptune
