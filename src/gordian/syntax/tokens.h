// This file defines the tokens of the Go language as the scanner delivers them:
// token kinds, operators with their precedences, and literal kinds.
// The scheme follows Go's cmd/compile/internal/syntax: all binary and unary
// operators share one token (Operator) and carry an Op and a precedence, so the
// parser's expression loop is a single compare.
#pragma once

#include <cstdint>
#include <string_view>

namespace gordian::syntax {

enum class Token : uint8_t {
  EOF_ = 0,
  // names and literals
  Name,
  Literal,
  // operators and operations
  Operator,  // op: any binary or unary operator except the ones below
  AssignOp,  // op= (op is the operator; Def is not used here)
  IncOp,     // ++ or -- (op is Add or Sub)
  Assign,    // =
  Define,    // :=
  Arrow,     // <-
  Star,      // *
  // delimiters
  Lparen,    // (
  Lbrack,    // [
  Lbrace,    // {
  Rparen,    // )
  Rbrack,    // ]
  Rbrace,    // }
  Comma,     // ,
  Semi,      // ; (lit is "semicolon", "newline" or "EOF" for automatic ones)
  Colon,     // :
  Dot,       // .
  DotDotDot, // ...
  // keywords
  Break,
  Case,
  Chan,
  Const,
  Continue,
  Default,
  Defer,
  Else,
  Fallthrough,
  For,
  Func,
  Go,
  Goto,
  If,
  Import,
  Interface,
  Map,
  Package,
  Range,
  Return,
  Select,
  Struct,
  Switch,
  Type,
  Var,
  Count_,
};

inline constexpr int kTokenCount = static_cast<int>(Token::Count_);

// Bit set of tokens, for follow lists and stop sets (all tokens fit in 64 bits).
using TokenSet = uint64_t;
constexpr TokenSet TokenBit(Token t) { return TokenSet{1} << static_cast<int>(t); }
constexpr bool InSet(Token t, TokenSet s) { return (s & TokenBit(t)) != 0; }

enum class Op : uint8_t {
  None = 0,
  Def,    // :  (only used internally by the parser)
  Not,    // !
  Recv,   // <-
  Tilde,  // ~

  // precedence 1
  OrOr,  // ||
  // precedence 2
  AndAnd,  // &&
  // precedence 3
  Eql,  // ==
  Neq,  // !=
  Lss,  // <
  Leq,  // <=
  Gtr,  // >
  Geq,  // >=
  // precedence 4
  Add,  // +
  Sub,  // -
  Or,   // |
  Xor,  // ^
  // precedence 5
  Mul,     // *
  Div,     // /
  Rem,     // %
  And,     // &
  AndNot,  // &^
  Shl,     // <<
  Shr,     // >>
  Count_,
};

// Binary operator precedences, 0 for unary-only operators.
enum Prec : uint8_t {
  kPrecNone = 0,
  kPrecOrOr = 1,
  kPrecAndAnd = 2,
  kPrecCmp = 3,
  kPrecAdd = 4,
  kPrecMul = 5,
};

enum class LitKind : uint8_t { Int, Float, Imag, Rune, String };

// Channel directions as written in a channel type.
enum class ChanDir : uint8_t { Both = 0, Send, Recv };

// The spelling of a token or operator as Go source ("func", "<-", "&^").
std::string_view TokenString(Token t);
std::string_view OpString(Op op);

}  // namespace gordian::syntax
