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

// A layer classified by its "type" attribute. A classifier compiled from
// it points into it: the test keeps it alive.
LayerDef classifiedByType(const QList<ClassDef>& classes)
{
    LayerDef layer;
    layer.classItem = QStringLiteral("type");
    layer.classes = classes;
    return layer;
}

}  // namespace

class TestFeatureClassifier : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void repeatedValuesKeepTheirClass()
    {
        const LayerDef layer = classifiedByType({classOf(ExpressionDef::Type::String, QStringLiteral("trunk")),
                                                 classOf(ExpressionDef::Type::Regex, QStringLiteral("^res")),
                                                 classOf(ExpressionDef::Type::List, QStringLiteral("track,path"))});
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

    void interleavedValuesEachKeepTheirClass()
    {
        // More distinct shared strings than the memo holds, interleaved and
        // repeated: every answer as from a classifier that remembers nothing.
        const LayerDef layer = classifiedByType({classOf(ExpressionDef::Type::Regex, QStringLiteral("^t[0-9]*[02468]$")),
                                                 classOf(ExpressionDef::Type::List, QStringLiteral("t3,t7,t11,t19"))});
        FeatureClassifier classifier;
        QVERIFY(classifier.compile(layer));
        QVERIFY(classifier.bind({QStringLiteral("type")}));
        QStringList types;
        for (int i = 0; i < 23; ++i) types << QStringLiteral("t%1").arg(i);
        for (int round = 0; round < 3; ++round)
            for (int i = 0; i < 23 * 4; ++i) {
                const int t = (i * 7 + round) % 23;
                const int expected = t % 2 == 0 ? 0 : (t == 3 || t == 7 || t == 11 || t == 19) ? 1 : -1;
                QCOMPARE(classifier.classify({types[t]}, 0), expected);
            }
    }

    void scaleIsPartOfTheAnswer()
    {
        const LayerDef layer = classifiedByType({classOf(ExpressionDef::Type::String, QStringLiteral("trunk"), 50000),
                                                 classOf(ExpressionDef::Type::None, {})});
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
        const LayerDef layer = classifiedByType({classOf(ExpressionDef::Type::String, QStringLiteral("trunk")),
                                                 classOf(ExpressionDef::Type::Logical, QStringLiteral("[lanes] > 2"))});
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
