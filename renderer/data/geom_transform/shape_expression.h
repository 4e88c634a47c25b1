#pragma once
// A GEOMTRANSFORM expression such as (simplify(buffer([shape], 2*[map_cellsize]), 0.5)):
// MapServer's shape grammar (mapparser.y shape_exp) with its functions
// buffer, difference, simplify, simplifypt, generalize, smoothsia,
// centerline, densify, inner and outer, numeric arguments with attribute
// bindings, [map_cellsize] and [data_cellsize]. Parsed once, evaluated per
// feature; a failure reads as MapServer's error lines, newest first.

#include "core/result.h"
#include "data/geometry.h"

#include <QStringList>

#include <memory>

namespace maptune {

struct ShapeExpressionProgram;

class ShapeExpression {
public:
    // `text` as the mapfile gives it, its outer parentheses included or not.
    static Result<ShapeExpression> parse(const QString& text);

    // The expression as MapServer quotes it in messages: without the
    // parentheses that enclose all of it.
    const QString& text() const;
    // Attribute names the numeric arguments read ([name]), in slot order.
    const QStringList& attributes() const;

    // For each attribute slot, the index of its field in `fields` (-1: absent).
    QList<int> columnsIn(const QStringList& fields) const;

    struct Inputs {
        const QStringList* values = nullptr;  // the feature's values, in field order
        const QList<int>* columns = nullptr;  // columnsIn(those fields); null: values are by slot
        double mapCellsize = 0;
        double dataCellsize = 0;
    };
    // The transformed shape, or the error lines ("yyparse(): ... Executing
    // centerline failed.\nmsGEOSCenterline(): ...").
    Result<Geometry> evaluate(const Geometry& shape, const Inputs& inputs) const;

private:
    std::shared_ptr<const ShapeExpressionProgram> m_program;
};

}  // namespace maptune
