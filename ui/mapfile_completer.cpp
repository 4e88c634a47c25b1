#include "mapfile_completer.h"

#include "mapfile_editor.h"

#include "render/feature_source_factory.h"
#include "lint/map_linter.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QKeyEvent>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QStandardItemModel>

namespace maptune {

namespace {

bool isWordText(const QString& text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), [](QChar c) {
        return c.isLetterOrNumber() || c == QLatin1Char('_');
    });
}

QString kindLabel(const CompletionItem& item)
{
    switch (item.kind) {
    case CompletionItem::Kind::Keyword: return item.detail;
    case CompletionItem::Kind::Value: return QStringLiteral("value");
    case CompletionItem::Kind::Symbol: return QStringLiteral("symbol");
    case CompletionItem::Kind::Font: return QStringLiteral("font");
    case CompletionItem::Kind::Attribute: return QStringLiteral("attribute");
    case CompletionItem::Kind::Path: return item.detail;
    case CompletionItem::Kind::Crs: return item.detail;
    }
    return {};
}

}  // namespace

MapfileCompleter::MapfileCompleter(QPlainTextEdit* editor)
    : QObject(editor), m_editor(editor), m_completer(new QCompleter(this)), m_model(new QStandardItemModel(this))
{
    m_completer->setModel(m_model);
    m_completer->setWidget(editor);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setModelSorting(QCompleter::UnsortedModel);
    m_completer->setFilterMode(Qt::MatchStartsWith);
    m_completer->setMaxVisibleItems(12);
    m_completer->popup()->setObjectName(QStringLiteral("completionPopup"));
    connect(m_completer, qOverload<const QModelIndex&>(&QCompleter::activated), this,
            [this](const QModelIndex& index) { insertCompletion(index.data(Qt::UserRole).toString()); });
}

void MapfileCompleter::setMap(MapDefPtr map)
{
    m_map = std::move(map);
    m_attributes.clear();
}

CompletionSources MapfileCompleter::sourcesFor(const QString& layerName)
{
    CompletionSources sources;
    if (!m_map) return sources;
    sources.mapPath = m_map->path;
    for (const SymbolDef& s : m_map->symbols)
        if (!s.name.isEmpty()) sources.symbols << s.name;
    for (const auto& [alias, file] : m_map->fonts.items) sources.fonts << alias;
    const LayerDef* layer = layerName.isEmpty() ? nullptr : m_map->layer(layerName);
    // Only files are opened on the GUI thread: databases, services and remote
    // files (PostGIS, OGR "PG:" or "WFS:", /vsicurl/...) would stall typing.
    const QString source = layer ? (layer->connectionType == ConnectionType::OGR ? layer->connection : layer->data) : QString();
    if (layer && (layer->connectionType == ConnectionType::Inline ||
                  ((layer->connectionType == ConnectionType::Local || layer->connectionType == ConnectionType::OGR) &&
                   isLocalSource(source)))) {
        auto it = m_attributes.find(layerName);
        if (it == m_attributes.end()) {
            static const EngineContext context;
            Result<std::unique_ptr<FeatureSource>> source = openFeatureSource(*m_map, *layer, context);
            it = m_attributes.insert(layerName, source ? (*source)->fields() : QStringList());
        }
        sources.attributes = *it;
    }
    return sources;
}

bool MapfileCompleter::showCompletions()
{
    return showCompletions(contextAtCursor());
}

CompletionContext MapfileCompleter::contextAtCursor() const
{
    const QString text = m_editor->toPlainText();
    return completionContextAt(text.toUtf8(), utf8Offset(text, m_editor->textCursor().position()));
}

bool MapfileCompleter::showCompletions(const CompletionContext& context)
{
    const QList<CompletionItem> items = completionsFor(context, sourcesFor(context.layerName));
    m_model->clear();
    for (const CompletionItem& item : items) {
        // A CRS shows its name beside the code it inserts.
        auto* row = new QStandardItem(item.kind == CompletionItem::Kind::Crs ? item.text + QStringLiteral("  ") + item.detail
                                                                              : item.text);
        row->setData(item.text, Qt::UserRole);
        row->setToolTip(item.spec ? keywordHelpHtml(*item.spec, context.block()) : kindLabel(item));
        row->setData(kindLabel(item), Qt::UserRole + 1);
        m_model->appendRow(row);
    }
    m_prefixLength = int(context.prefix.size());
    if (items.isEmpty()) {
        m_completer->popup()->hide();
        return false;
    }
    // The model is already filtered by the prefix; the completer's own filter
    // must not drop quoted or bracketed values.
    m_completer->setCompletionPrefix(QString());
    QAbstractItemView* popup = m_completer->popup();
    popup->setCurrentIndex(m_completer->completionModel()->index(0, 0));
    QRect rect = m_editor->cursorRect();
    rect.setWidth(popup->sizeHintForColumn(0) + popup->verticalScrollBar()->sizeHint().width() + 24);
    m_completer->complete(rect);
    return true;
}

bool MapfileCompleter::isPopupVisible() const { return m_completer->popup()->isVisible(); }

QStringList MapfileCompleter::visibleCompletions() const
{
    QStringList out;
    if (!isPopupVisible()) return out;
    const QAbstractItemModel* model = m_completer->completionModel();
    for (int i = 0; i < model->rowCount(); ++i) out << model->index(i, 0).data().toString();
    return out;
}

void MapfileCompleter::insertCompletion(const QString& text)
{
    QTextCursor cursor = m_editor->textCursor();
    cursor.beginEditBlock();
    // UTF-16 units, as the prefix was counted (Left would step over whole graphemes).
    cursor.setPosition(std::max(0, cursor.position() - m_prefixLength), QTextCursor::KeepAnchor);
    cursor.insertText(text);
    cursor.endEditBlock();
    m_editor->setTextCursor(cursor);
    m_completer->popup()->hide();
}

bool MapfileCompleter::keyBefore(QKeyEvent* event)
{
    if (isPopupVisible()) {
        switch (event->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Tab:
            if (const QModelIndex current = m_completer->popup()->currentIndex(); current.isValid()) {
                insertCompletion(current.data(Qt::UserRole).toString());
                return true;
            }
            break;
        case Qt::Key_Escape:
            m_completer->popup()->hide();
            return true;
        case Qt::Key_Up:
        case Qt::Key_Down: {
            // The popup handles these itself when it has the keyboard; keys
            // that reach the editor (no keyboard grab) move its selection too.
            QAbstractItemView* popup = m_completer->popup();
            const int rows = popup->model()->rowCount();
            const int row = std::clamp(popup->currentIndex().row() + (event->key() == Qt::Key_Down ? 1 : -1), 0, rows - 1);
            popup->setCurrentIndex(popup->model()->index(row, 0));
            return true;
        }
        default:
            break;
        }
    }
    if (event->key() == Qt::Key_Space && (event->modifiers() & Qt::ControlModifier)) {
        showCompletions();
        return true;
    }
    return false;
}

void MapfileCompleter::keyAfter(QKeyEvent* event)
{
    const QString typed = event->text();
    if (typed.isEmpty() || (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) return;
    if (isWordText(typed) || (event->key() == Qt::Key_Backspace && isPopupVisible())) {
        QTextCursor word = m_editor->textCursor();
        word.movePosition(QTextCursor::StartOfWord, QTextCursor::KeepAnchor);
        if (isPopupVisible() || word.selectedText().size() >= 2) showCompletions();
        return;
    }
    // A space after a keyword with fixed values (STATUS, TYPE...) offers them.
    if (typed == QLatin1String(" ")) {
        const CompletionContext context = contextAtCursor();
        if (!context.keyword.isEmpty()) {
            const KeywordSpec* spec = KeywordSchema::builtin().keyword(context.block(), context.keyword);
            if (spec && spec->type == ValueType::Enum) {
                showCompletions(context);
                return;
            }
        }
    }
    m_completer->popup()->hide();
}

}  // namespace maptune
