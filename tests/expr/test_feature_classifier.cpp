// FeatureClassifier picks the first class in scale range whose EXPRESSION
// holds; a value repeated as the same shared string may reuse the last
// answer, which must never differ from classifying it afresh.
#include "expr/feature_classifier.h"

#include <QTest>

using namespace maptune;

namespace {

ClassDef classOf(ExpressionDef::Type type, const QString& text, double maxScaleDenom = -1)
{
    ClassDef c;
    c.expression = {type, text};
    c.maxScaleDenom = maxScaleDenom;
    return c;
}

}  // namespace

class TestFeatureClassifier : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void repeatedValuesKeepTheirClass()
    {
        LayerDef layer;
        layer.classItem = QStringLiteral("type");
        layer.classes << classOf(ExpressionDef::Type::String, QStringLiteral("trunk"))
                      << classOf(ExpressionDef::Type::Regex, QStringLiteral("^res"))
                      << classOf(ExpressionDef::Type::List, QStringLiteral("track,path"));
        FeatureClassifier classifier;
        QVERIFY(classifier.compile(layer));
        QVERIFY(classifier.bind({QStringLiteral("name"), QStringLiteral("type")}));

        // One shared string, as a reader hands out a repeated value.
        const QString trunk = QStringLiteral("trunk");
        QStringList values{QStringLiteral("a"), trunk};
        QCOMPARE(classifier.classify(values, 0), 0);
        values[0] = QStringLiteral("b");  // another attribute changes: the class does not
        QCOMPARE(classifier.classify(values, 0), 0);
        // The same length, other text: a fresh string, a fresh answer.
        values[1] = QStringLiteral("track");
        QCOMPARE(classifier.classify(values, 0), 2);
        values[1] = QStringLiteral("residential");
        QCOMPARE(classifier.classify(values, 0), 1);
        values[1] = trunk;
        QCOMPARE(classifier.classify(values, 0), 0);
        // Changed in place: the list detaches the string from the remembered one.
        values[1][0] = QLatin1Char('x');
        QCOMPARE(classifier.classify(values, 0), -1);
        values[1] = QString();
        QCOMPARE(classifier.classify(values, 0), -1);
    }

    void scaleIsPartOfTheAnswer()
    {
        LayerDef layer;
        layer.classItem = QStringLiteral("type");
        layer.classes << classOf(ExpressionDef::Type::String, QStringLiteral("trunk"), 50000)
                      << classOf(ExpressionDef::Type::None, {});
        FeatureClassifier classifier;
        QVERIFY(classifier.compile(layer));
        QVERIFY(classifier.bind({QStringLiteral("type")}));
        const QStringList values{QStringLiteral("trunk")};
        QCOMPARE(classifier.classify(values, 10000), 0);
        QCOMPARE(classifier.classify(values, 100000), 1);
        QCOMPARE(classifier.classify(values, 10000), 0);
    }

    void logicalExpressionsReadEveryValue()
    {
        LayerDef layer;
        layer.classItem = QStringLiteral("type");
        layer.classes << classOf(ExpressionDef::Type::String, QStringLiteral("trunk"))
                      << classOf(ExpressionDef::Type::Logical, QStringLiteral("[lanes] > 2"));
        FeatureClassifier classifier;
        QVERIFY(classifier.compile(layer));
        QVERIFY(classifier.bind({QStringLiteral("type"), QStringLiteral("lanes")}));
        const QString road = QStringLiteral("road");
        QStringList values{road, QStringLiteral("4")};
        QCOMPARE(classifier.classify(values, 0), 1);
        // The class item is the same shared string; lanes decide.
        values[1] = QStringLiteral("1");
        QCOMPARE(classifier.classify(values, 0), -1);
    }
};

QTEST_GUILESS_MAIN(TestFeatureClassifier)
#include "test_feature_classifier.moc"
