// This file implements the spellings of tokens and operators.
#include "gordian/syntax/tokens.h"

namespace gordian::syntax {

std::string_view TokenString(Token t) {
  switch (t) {
    case Token::EOF_: return "EOF";
    case Token::Name: return "name";
    case Token::Literal: return "literal";
    case Token::Operator: return "op";
    case Token::AssignOp: return "op=";
    case Token::IncOp: return "opop";
    case Token::Assign: return "=";
    case Token::Define: return ":=";
    case Token::Arrow: return "<-";
    case Token::Star: return "*";
    case Token::Lparen: return "(";
    case Token::Lbrack: return "[";
    case Token::Lbrace: return "{";
    case Token::Rparen: return ")";
    case Token::Rbrack: return "]";
    case Token::Rbrace: return "}";
    case Token::Comma: return ",";
    case Token::Semi: return ";";
    case Token::Colon: return ":";
    case Token::Dot: return ".";
    case Token::DotDotDot: return "...";
    case Token::Break: return "break";
    case Token::Case: return "case";
    case Token::Chan: return "chan";
    case Token::Const: return "const";
    case Token::Continue: return "continue";
    case Token::Default: return "default";
    case Token::Defer: return "defer";
    case Token::Else: return "else";
    case Token::Fallthrough: return "fallthrough";
    case Token::For: return "for";
    case Token::Func: return "func";
    case Token::Go: return "go";
    case Token::Goto: return "goto";
    case Token::If: return "if";
    case Token::Import: return "import";
    case Token::Interface: return "interface";
    case Token::Map: return "map";
    case Token::Package: return "package";
    case Token::Range: return "range";
    case Token::Return: return "return";
    case Token::Select: return "select";
    case Token::Struct: return "struct";
    case Token::Switch: return "switch";
    case Token::Type: return "type";
    case Token::Var: return "var";
    case Token::Count_: break;
  }
  return "?";
}

std::string_view OpString(Op op) {
  switch (op) {
    case Op::None: return "";
    case Op::Def: return ":";
    case Op::Not: return "!";
    case Op::Recv: return "<-";
    case Op::Tilde: return "~";
    case Op::OrOr: return "||";
    case Op::AndAnd: return "&&";
    case Op::Eql: return "==";
    case Op::Neq: return "!=";
    case Op::Lss: return "<";
    case Op::Leq: return "<=";
    case Op::Gtr: return ">";
    case Op::Geq: return ">=";
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Or: return "|";
    case Op::Xor: return "^";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Rem: return "%";
    case Op::And: return "&";
    case Op::AndNot: return "&^";
    case Op::Shl: return "<<";
    case Op::Shr: return ">>";
    case Op::Count_: break;
  }
  return "?";
}

}  // namespace gordian::syntax
