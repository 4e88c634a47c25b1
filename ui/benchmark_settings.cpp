#include "benchmark_settings.h"

#include "loadtest/embedded_server.h"

#include <QComboBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

namespace maptune {

namespace {

enum StopKind { StopRequests, StopSeconds };

}  // namespace

BenchmarkSettings::BenchmarkSettings(QWidget* parent)
    : QWidget(parent), m_concurrency(new QSpinBox), m_stopKind(new QComboBox), m_stopValue(new QSpinBox),
      m_rounds(new QSpinBox), m_size(new QLineEdit(QStringLiteral("512"))), m_format(new QComboBox),
      m_area(new QComboBox), m_extent(new QLineEdit), m_res(new QLineEdit), m_bboxFile(new QLineEdit)
{
    m_concurrency->setRange(1, 64);
    m_concurrency->setValue(2);
    m_concurrency->setToolTip(tr("Simultaneous connections (one keep-alive HTTP connection each)"));
    m_stopKind->addItems({tr("requests"), tr("seconds")});
    m_stopValue->setRange(1, 1000000);
    m_stopKind->setCurrentIndex(StopSeconds);
    m_stopValue->setValue(10);
    m_rounds->setRange(1, 20);
    m_rounds->setValue(3);
    m_rounds->setToolTip(tr("The configurations run interleaved (A B A B ...); the medians over the rounds are shown"));
    m_size->setToolTip(tr("Image size: N or WxH"));
    m_size->setMaximumWidth(90);
    m_format->addItems({QStringLiteral("image/png"), QStringLiteral("image/jpeg")});
    m_format->setEditable(true);
    // In Area order. The two test-data scenes are the request sequences of the
    // command-line benchmarks, named for what they show rather than by their keys.
    const std::pair<QString, QString> areas[] = {
        {tr("random views of the whole map"), tr("Windows inside the map's EXTENT, from all of it down to 1/16")},
        {tr("test data: orthophoto views (0.5–4 m/pixel, EPSG:6677)"),
         tr("Random windows inside the benchmark orthophoto, as the command-line raster benchmarks request")},
        {tr("test data: central Tokyo roads (~5 km views, EPSG:4326)"),
         tr("Views around the Imperial Palace shifted east-west, as the command-line roads benchmarks request")},
        {tr("random views of an extent"), tr("Windows inside the extent you give, at resolutions in the range you give")},
        {tr("bounding boxes from a file"), tr("One minx,miny,maxx,maxy a line, requested in turn")},
    };
    for (const auto& [label, tip] : areas) {
        m_area->addItem(label);
        m_area->setItemData(m_area->count() - 1, tip, Qt::ToolTipRole);
    }
    m_extent->setPlaceholderText(tr("minx,miny,maxx,maxy"));
    m_res->setPlaceholderText(tr("min,max units per pixel"));
    m_bboxFile->setPlaceholderText(tr("one minx,miny,maxx,maxy a line"));
    auto* browse = new QToolButton;
    browse->setText(QStringLiteral("…"));
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Bbox file"), m_bboxFile->text());
        if (!path.isEmpty()) m_bboxFile->setText(path);
    });

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    auto* stop = new QHBoxLayout;
    stop->addWidget(m_stopValue);
    stop->addWidget(m_stopKind);
    grid->addWidget(new QLabel(tr("Concurrency")), 0, 0);
    grid->addWidget(m_concurrency, 0, 1);
    grid->addWidget(new QLabel(tr("Each run")), 0, 2);
    grid->addLayout(stop, 0, 3);
    grid->addWidget(new QLabel(tr("Rounds")), 0, 4);
    grid->addWidget(m_rounds, 0, 5);
    grid->addWidget(new QLabel(tr("Size")), 1, 0);
    grid->addWidget(m_size, 1, 1);
    grid->addWidget(new QLabel(tr("Format")), 1, 2);
    grid->addWidget(m_format, 1, 3);
    auto* area = new QHBoxLayout;
    area->addWidget(m_area);
    area->addWidget(m_extent, 2);
    area->addWidget(m_res, 1);
    area->addWidget(m_bboxFile, 2);
    area->addWidget(browse);
    grid->addWidget(new QLabel(tr("Requests")), 2, 0);
    grid->addLayout(area, 2, 1, 1, 5);
    grid->setColumnStretch(6, 1);  // the fields keep their natural width
    connect(m_area, &QComboBox::currentIndexChanged, this, &BenchmarkSettings::updateAreaFields);
    connect(m_area, &QComboBox::currentIndexChanged, browse, [this, browse] {
        browse->setVisible(m_area->currentIndex() == int(Area::BboxFile));
    });
    browse->setVisible(false);
    updateAreaFields();
}

void BenchmarkSettings::updateAreaFields()
{
    const auto area = Area(m_area->currentIndex());
    m_extent->setVisible(area == Area::Extent);
    m_res->setVisible(area == Area::Extent);
    m_bboxFile->setVisible(area == Area::BboxFile);
}

void BenchmarkSettings::setConcurrency(int c)
{
    m_concurrency->setValue(c);
}

void BenchmarkSettings::setRequestCount(int n)
{
    m_stopKind->setCurrentIndex(StopRequests);
    m_stopValue->setValue(n);
}

void BenchmarkSettings::setDurationS(int seconds)
{
    m_stopKind->setCurrentIndex(StopSeconds);
    m_stopValue->setValue(seconds);
}

void BenchmarkSettings::setRounds(int rounds)
{
    m_rounds->setValue(rounds);
}

void BenchmarkSettings::setImageSize(int width, int height)
{
    m_size->setText(width == height ? QString::number(width) : QStringLiteral("%1x%2").arg(width).arg(height));
}

void BenchmarkSettings::setFormat(const QString& format)
{
    m_format->setCurrentText(format);
}

void BenchmarkSettings::setArea(Area area, const QString& extent, const QString& res)
{
    m_area->setCurrentIndex(int(area));
    m_extent->setText(extent);
    m_res->setText(res);
}

void BenchmarkSettings::setBboxFile(const QString& path)
{
    m_area->setCurrentIndex(int(Area::BboxFile));
    m_bboxFile->setText(path);
}

void BenchmarkSettings::setWarmup(int requests)
{
    m_warmup = requests;
}

int BenchmarkSettings::rounds() const
{
    return m_rounds->value();
}

QString BenchmarkSettings::format() const
{
    return m_format->currentText().trimmed();
}

QString BenchmarkSettings::describe() const
{
    const QString each = m_stopKind->currentIndex() == StopRequests ? tr("%1 requests").arg(m_stopValue->value())
                                                                    : tr("%1 s").arg(m_stopValue->value());
    return tr("c=%1, %2 × %3 rounds, %4 %5, %6")
        .arg(m_concurrency->value())
        .arg(each)
        .arg(m_rounds->value())
        .arg(m_size->text().trimmed(), format(), m_area->currentText());
}

std::variant<LoadOptions, QString> BenchmarkSettings::loadOptions(const MapDef* map) const
{
    BboxOptions bbox;
    bbox.size = m_size->text().trimmed();
    switch (Area(m_area->currentIndex())) {
    case Area::MapExtent:
        if (!map) return tr("Open a map first, or choose an extent for the requests");
        if (const Status windows = EmbeddedServer::defaultWindows(*map, bbox); !windows) return windows.message();
        break;
    case Area::PresetRaster: bbox.preset = QStringLiteral("raster"); break;
    case Area::PresetRoads: bbox.preset = QStringLiteral("roads"); break;
    case Area::Extent:
        bbox.extent = m_extent->text().trimmed();
        bbox.res = m_res->text().trimmed();
        break;
    case Area::BboxFile: bbox.bboxFile = m_bboxFile->text().trimmed(); break;
    }
    const BboxSpecResult spec = resolveBboxSpec(bbox);
    if (!spec.spec) return spec.error;
    LoadOptions o;
    o.bbox = *spec.spec;
    o.concurrency = m_concurrency->value();
    if (m_stopKind->currentIndex() == StopRequests) {
        o.durationS = 0;
        o.maxRequests = m_stopValue->value();
    } else {
        o.durationS = m_stopValue->value();
    }
    o.warmup = m_warmup;
    return o;
}

}  // namespace maptune
