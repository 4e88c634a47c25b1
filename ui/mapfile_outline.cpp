#include "mapfile_outline.h"

#include "mapfile/syntax/mapfile_navigation.h"

#include <QHeaderView>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTreeWidgetItemIterator>

namespace maptune {

namespace {

constexpr int kLineRole = Qt::UserRole;
constexpr int kEndRole = Qt::UserRole + 1;
constexpr int kKeywordRole = Qt::UserRole + 2;
constexpr int kNameRole = Qt::UserRole + 3;

void addItems(QTreeWidgetItem* parent, QTreeWidget* tree, const QList<OutlineItem>& items)
{
    for (const OutlineItem& i : items) {
        const QString text = i.name.isEmpty() ? i.keyword : QStringLiteral("%1 %2").arg(i.keyword, i.name);
        auto* item = parent ? new QTreeWidgetItem(parent, {text, QString::number(i.line)})
                            : new QTreeWidgetItem(tree, {text, QString::number(i.line)});
        item->setData(0, kLineRole, i.line);
        item->setData(0, kEndRole, i.endLine ? i.endLine : INT_MAX);
        item->setData(0, kKeywordRole, i.keyword);
        item->setData(0, kNameRole, i.name);
        addItems(item, tree, i.children);
    }
}

QTreeWidgetItem* innermost(QTreeWidgetItem* item, int line)
{
    for (int i = 0; i < item->childCount(); ++i) {
        QTreeWidgetItem* c = item->child(i);
        if (c->data(0, kLineRole).toInt() <= line && line <= c->data(0, kEndRole).toInt()) return innermost(c, line);
    }
    return item;
}

}  // namespace

MapfileOutline::MapfileOutline(QPlainTextEdit* editor, QWidget* parent) : QTreeWidget(parent), m_editor(editor)
{
    setHeaderLabels({tr("Block"), tr("Line")});
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_rebuild.setSingleShot(true);
    m_rebuild.setInterval(400);
    connect(&m_rebuild, &QTimer::timeout, this, &MapfileOutline::rebuild);
    connect(editor, &QPlainTextEdit::textChanged, this, [this] { m_rebuild.start(); });
    connect(editor, &QPlainTextEdit::cursorPositionChanged, this, &MapfileOutline::followCursor);
    connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        if (!m_following) Q_EMIT lineChosen(item->data(0, kLineRole).toInt());
    });
    rebuild();
}

void MapfileOutline::rebuild()
{
    m_rebuild.stop();
    clear();
    addItems(nullptr, this, outlineOf(m_editor->toPlainText().toUtf8()));
    expandToDepth(1);
    followCursor();
}

QTreeWidgetItem* MapfileOutline::itemAtLine(int line) const
{
    for (int i = 0; i < topLevelItemCount(); ++i) {
        QTreeWidgetItem* top = topLevelItem(i);
        if (top->data(0, kLineRole).toInt() <= line && line <= top->data(0, kEndRole).toInt()) return innermost(top, line);
    }
    return nullptr;
}

void MapfileOutline::followCursor()
{
    QTreeWidgetItem* item = itemAtLine(m_editor->textCursor().blockNumber() + 1);
    QString layer;
    for (QTreeWidgetItem* i = item; i; i = i->parent())
        if (i->data(0, kKeywordRole).toString() == QLatin1String("LAYER")) layer = i->data(0, kNameRole).toString();
    if (layer != m_cursorLayer) {
        m_cursorLayer = layer;
        Q_EMIT layerAtCursor(layer);
    }
    if (!item || item == currentItem()) return;
    m_following = true;
    setCurrentItem(item);
    scrollToItem(item);
    m_following = false;
}

bool MapfileOutline::selectLayer(const QString& name)
{
    for (QTreeWidgetItemIterator it(this); *it; ++it) {
        if ((*it)->data(0, kKeywordRole).toString() != QLatin1String("LAYER") || (*it)->data(0, kNameRole).toString() != name)
            continue;
        m_following = true;
        setCurrentItem(*it);
        scrollToItem(*it);
        m_following = false;
        return true;
    }
    return false;
}

}  // namespace maptune
