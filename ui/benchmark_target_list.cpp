#include "benchmark_target_list.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace maptune {

namespace {

enum Column { LabelCol, TargetCol };

}  // namespace

BenchmarkTargetList::BenchmarkTargetList(QWidget* parent)
    : QWidget(parent), m_tree(new QTreeWidget), m_embedded(new QTreeWidgetItem)
{
    m_tree->setHeaderLabels({tr("Target"), tr("URL")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(LabelCol, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setMaximumHeight(110);
    m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);

    m_embedded->setText(LabelCol, tr("this map"));
    m_embedded->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemIsEditable);
    m_embedded->setCheckState(LabelCol, Qt::Checked);
    m_embedded->setToolTip(LabelCol, tr("The open mapfile on the embedded server (the Server panel's WMS)"));
    m_tree->addTopLevelItem(m_embedded);
    setEmbeddedDescription(tr("embedded server (started on Run)"));

    auto* add = new QPushButton(tr("Add WMS URL…"));
    add->setToolTip(tr("Another WMS (MapServer, GeoServer, QGIS Server...) as a GetMap URL template"));
    auto* remove = new QPushButton(tr("Remove"));
    connect(add, &QPushButton::clicked, this, &BenchmarkTargetList::askForUrl);
    connect(remove, &QPushButton::clicked, this, &BenchmarkTargetList::removeSelected);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree, 1);
    layout->addLayout(buttons);
}

bool BenchmarkTargetList::embeddedChecked() const
{
    return m_embedded->checkState(LabelCol) == Qt::Checked;
}

void BenchmarkTargetList::setEmbeddedChecked(bool checked)
{
    m_embedded->setCheckState(LabelCol, checked ? Qt::Checked : Qt::Unchecked);
}

QString BenchmarkTargetList::embeddedLabel() const
{
    const QString label = m_embedded->text(LabelCol).trimmed();
    return label.isEmpty() ? tr("this map") : label;
}

void BenchmarkTargetList::setEmbeddedDescription(const QString& text)
{
    m_embedded->setText(TargetCol, text);
    m_embedded->setToolTip(TargetCol, text);
}

void BenchmarkTargetList::addUrl(const QString& label, const QString& urlTemplate, bool checked)
{
    auto* item = new QTreeWidgetItem;
    item->setText(LabelCol, label);
    item->setText(TargetCol, urlTemplate);
    item->setToolTip(TargetCol, urlTemplate);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemIsEditable);
    item->setCheckState(LabelCol, checked ? Qt::Checked : Qt::Unchecked);
    m_tree->addTopLevelItem(item);
}

void BenchmarkTargetList::clearUrls()
{
    while (m_tree->topLevelItemCount() > 1) delete m_tree->takeTopLevelItem(1);
}

QList<UrlTarget> BenchmarkTargetList::checkedUrls() const
{
    QList<UrlTarget> out;
    for (int i = 1; i < m_tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = m_tree->topLevelItem(i);
        if (item->checkState(LabelCol) != Qt::Checked) continue;
        QString label = item->text(LabelCol).trimmed();
        if (label.isEmpty()) label = QString(QLatin1Char('A' + char(i % 26)));
        out << UrlTarget{label, item->text(TargetCol).trimmed()};
    }
    return out;
}

void BenchmarkTargetList::askForUrl()
{
    bool ok = false;
    const QString url = QInputDialog::getText(
        this, tr("Add a WMS target"),
        tr("GetMap URL template; {BBOX}, {WIDTH} and {HEIGHT} are filled in per request:"), QLineEdit::Normal,
        QStringLiteral("http://127.0.0.1/cgi-bin/mapserv?map=/path/to.map&SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap"
                       "&LAYERS=...&STYLES=&SRS=EPSG:3857&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=image/png"),
        &ok);
    if (!ok || url.trimmed().isEmpty()) return;
    addUrl(QString(QLatin1Char('A' + char(m_tree->topLevelItemCount() % 26))), url.trimmed());
}

void BenchmarkTargetList::removeSelected()
{
    for (QTreeWidgetItem* item : m_tree->selectedItems())
        if (item != m_embedded) delete item;
}

}  // namespace maptune
