#include "expr/expr_parser.h"

#include "expr/expr_lexer.h"
#include "expr/expr_strings.h"

namespace maptune {
namespace {

QString typeName(ValueType t)
{
    switch (t) {
    case ValueType::Bool: return QStringLiteral("boolean");
    case ValueType::Number: return QStringLiteral("number");
    case ValueType::String: return QStringLiteral("string");
    case ValueType::Time: return QStringLiteral("time");
    }
    return {};
}

bool isComparison(TokenKind k)
{
    switch (k) {
    case TokenKind::Eq: case TokenKind::Ne: case TokenKind::Lt: case TokenKind::Gt:
    case TokenKind::Le: case TokenKind::Ge: case TokenKind::IEq: case TokenKind::Re:
    case TokenKind::IRe: case TokenKind::In:
        return true;
    default:
        return false;
    }
}

OpCode comparisonOp(TokenKind k)
{
    switch (k) {
    case TokenKind::Eq: return OpCode::Eq;
    case TokenKind::Ne: return OpCode::Ne;
    case TokenKind::Lt: return OpCode::Lt;
    case TokenKind::Gt: return OpCode::Gt;
    case TokenKind::Le: return OpCode::Le;
    case TokenKind::Ge: return OpCode::Ge;
    case TokenKind::IEq: return OpCode::IEq;
    case TokenKind::Re: return OpCode::Re;
    case TokenKind::IRe: return OpCode::IRe;
    default: return OpCode::In;
    }
}

// Thrown inside the parser only, caught in parseLogicalExpression().
struct SyntaxError {
    QString message;
};

// Recursive descent nests one call chain per parenthesis, NOT, minus or ^;
// past this many the parser reports an error instead of running out of stack
// (a server thread's stack is small). Real expressions nest a few levels.
constexpr int kMaxNesting = 1000;

class Parser {
public:
    Parser(QList<ExprToken> tokens, ExprProgram& program) : m_tokens(std::move(tokens)), m_prog(program) {}

    int parseAll()
    {
        const int root = parseOr();
        if (peek().kind != TokenKind::End) unexpected();
        return root;
    }

    QString typeError() const { return m_typeError; }

private:
    const ExprToken& peek() const { return m_tokens[m_pos]; }
    const ExprToken& take() { return m_tokens[m_pos++]; }
    bool accept(TokenKind k)
    {
        if (peek().kind != k) return false;
        ++m_pos;
        return true;
    }

    // Counts the nesting while a parse function that may recurse is active.
    class Nesting {
    public:
        explicit Nesting(Parser& p) : m_p(p)
        {
            if (++m_p.m_nesting > kMaxNesting)
                throw SyntaxError{QStringLiteral("expression nested too deeply at column %1").arg(m_p.peek().column)};
        }
        ~Nesting() { --m_p.m_nesting; }
        Nesting(const Nesting&) = delete;
        Nesting& operator=(const Nesting&) = delete;

    private:
        Parser& m_p;
    };

    [[noreturn]] void unexpected() const
    {
        const ExprToken& t = peek();
        throw SyntaxError{QStringLiteral("unexpected %1 at column %2").arg(describeToken(t)).arg(t.column)};
    }

    void expect(TokenKind k)
    {
        if (!accept(k)) unexpected();
    }

    void typeMismatch(const QString& what, int column)
    {
        if (m_typeError.isEmpty())
            m_typeError = QStringLiteral("%1 at column %2").arg(what).arg(column);
    }

    ValueType typeOf(int node) const { return m_prog.nodes[size_t(node)].type; }

    int add(ExprNode node)
    {
        m_prog.nodes.push_back(std::move(node));
        return int(m_prog.nodes.size()) - 1;
    }

    int makeNode(OpCode op, ValueType type, int column, int lhs = -1, int rhs = -1)
    {
        ExprNode n;
        n.op = op;
        n.type = type;
        n.column = column;
        n.lhs = lhs;
        n.rhs = rhs;
        return add(std::move(n));
    }

    void requireLogical(int node, const ExprToken& op)
    {
        const ValueType t = typeOf(node);
        if (t != ValueType::Bool && t != ValueType::Number)
            typeMismatch(QStringLiteral("'%1' needs a logical or numeric operand, not a %2").arg(op.text, typeName(t)), op.column);
    }

    int parseOr()
    {
        const Nesting nesting(*this);  // parentheses and function arguments come back here
        int lhs = parseAnd();
        while (peek().kind == TokenKind::Or) {
            const ExprToken op = take();
            const int rhs = parseAnd();
            requireLogical(lhs, op);
            requireLogical(rhs, op);
            lhs = makeNode(OpCode::Or, ValueType::Bool, op.column, lhs, rhs);
        }
        return lhs;
    }

    int parseAnd()
    {
        int lhs = parseNot();
        while (peek().kind == TokenKind::And) {
            const ExprToken op = take();
            const int rhs = parseNot();
            requireLogical(lhs, op);
            requireLogical(rhs, op);
            lhs = makeNode(OpCode::And, ValueType::Bool, op.column, lhs, rhs);
        }
        return lhs;
    }

    int parseNot()
    {
        const Nesting nesting(*this);
        if (peek().kind == TokenKind::Not) {
            const ExprToken op = take();
            const int operand = parseNot();
            requireLogical(operand, op);
            return makeNode(OpCode::Not, ValueType::Bool, op.column, operand);
        }
        return parseComparison();
    }

    int parseComparison()
    {
        int lhs = parseAdditive();
        while (isComparison(peek().kind)) {
            const ExprToken op = take();
            const int rhs = parseAdditive();
            lhs = makeComparison(op, lhs, rhs);
        }
        return lhs;
    }

    bool comparable(OpCode op, ValueType l, ValueType r) const
    {
        switch (op) {
        case OpCode::Re:
        case OpCode::IRe:
            return l == ValueType::String && r == ValueType::String;
        case OpCode::In:
            return r == ValueType::String && (l == ValueType::String || l == ValueType::Number);
        case OpCode::Eq:
        case OpCode::Ne:
            return l == r;
        default:
            return l == r && l != ValueType::Bool;
        }
    }

    int makeComparison(const ExprToken& opTok, int lhs, int rhs)
    {
        const OpCode op = comparisonOp(opTok.kind);
        const ValueType l = typeOf(lhs), r = typeOf(rhs);
        if (!comparable(op, l, r))
            typeMismatch(QStringLiteral("'%1' cannot compare a %2 with a %3").arg(opTok.text, typeName(l), typeName(r)), opTok.column);
        const int node = makeNode(op, ValueType::Bool, opTok.column, lhs, rhs);
        m_prog.nodes[size_t(node)].operandType = l;
        const ExprNode& right = m_prog.nodes[size_t(rhs)];
        if (right.op != OpCode::LitString) return node;
        if (op == OpCode::Re || op == OpCode::IRe) {
            QRegularExpression re = compilePosixRegex(right.string, op == OpCode::IRe);
            if (!re.isValid())
                throw SyntaxError{QStringLiteral("invalid regular expression '%1': %2 at column %3")
                                      .arg(right.string, re.errorString()).arg(right.column)};
            m_prog.regexes.push_back(std::move(re));
            m_prog.nodes[size_t(node)].slot = int(m_prog.regexes.size()) - 1;
        } else if (op == OpCode::In) {
            ExprNode& n = m_prog.nodes[size_t(node)];
            n.list = right.string.split(u',');
            for (const QString& item : std::as_const(n.list)) n.numbers.push_back(exprstr::leadingNumber(item));
        }
        return node;
    }

    int parseAdditive()
    {
        int lhs = parseMultiplicative();
        while (peek().kind == TokenKind::Plus || peek().kind == TokenKind::Minus) {
            const ExprToken op = take();
            const int rhs = parseMultiplicative();
            const ValueType l = typeOf(lhs), r = typeOf(rhs);
            if (op.kind == TokenKind::Plus && l == ValueType::String && r == ValueType::String) {
                lhs = makeNode(OpCode::Concat, ValueType::String, op.column, lhs, rhs);
                continue;
            }
            requireNumbers(op, l, r);
            lhs = makeNode(op.kind == TokenKind::Plus ? OpCode::Add : OpCode::Sub, ValueType::Number, op.column, lhs, rhs);
        }
        return lhs;
    }

    void requireNumbers(const ExprToken& op, ValueType l, ValueType r)
    {
        if (l != ValueType::Number || r != ValueType::Number)
            typeMismatch(QStringLiteral("'%1' cannot combine a %2 with a %3").arg(op.text, typeName(l), typeName(r)), op.column);
    }

    int parseMultiplicative()
    {
        int lhs = parseUnary();
        while (peek().kind == TokenKind::Star || peek().kind == TokenKind::Slash || peek().kind == TokenKind::Percent) {
            const ExprToken op = take();
            const int rhs = parseUnary();
            requireNumbers(op, typeOf(lhs), typeOf(rhs));
            const OpCode code = op.kind == TokenKind::Star ? OpCode::Mul : op.kind == TokenKind::Slash ? OpCode::Div : OpCode::Mod;
            lhs = makeNode(code, ValueType::Number, op.column, lhs, rhs);
        }
        return lhs;
    }

    int parseUnary()
    {
        const Nesting nesting(*this);  // also the exponent of ^
        if (peek().kind == TokenKind::Minus) {
            const ExprToken op = take();
            const int operand = parseUnary();
            requireNumbers(op, typeOf(operand), ValueType::Number);
            return makeNode(OpCode::Neg, ValueType::Number, op.column, operand);
        }
        return parsePower();
    }

    int parsePower()
    {
        const int base = parsePrimary();
        if (peek().kind != TokenKind::Caret) return base;
        const ExprToken op = take();
        const int exponent = parseUnary();  // right-associative: 2^3^2 = 2^(3^2)
        requireNumbers(op, typeOf(base), typeOf(exponent));
        return makeNode(OpCode::Pow, ValueType::Number, op.column, base, exponent);
    }

    int attribute(const ExprToken& t, OpCode op, ValueType type)
    {
        const int node = makeNode(op, type, t.column);
        qsizetype slot = m_prog.attributes.indexOf(t.text);
        if (slot < 0) {
            m_prog.attributes.append(t.text);
            slot = m_prog.attributes.size() - 1;
        }
        m_prog.nodes[size_t(node)].slot = int(slot);
        return node;
    }

    int parsePrimary()
    {
        const ExprToken t = peek();
        switch (t.kind) {
        case TokenKind::Number:
        case TokenKind::Boolean: {
            ++m_pos;
            const bool isBool = t.kind == TokenKind::Boolean;
            const int n = makeNode(isBool ? OpCode::LitBool : OpCode::LitNumber, isBool ? ValueType::Bool : ValueType::Number, t.column);
            m_prog.nodes[size_t(n)].number = t.number;
            return n;
        }
        case TokenKind::String: {
            ++m_pos;
            const int n = makeNode(OpCode::LitString, ValueType::String, t.column);
            m_prog.nodes[size_t(n)].string = t.text;
            return n;
        }
        case TokenKind::Time: {
            ++m_pos;
            const auto time = ExprTime::parse(t.text);
            if (!time)
                throw SyntaxError{QStringLiteral("cannot parse time `%1` (use e.g. YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS) at column %2")
                                      .arg(t.text).arg(t.column)};
            const int n = makeNode(OpCode::LitTime, ValueType::Time, t.column);
            m_prog.nodes[size_t(n)].time = *time;
            return n;
        }
        case TokenKind::AttrNumber: ++m_pos; return attribute(t, OpCode::AttrNumber, ValueType::Number);
        case TokenKind::AttrString: ++m_pos; return attribute(t, OpCode::AttrString, ValueType::String);
        case TokenKind::AttrTime: ++m_pos; return attribute(t, OpCode::AttrTime, ValueType::Time);
        case TokenKind::LParen: {
            ++m_pos;
            const int inner = parseOr();
            expect(TokenKind::RParen);
            return inner;
        }
        case TokenKind::Function: ++m_pos; return parseFunction(t);
        default: unexpected();
        }
    }

    int parseFunction(const ExprToken& name)
    {
        expect(TokenKind::LParen);
        QList<int> args;
        if (peek().kind != TokenKind::RParen) {
            args.append(parseOr());
            while (accept(TokenKind::Comma)) args.append(parseOr());
        }
        expect(TokenKind::RParen);
        return makeCall(name, args);
    }

    int makeCall(const ExprToken& name, const QList<int>& args)
    {
        struct Signature {
            const char16_t* name;
            OpCode op;
            ValueType result;
            std::initializer_list<ValueType> params;
            int optional;  // trailing parameters that may be left out
        };
        using VT = ValueType;
        static const Signature kSignatures[] = {
            {u"length", OpCode::Length, VT::Number, {VT::String}, 0},
            {u"tostring", OpCode::ToString, VT::String, {VT::Number, VT::String}, 0},
            {u"commify", OpCode::Commify, VT::String, {VT::String}, 0},
            {u"upper", OpCode::Upper, VT::String, {VT::String}, 0},
            {u"lower", OpCode::Lower, VT::String, {VT::String}, 0},
            {u"initcap", OpCode::InitCap, VT::String, {VT::String}, 0},
            {u"firstcap", OpCode::FirstCap, VT::String, {VT::String}, 0},
            {u"round", OpCode::Round, VT::Number, {VT::Number, VT::Number}, 1},
        };
        for (const Signature& sig : kSignatures) {
            if (name.text != QStringView(sig.name)) continue;
            const int maxArgs = int(sig.params.size());
            if (args.size() > maxArgs || args.size() < maxArgs - sig.optional)
                throw SyntaxError{QStringLiteral("%1() takes %2 argument(s), %3 given at column %4")
                                      .arg(name.text).arg(maxArgs).arg(args.size()).arg(name.column)};
            int i = 0;
            for (ValueType want : sig.params) {
                if (i < args.size() && typeOf(args[i]) != want)
                    typeMismatch(QStringLiteral("%1() argument %2 must be a %3, not a %4")
                                     .arg(name.text).arg(i + 1).arg(typeName(want), typeName(typeOf(args[i]))),
                                 name.column);
                ++i;
            }
            return makeNode(sig.op, sig.result, name.column, args.value(0, -1), args.value(1, -1));
        }
        throw SyntaxError{QStringLiteral("unknown function '%1' at column %2").arg(name.text).arg(name.column)};
    }

    QList<ExprToken> m_tokens;
    ExprProgram& m_prog;
    qsizetype m_pos = 0;
    QString m_typeError;
    int m_nesting = 0;
};

}  // namespace

QRegularExpression compilePosixRegex(const QString& pattern, bool caseInsensitive)
{
    // POSIX '.' matches a newline (no REG_NEWLINE).
    QRegularExpression::PatternOptions opts = QRegularExpression::DotMatchesEverythingOption;
    if (caseInsensitive) opts |= QRegularExpression::CaseInsensitiveOption;
    QRegularExpression re(exprstr::posixToPcre(pattern), opts);
    // Compile now: afterwards the object is only read, also from several threads.
    re.optimize();
    return re;
}

ParseResult parseLogicalExpression(const QString& text)
{
    ParseResult result;
    LexResult lexed = lexExpression(text);
    if (!lexed.error.isEmpty()) {
        result.error = lexed.error;
        return result;
    }
    if (lexed.tokens.size() == 1) {
        result.error = QStringLiteral("empty expression");
        return result;
    }
    auto program = std::make_shared<ExprProgram>();
    Parser parser(std::move(lexed.tokens), *program);
    try {
        program->root = parser.parseAll();
    } catch (const SyntaxError& e) {
        result.error = e.message;
        return result;
    }
    result.typeError = parser.typeError();
    if (result.typeError.isEmpty() && program->nodes[size_t(program->root)].type == ValueType::Time)
        result.typeError = QStringLiteral("a time value alone is not an expression at column 1");
    result.program = std::move(program);
    return result;
}

}  // namespace maptune
