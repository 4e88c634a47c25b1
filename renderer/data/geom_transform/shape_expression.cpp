#include "data/geom_transform/shape_expression.h"

#include "data/geom_transform/shape_operations.h"
#include "expr/expr_lexer.h"

#include <algorithm>
#include <cmath>

namespace maptune {

struct ShapeExpressionProgram {
    enum class Kind { Shape, Number, Binding, MapCellsize, DataCellsize, String, Negate, Arithmetic, Call };
    struct Node {
        Kind kind = Kind::Number;
        QChar op;           // Arithmetic
        QString name;       // Call: the function
        double number = 0;  // Number
        QString string;     // String
        int slot = -1;      // Binding
        std::vector<int> args;
    };
    std::vector<Node> nodes;
    int root = -1;
    QString text;
    QStringList attributes;
};

namespace {

using Program = ShapeExpressionProgram;
using Kind = Program::Kind;

struct SyntaxError {
    QString message;
};

enum class Arg { Shape, Number, String };

struct Signature {
    const char16_t* name;
    std::initializer_list<Arg> params;
    int optional;  // trailing parameters that may be left out
};

const Signature kSignatures[] = {
    {u"buffer", {Arg::Shape, Arg::Number}, 0},
    {u"difference", {Arg::Shape, Arg::Shape}, 0},
    {u"simplify", {Arg::Shape, Arg::Number}, 0},
    {u"simplifypt", {Arg::Shape, Arg::Number}, 0},
    {u"generalize", {Arg::Shape, Arg::Number}, 0},
    {u"densify", {Arg::Shape, Arg::Number}, 0},
    {u"smoothsia", {Arg::Shape, Arg::Number, Arg::Number, Arg::String}, 3},
    {u"centerline", {Arg::Shape}, 0},
    {u"inner", {Arg::Shape}, 0},
    {u"outer", {Arg::Shape}, 0},
};

class Parser {
public:
    Parser(QList<ExprToken> tokens, Program& prog) : m_tokens(std::move(tokens)), m_prog(prog) {}

    int parseAll()
    {
        const int root = shape();
        if (peek().kind != TokenKind::End) unexpected();
        return root;
    }

private:
    static constexpr int kMaxNesting = 200;

    const ExprToken& peek() const { return m_tokens[m_pos]; }
    bool accept(TokenKind k)
    {
        if (peek().kind != k) return false;
        ++m_pos;
        return true;
    }
    void expect(TokenKind k)
    {
        if (!accept(k)) unexpected();
    }
    [[noreturn]] void unexpected() const
    {
        throw SyntaxError{QStringLiteral("unexpected %1 at column %2").arg(describeToken(peek())).arg(peek().column)};
    }
    void nest()
    {
        if (++m_depth > kMaxNesting) throw SyntaxError{QStringLiteral("expression nested too deeply")};
    }
    int add(Program::Node n)
    {
        m_prog.nodes.push_back(std::move(n));
        return int(m_prog.nodes.size()) - 1;
    }

    int shape()
    {
        nest();
        const ExprToken t = peek();
        int out = -1;
        if (t.kind == TokenKind::AttrNumber && t.text.compare(QLatin1String("shape"), Qt::CaseInsensitive) == 0) {
            ++m_pos;
            out = add({Kind::Shape, {}, {}, 0, {}, -1, {}});
        } else if (accept(TokenKind::LParen)) {
            out = shape();
            expect(TokenKind::RParen);
        } else if (t.kind == TokenKind::Function) {
            ++m_pos;
            out = call(t);
        } else {
            throw SyntaxError{QStringLiteral("expected a shape ([shape] or a geometry function), found %1 at column %2")
                                  .arg(describeToken(t)).arg(t.column)};
        }
        --m_depth;
        return out;
    }

    int call(const ExprToken& name)
    {
        const Signature* sig = nullptr;
        for (const Signature& s : kSignatures)
            if (name.text == QStringView(s.name)) sig = &s;
        if (!sig) throw SyntaxError{QStringLiteral("%1() is not a geometry function at column %2").arg(name.text).arg(name.column)};
        expect(TokenKind::LParen);
        Program::Node n{Kind::Call, {}, name.text, 0, {}, -1, {}};
        int i = 0;
        for (const Arg a : sig->params) {
            if (i > 0) {
                if (i >= int(sig->params.size()) - sig->optional && peek().kind == TokenKind::RParen) break;
                if (!accept(TokenKind::Comma)) unexpected();
            }
            n.args.push_back(a == Arg::Shape ? shape() : a == Arg::Number ? sum() : string());
            ++i;
        }
        if (peek().kind == TokenKind::Comma)
            throw SyntaxError{QStringLiteral("%1() takes at most %2 argument(s) at column %3")
                                  .arg(name.text).arg(sig->params.size()).arg(peek().column)};
        expect(TokenKind::RParen);
        return add(std::move(n));
    }

    int string()
    {
        const ExprToken t = peek();
        if (t.kind != TokenKind::String) unexpected();
        ++m_pos;
        Program::Node n{Kind::String, {}, {}, 0, t.text, -1, {}};
        return add(std::move(n));
    }

    // math_exp, with the usual precedence: + -, then * / %, then ^.
    int sum()
    {
        int lhs = product();
        while (peek().kind == TokenKind::Plus || peek().kind == TokenKind::Minus) {
            const QChar op = peek().kind == TokenKind::Plus ? u'+' : u'-';
            ++m_pos;
            lhs = add({Kind::Arithmetic, op, {}, 0, {}, -1, {lhs, product()}});
        }
        return lhs;
    }
    int product()
    {
        int lhs = power();
        while (peek().kind == TokenKind::Star || peek().kind == TokenKind::Slash || peek().kind == TokenKind::Percent) {
            const QChar op = peek().kind == TokenKind::Star ? u'*' : peek().kind == TokenKind::Slash ? u'/' : u'%';
            ++m_pos;
            lhs = add({Kind::Arithmetic, op, {}, 0, {}, -1, {lhs, power()}});
        }
        return lhs;
    }
    int power()
    {
        const int base = unary();
        if (!accept(TokenKind::Caret)) return base;
        return add({Kind::Arithmetic, u'^', {}, 0, {}, -1, {base, power()}});
    }
    int unary()
    {
        nest();
        int out = -1;
        if (accept(TokenKind::Minus)) out = add({Kind::Negate, {}, {}, 0, {}, -1, {unary()}});
        else out = number();
        --m_depth;
        return out;
    }
    int number()
    {
        const ExprToken t = peek();
        switch (t.kind) {
        case TokenKind::Number: ++m_pos; return add({Kind::Number, {}, {}, t.number, {}, -1, {}});
        case TokenKind::AttrNumber: {
            ++m_pos;
            const QString lower = t.text.toLower();
            if (lower == u"map_cellsize") return add({Kind::MapCellsize, {}, {}, 0, {}, -1, {}});
            if (lower == u"data_cellsize") return add({Kind::DataCellsize, {}, {}, 0, {}, -1, {}});
            if (lower == u"shape") throw SyntaxError{QStringLiteral("[shape] is not a number at column %1").arg(t.column)};
            int slot = int(m_prog.attributes.indexOf(t.text));
            if (slot < 0) {
                slot = int(m_prog.attributes.size());
                m_prog.attributes << t.text;
            }
            return add({Kind::Binding, {}, {}, 0, {}, slot, {}});
        }
        case TokenKind::LParen: {
            ++m_pos;
            const int inner = sum();
            expect(TokenKind::RParen);
            return inner;
        }
        default: unexpected();
        }
    }

    QList<ExprToken> m_tokens;
    Program& m_prog;
    qsizetype m_pos = 0;
    int m_depth = 0;
};

// Thrown by the evaluation: MapServer's yyerror text and what the function reported.
struct Failure {
    QString yyerror;
    QString cause;
};

class Evaluator {
public:
    Evaluator(const Program& prog, const Geometry& shape, const ShapeExpression::Inputs& in)
        : m_prog(prog), m_shape(shape), m_in(in) {}

    Geometry shape(int i) const
    {
        const Program::Node& n = m_prog.nodes[size_t(i)];
        if (n.kind == Kind::Shape) return m_shape;
        const Geometry a = shape(n.args[0]);
        Result<Geometry> r = run(n, a);
        if (!r) throw Failure{QStringLiteral("Executing %1 failed.").arg(n.name), r.message()};
        return std::move(r).value();
    }

private:
    Result<Geometry> run(const Program::Node& n, const Geometry& a) const
    {
        const QString& f = n.name;
        auto arg = [&](size_t k, double fallback) { return k < n.args.size() ? number(n.args[k]) : fallback; };
        if (f == u"buffer") return shapeops::buffer(a, number(n.args[1]));
        if (f == u"difference") return shapeops::difference(a, shape(n.args[1]));
        if (f == u"simplify") return shapeops::simplify(a, number(n.args[1]));
        if (f == u"simplifypt") return shapeops::simplifyPreservingTopology(a, number(n.args[1]));
        if (f == u"generalize") return shapeops::generalize(a, number(n.args[1]));
        if (f == u"densify") return shapeops::densify(a, number(n.args[1]));
        if (f == u"centerline") return shapeops::centerline(a);
        if (f == u"inner") return shapeops::rings(a, false);
        if (f == u"outer") return shapeops::rings(a, true);
        // smoothsia: window size and iterations are C ints in MapServer.
        auto count = [&](size_t k, double fallback) {
            const double v = arg(k, fallback);
            return std::isnan(v) ? int(fallback) : int(std::clamp(v, -1e6, 1e6));
        };
        const QString pre = n.args.size() > 3 ? m_prog.nodes[size_t(n.args[3])].string : QString();
        return shapeops::smoothSia(a, count(1, 3), count(2, 1), pre);
    }

    double number(int i) const
    {
        const Program::Node& n = m_prog.nodes[size_t(i)];
        switch (n.kind) {
        case Kind::Number: return n.number;
        case Kind::MapCellsize: return m_in.mapCellsize;
        case Kind::DataCellsize: return m_in.dataCellsize;
        case Kind::Binding: {
            const int column = m_in.columns ? m_in.columns->value(n.slot, -1) : n.slot;
            return m_in.values ? m_in.values->value(column).toDouble() : 0;
        }
        case Kind::Negate: return -number(n.args[0]);
        case Kind::Arithmetic: {
            const double a = number(n.args[0]), b = number(n.args[1]);
            switch (n.op.unicode()) {
            case u'+': return a + b;
            case u'-': return a - b;
            case u'*': return a * b;
            case u'/':
                if (b == 0) throw Failure{QStringLiteral("Division by zero."), {}};
                return a / b;
            case u'%':  // MapServer: (int)a % (int)b, here without overflowing an int
                if (std::trunc(b) == 0) throw Failure{QStringLiteral("Division by zero."), {}};
                return std::fmod(std::trunc(a), std::trunc(b));
            default: return std::pow(a, b);
            }
        }
        default: return 0;
        }
    }

    const Program& m_prog;
    const Geometry& m_shape;
    const ShapeExpression::Inputs& m_in;
};

QString withoutEnclosingParentheses(QString text)
{
    text = text.trimmed();
    while (text.startsWith(u'(') && text.endsWith(u')')) {
        int depth = 0;
        bool enclosesAll = true;
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text[i] == u'(') ++depth;
            else if (text[i] == u')' && --depth == 0 && i != text.size() - 1) enclosesAll = false;
        }
        if (!enclosesAll) break;
        text = text.mid(1, text.size() - 2).trimmed();
    }
    return text;
}

}  // namespace

Result<ShapeExpression> ShapeExpression::parse(const QString& text)
{
    LexResult lexed = lexExpression(text, true);
    if (!lexed.error.isEmpty()) return Error(lexed.error);
    if (lexed.tokens.size() == 1) return Error(QStringLiteral("empty expression"));
    auto prog = std::make_shared<Program>();
    prog->text = withoutEnclosingParentheses(text);
    try {
        prog->root = Parser(std::move(lexed.tokens), *prog).parseAll();
    } catch (const SyntaxError& e) {
        return Error(e.message);
    }
    ShapeExpression out;
    out.m_program = std::move(prog);
    return out;
}

const QString& ShapeExpression::text() const
{
    return m_program->text;
}

const QStringList& ShapeExpression::attributes() const
{
    return m_program->attributes;
}

QList<int> ShapeExpression::columnsIn(const QStringList& fields) const
{
    QList<int> out;
    for (const QString& a : m_program->attributes) {
        int column = -1;
        for (qsizetype i = 0; i < fields.size() && column < 0; ++i)
            if (fields[i].compare(a, Qt::CaseInsensitive) == 0) column = int(i);
        out << column;
    }
    return out;
}

Result<Geometry> ShapeExpression::evaluate(const Geometry& shape, const Inputs& inputs) const
{
    try {
        return Evaluator(*m_program, shape, inputs).shape(m_program->root);
    } catch (const Failure& f) {
        QString lines = QStringLiteral("yyparse(): Expression parser error. %1").arg(f.yyerror);
        if (!f.cause.isEmpty()) lines += QLatin1Char('\n') + f.cause;
        return Error(lines);
    }
}

}  // namespace maptune
