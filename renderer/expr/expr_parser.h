#pragma once
// Internal: parses a logical expression into an ExprProgram, checking types
// the way MapServer's bison grammar (mapparser.y) does.

#include "expr/expr_program.h"

#include <memory>

namespace maptune {

struct ParseResult {
    std::shared_ptr<ExprProgram> program;  // null on a syntax error
    QString error;      // syntax error, "... at column N"
    QString typeError;  // the program parsed but can never evaluate (MapServer: always false)
};

ParseResult parseLogicalExpression(const QString& text);

}  // namespace maptune
