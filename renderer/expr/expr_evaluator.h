#pragma once
// Internal: evaluates an ExprProgram over one feature's values. One instance
// per evaluation; a failure (MapServer's yyerror) makes the whole result
// invalid.

#include "expr/expr_program.h"

#include <QList>

namespace maptune {

class ExprEvaluator {
public:
    ExprEvaluator(const ExprProgram& program, const QList<int>& fieldOfSlot, const QList<QString>& values)
        : m_prog(program), m_fieldOfSlot(fieldOfSlot), m_values(values) {}

    bool failed() const { return m_failed; }

    bool asBool(int node);
    double asNumber(int node);
    QString asString(int node);
    ExprTime asTime(int node);

private:
    const ExprNode& node(int i) const { return m_prog.nodes[size_t(i)]; }
    const QString& attribute(int slot) const;
    // The string value of a node without copying when it is a literal or an attribute.
    const QString& stringRef(int i, QString& scratch);
    bool truth(int i);  // a logical operand: boolean, or number != 0
    bool compare(const ExprNode& n);
    bool compareStrings(const ExprNode& n);
    bool regexMatch(const ExprNode& n);
    bool inList(const ExprNode& n);
    double arithmetic(const ExprNode& n);
    QString callString(const ExprNode& n);
    bool fail()
    {
        m_failed = true;
        return false;
    }

    const ExprProgram& m_prog;
    const QList<int>& m_fieldOfSlot;
    const QList<QString>& m_values;
    bool m_failed = false;
};

}  // namespace maptune
