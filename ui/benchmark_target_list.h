#pragma once
// The Benchmark panel's targets: the open map on the embedded server (the
// Server panel's WMS, so the Timings panel shows what it serves) and any WMS
// GetMap URL templates ({BBOX} {WIDTH} {HEIGHT}), each with a check box and
// an editable label. Checked targets, in list order, are the configurations;
// the first is the baseline.

#include <QList>
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace maptune {

struct UrlTarget {
    QString label;
    QString urlTemplate;
};

class BenchmarkTargetList : public QWidget {
    Q_OBJECT
public:
    explicit BenchmarkTargetList(QWidget* parent = nullptr);

    bool embeddedChecked() const;
    void setEmbeddedChecked(bool checked);
    QString embeddedLabel() const;
    // What the embedded row's target column says (its URL while serving).
    void setEmbeddedDescription(const QString& text);

    void addUrl(const QString& label, const QString& urlTemplate, bool checked = true);
    void clearUrls();
    QList<UrlTarget> checkedUrls() const;
    QTreeWidget* tree() const { return m_tree; }

private:
    void askForUrl();
    void removeSelected();

    QTreeWidget* m_tree;
    QTreeWidgetItem* m_embedded;
};

}  // namespace maptune
