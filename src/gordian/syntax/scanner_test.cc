// Tests for the Go scanner: every token kind, semicolon insertion, every
// literal form (valid and invalid, with the exact message and position),
// comments and directives, BOM, NUL and invalid UTF-8, Unicode identifiers,
// and a scan of the whole Go standard library with zero errors.
#include "gordian/syntax/scanner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "gordian/syntax/unicode.h"

namespace gordian::syntax {
namespace {

struct Tok {
  Token tok;
  std::string lit;
  uint32_t off;  // byte offset of the token
  uint32_t end;  // byte offset one past it
  Op op;
  uint8_t prec;
  LitKind kind;
  bool bad;
};

struct Scanned {
  std::vector<Tok> toks;             // up to and including EOF_
  std::vector<std::string> errors;   // "line:col: msg"
  std::vector<Comment> comments;
  int error_count = 0;
  Pos base = kNoPos;  // the file's base, to turn comment positions into offsets
};

// Scans src completely. The SourceSet is static so that the comments'
// string_views stay valid.
Scanned ScanAll(const std::string& src) {
  static SourceSet* set = new SourceSet;
  const SourceFile* f = set->AddFile("x.go", src);
  Scanned out;
  out.base = f->base();
  ErrorHandler errh = [&](const Error& e) {
    Position p = f->PositionAt(f->OffsetOf(e.pos));
    out.errors.push_back(fmt::format("{}:{}: {}", p.line, p.column, e.msg));
  };
  Scanner s(*f, &errh, &out.comments);
  for (int i = 0; i < 100000; i++) {
    s.Next();
    out.toks.push_back(Tok{s.tok, std::string(s.lit), f->OffsetOf(s.pos), f->OffsetOf(s.end),
                           s.op, s.prec, s.kind, s.bad});
    if (s.tok == Token::EOF_) break;
  }
  out.error_count = s.error_count();
  return out;
}

// A compact rendering of the token stream: "name(x) ; literal(1)".
std::string Render(const Scanned& s) {
  std::string out;
  for (const Tok& t : s.toks) {
    if (!out.empty()) out += ' ';
    switch (t.tok) {
      case Token::Name: out += "name(" + t.lit + ")"; break;
      case Token::Literal: out += "lit(" + t.lit + ")"; break;
      case Token::Semi: out += t.lit == "semicolon" ? ";" : ";" + t.lit; break;
      case Token::Operator:
      case Token::AssignOp:
      case Token::IncOp:
        out += std::string(TokenString(t.tok)) + "[" + std::string(OpString(t.op)) + "]";
        break;
      default: out += TokenString(t.tok); break;
    }
  }
  return out;
}

// The single literal token of src (which must scan to that token, an optional
// automatic semicolon and EOF).
Tok OneLiteral(const std::string& src, std::vector<std::string>* errors) {
  Scanned s = ScanAll(src);
  *errors = s.errors;
  EXPECT_GE(s.toks.size(), 2u) << src;
  EXPECT_EQ(s.toks[0].tok, Token::Literal) << src;
  return s.toks[0];
}

// src scans as one valid literal of kind k, with src as its text.
void ExpectValidLiteral(const std::string& src, LitKind k) {
  std::vector<std::string> errors;
  Tok t = OneLiteral(src, &errors);
  EXPECT_EQ(t.lit, src);
  EXPECT_EQ(t.kind, k) << src;
  EXPECT_FALSE(t.bad) << src;
  EXPECT_TRUE(errors.empty()) << src << ": " << (errors.empty() ? "" : errors[0]);
}

struct BadLiteral {
  const char* src;
  const char* lit;  // the literal token's text
  std::vector<std::string> errors;
};

// c.src scans as one bad literal with text c.lit and exactly c.errors.
// Returns the token.
Tok ExpectBadLiteral(const BadLiteral& c) {
  std::vector<std::string> errors;
  Tok t = OneLiteral(c.src, &errors);
  EXPECT_EQ(t.lit, c.lit) << c.src;
  EXPECT_TRUE(t.bad) << c.src;
  EXPECT_EQ(errors, c.errors) << c.src;
  return t;
}

// ---------------------------------------------------------------------------
// Tokens

TEST(Scanner, Empty) {
  Scanned s = ScanAll("");
  ASSERT_EQ(s.toks.size(), 1u);
  EXPECT_EQ(s.toks[0].tok, Token::EOF_);
  EXPECT_EQ(s.toks[0].off, 0u);
  EXPECT_EQ(s.error_count, 0);
}

TEST(Scanner, EOFIsSticky) {
  SourceSet set;
  const SourceFile* f = set.AddFile("x.go", "x");
  Scanner s(*f, nullptr, nullptr);
  s.Next();
  EXPECT_EQ(s.tok, Token::Name);
  s.Next();
  EXPECT_EQ(s.tok, Token::Semi);
  EXPECT_EQ(s.lit, "EOF");
  for (int i = 0; i < 3; i++) {
    s.Next();
    EXPECT_EQ(s.tok, Token::EOF_);
    EXPECT_EQ(f->OffsetOf(s.pos), 1u);
  }
}

TEST(Scanner, OperatorsAndDelimiters) {
  struct Case {
    const char* src;
    Token tok;
    Op op;
    uint8_t prec;
  };
  const Case cases[] = {
      {"+", Token::Operator, Op::Add, kPrecAdd},
      {"-", Token::Operator, Op::Sub, kPrecAdd},
      {"*", Token::Star, Op::Mul, kPrecMul},
      {"/", Token::Operator, Op::Div, kPrecMul},
      {"%", Token::Operator, Op::Rem, kPrecMul},
      {"&", Token::Operator, Op::And, kPrecMul},
      {"|", Token::Operator, Op::Or, kPrecAdd},
      {"^", Token::Operator, Op::Xor, kPrecAdd},
      {"<<", Token::Operator, Op::Shl, kPrecMul},
      {">>", Token::Operator, Op::Shr, kPrecMul},
      {"&^", Token::Operator, Op::AndNot, kPrecMul},
      {"+=", Token::AssignOp, Op::Add, kPrecAdd},
      {"-=", Token::AssignOp, Op::Sub, kPrecAdd},
      {"*=", Token::AssignOp, Op::Mul, kPrecMul},
      {"/=", Token::AssignOp, Op::Div, kPrecMul},
      {"%=", Token::AssignOp, Op::Rem, kPrecMul},
      {"&=", Token::AssignOp, Op::And, kPrecMul},
      {"|=", Token::AssignOp, Op::Or, kPrecAdd},
      {"^=", Token::AssignOp, Op::Xor, kPrecAdd},
      {"<<=", Token::AssignOp, Op::Shl, kPrecMul},
      {">>=", Token::AssignOp, Op::Shr, kPrecMul},
      {"&^=", Token::AssignOp, Op::AndNot, kPrecMul},
      {"&&", Token::Operator, Op::AndAnd, kPrecAndAnd},
      {"||", Token::Operator, Op::OrOr, kPrecOrOr},
      {"<-", Token::Arrow, Op::Recv, kPrecNone},
      {"++", Token::IncOp, Op::Add, kPrecAdd},
      {"--", Token::IncOp, Op::Sub, kPrecAdd},
      {"==", Token::Operator, Op::Eql, kPrecCmp},
      {"<", Token::Operator, Op::Lss, kPrecCmp},
      {">", Token::Operator, Op::Gtr, kPrecCmp},
      {"=", Token::Assign, Op::None, kPrecNone},
      {"!", Token::Operator, Op::Not, kPrecNone},
      {"~", Token::Operator, Op::Tilde, kPrecNone},
      {"!=", Token::Operator, Op::Neq, kPrecCmp},
      {"<=", Token::Operator, Op::Leq, kPrecCmp},
      {">=", Token::Operator, Op::Geq, kPrecCmp},
      {":=", Token::Define, Op::None, kPrecNone},
      {"...", Token::DotDotDot, Op::None, kPrecNone},
      {"(", Token::Lparen, Op::None, kPrecNone},
      {"[", Token::Lbrack, Op::None, kPrecNone},
      {"{", Token::Lbrace, Op::None, kPrecNone},
      {",", Token::Comma, Op::None, kPrecNone},
      {".", Token::Dot, Op::None, kPrecNone},
      {")", Token::Rparen, Op::None, kPrecNone},
      {"]", Token::Rbrack, Op::None, kPrecNone},
      {"}", Token::Rbrace, Op::None, kPrecNone},
      {";", Token::Semi, Op::None, kPrecNone},
      {":", Token::Colon, Op::None, kPrecNone},
  };
  for (const Case& c : cases) {
    // Surrounded by spaces and a name, to check the token's extent.
    Scanned s = ScanAll(std::string("a ") + c.src + " b");
    ASSERT_GE(s.toks.size(), 3u) << c.src;
    const Tok& t = s.toks[1];
    EXPECT_EQ(t.tok, c.tok) << c.src;
    EXPECT_EQ(t.op, c.op) << c.src;
    EXPECT_EQ(t.prec, c.prec) << c.src;
    EXPECT_EQ(t.off, 2u) << c.src;
    EXPECT_EQ(t.end, 2u + std::strlen(c.src)) << c.src;
    if (c.tok == Token::Semi) {
      EXPECT_EQ(t.lit, "semicolon");
    } else {
      EXPECT_EQ(t.lit, c.src);
    }
    EXPECT_EQ(s.error_count, 0) << c.src;
  }
}

TEST(Scanner, LongestMatch) {
  EXPECT_EQ(Render(ScanAll("a<<=b<-c&^=d&&e...f..g....")),
            "name(a) op=[<<] name(b) <- name(c) op=[&^] name(d) op[&&] name(e) ... "
            "name(f) . . name(g) ... . EOF");
  EXPECT_EQ(Render(ScanAll("x+++y")), "name(x) opop[+] op[+] name(y) ;EOF EOF");
  EXPECT_EQ(Render(ScanAll("x---y")), "name(x) opop[-] op[-] name(y) ;EOF EOF");
  EXPECT_EQ(Render(ScanAll("a=>b")), "name(a) = op[>] name(b) ;EOF EOF");
  EXPECT_EQ(Render(ScanAll("a:=b:c")), "name(a) := name(b) : name(c) ;EOF EOF");
  EXPECT_EQ(Render(ScanAll("*p*=2")), "* name(p) op=[*] lit(2) ;EOF EOF");
}

TEST(Scanner, Keywords) {
  // The keyword block of the Go spec; sorted, it is in the order of the
  // keyword tokens Break..Var.
  std::istringstream spec(
      "break        default      func         interface    select\n"
      "case         defer        go           map          struct\n"
      "chan         else         goto         package      switch\n"
      "const        fallthrough  if           range        type\n"
      "continue     for          import       return       var\n");
  std::vector<std::string> kws{std::istream_iterator<std::string>(spec), {}};
  const auto first = static_cast<size_t>(Token::Break);
  ASSERT_EQ(kws.size(), static_cast<size_t>(Token::Var) - first + 1);
  std::sort(kws.begin(), kws.end());
  for (size_t i = 0; i < kws.size(); i++) {
    const std::string& src = kws[i];
    Token tok = static_cast<Token>(first + i);
    Scanned s = ScanAll(src);
    EXPECT_EQ(s.toks[0].tok, tok) << src;
    EXPECT_EQ(s.toks[0].lit, src);
    EXPECT_EQ(TokenString(tok), src);
  }
  // Near misses are names.
  for (const char* name : {"breaks", "Func", "fo", "_", "x", "ifx", "go_", "typ", "vars",
                           "fallthroughs", "interfaces", "i", "defer1", "chan_", "rangE"}) {
    Scanned s = ScanAll(name);
    EXPECT_EQ(s.toks[0].tok, Token::Name) << name;
    EXPECT_EQ(s.toks[0].lit, name);
  }
}

// ---------------------------------------------------------------------------
// Automatic semicolons

TEST(Scanner, SemicolonAfterLineEnders) {
  // A newline after each of these tokens becomes a semicolon.
  for (const char* src : {"x", "1", "1.5", "2i", "'a'", "\"s\"", "`r`", "break", "continue",
                          "fallthrough", "return", "x++", "x--", ")", "]", "}"}) {
    Scanned s = ScanAll(std::string(src) + "\nz");
    ASSERT_GE(s.toks.size(), 3u) << src;
    const Tok& semi = s.toks[s.toks.size() - 4];
    EXPECT_EQ(semi.tok, Token::Semi) << src;
    EXPECT_EQ(semi.lit, "newline") << src;
    EXPECT_EQ(semi.off, std::strlen(src)) << src;  // at the newline
    EXPECT_EQ(semi.end, std::strlen(src) + 1) << src;
  }
}

TEST(Scanner, NoSemicolonAfterOthers) {
  for (const char* src : {"+", "(", "[", "{", ",", ".", ":", "=", "if", "func", "go", "var",
                          "*", "<-", "...", "&&", "!", "~", "defer", "else", "chan"}) {
    Scanned s = ScanAll(std::string(src) + "\nz");
    ASSERT_EQ(s.toks.size(), 4u) << src;
    EXPECT_EQ(s.toks[1].tok, Token::Name) << src;
    EXPECT_EQ(s.toks[2].lit, "EOF") << src;
  }
}

TEST(Scanner, SemicolonCases) {
  EXPECT_EQ(Render(ScanAll("x\n\n\ny\n")), "name(x) ;newline name(y) ;newline EOF");
  EXPECT_EQ(Render(ScanAll("x;y;")), "name(x) ; name(y) ; EOF");
  EXPECT_EQ(Render(ScanAll("x;\n")), "name(x) ; EOF");
  EXPECT_EQ(Render(ScanAll("return")), "return ;EOF EOF");
  EXPECT_EQ(Render(ScanAll("x \t\r\n")), "name(x) ;newline EOF");
  // A line comment does not hide the newline after it.
  EXPECT_EQ(Render(ScanAll("x // c\ny")), "name(x) ;newline name(y) ;EOF EOF");
  EXPECT_EQ(Render(ScanAll("x // c")), "name(x) ;EOF EOF");
  // A general comment on one line is white space.
  EXPECT_EQ(Render(ScanAll("x /* c */ y")), "name(x) name(y) ;EOF EOF");
  EXPECT_EQ(Render(ScanAll("x /* c */")), "name(x) ;EOF EOF");
  // A general comment containing a newline acts like a newline, once.
  EXPECT_EQ(Render(ScanAll("x /* a\nb */ y")), "name(x) ;newline name(y) ;EOF EOF");
  EXPECT_EQ(Render(ScanAll("x /* a\nb */\ny")), "name(x) ;newline name(y) ;EOF EOF");
  EXPECT_EQ(Render(ScanAll("x /* a */\ny")), "name(x) ;newline name(y) ;EOF EOF");
  // ... but only where a newline would insert one.
  EXPECT_EQ(Render(ScanAll("x + /* a\nb */ y")), "name(x) op[+] name(y) ;EOF EOF");

  Scanned s = ScanAll("x /* a\nb */ y");
  EXPECT_EQ(s.toks[1].off, 2u);   // the comment's position
  EXPECT_EQ(s.toks[1].end, 11u);  // its end
  ASSERT_EQ(s.comments.size(), 1u);
  EXPECT_EQ(s.comments[0].text, "/* a\nb */");

  Scanned e = ScanAll("x");
  EXPECT_EQ(e.toks[1].off, 1u);
  EXPECT_EQ(e.toks[1].end, 1u);
}

// ---------------------------------------------------------------------------
// Number literals

TEST(Scanner, ValidNumbers) {
  const std::pair<const char*, LitKind> cases[] = {
      {"0", LitKind::Int},          {"1", LitKind::Int},
      {"123456789", LitKind::Int},  {"1_000_000", LitKind::Int},
      {"0x1F", LitKind::Int},       {"0XdeadBEEF", LitKind::Int},
      {"0x_1f", LitKind::Int},      {"0o17", LitKind::Int},
      {"0O_17", LitKind::Int},      {"0b101", LitKind::Int},
      {"0B_1_0", LitKind::Int},     {"0777", LitKind::Int},
      {"0_7", LitKind::Int},        {"00", LitKind::Int},
      {"0x1e3", LitKind::Int},
      {"1.", LitKind::Float},       {"1.5", LitKind::Float},
      {".5", LitKind::Float},       {"1e10", LitKind::Float},
      {"1E+5", LitKind::Float},     {"1.5e-3", LitKind::Float},
      {"0.", LitKind::Float},       {"089.5", LitKind::Float},
      {"00.5", LitKind::Float},     {"089e1", LitKind::Float},
      {"0x1p-2", LitKind::Float},   {"0x1.8p3", LitKind::Float},
      {"0X.8P0", LitKind::Float},   {"0x_1p0", LitKind::Float},
      {"0x1.p1", LitKind::Float},   {"1_0.2_5e1_0", LitKind::Float},
      {".0e0", LitKind::Float},     {"6.67428e-11", LitKind::Float},
      {"1i", LitKind::Imag},        {"0i", LitKind::Imag},
      {"0789i", LitKind::Imag},     {"1.5i", LitKind::Imag},
      {"1e3i", LitKind::Imag},      {"0x1p2i", LitKind::Imag},
      {"0b1i", LitKind::Imag},      {"0o7i", LitKind::Imag},
      {"0x10i", LitKind::Imag},     {".5i", LitKind::Imag},
  };
  for (const auto& [src, kind] : cases) ExpectValidLiteral(src, kind);
}

TEST(Scanner, InvalidNumbers) {
  const BadLiteral cases[] = {
      {"0x", "0x", {"1:3: hexadecimal literal has no digits"}},
      {"0X_", "0X_", {"1:4: hexadecimal literal has no digits"}},
      {"0b", "0b", {"1:3: binary literal has no digits"}},
      {"0o", "0o", {"1:3: octal literal has no digits"}},
      {"09", "09", {"1:2: invalid digit '9' in octal literal"}},
      {"0128", "0128", {"1:4: invalid digit '8' in octal literal"}},
      {"0b12", "0b12", {"1:4: invalid digit '2' in binary literal"}},
      {"0o8", "0o8", {"1:3: invalid digit '8' in octal literal"}},
      {"1__0", "1__0", {"1:3: '_' must separate successive digits"}},
      {"1_", "1_", {"1:2: '_' must separate successive digits"}},
      {"0x__1", "0x__1", {"1:4: '_' must separate successive digits"}},
      {"1_.5", "1_.5", {"1:2: '_' must separate successive digits"}},
      {"1._5", "1._5", {"1:3: '_' must separate successive digits"}},
      {"1e_1", "1e_1", {"1:3: '_' must separate successive digits"}},
      {"0_x1", "0_", {"1:2: '_' must separate successive digits"}},
      {"1e", "1e", {"1:3: exponent has no digits"}},
      {"1e+", "1e+", {"1:4: exponent has no digits"}},
      {"0x1p", "0x1p", {"1:5: exponent has no digits"}},
      {"0x1.5", "0x1.5", {"1:6: hexadecimal mantissa requires a 'p' exponent"}},
      {"0x.p1", "0x.p1", {"1:4: hexadecimal literal has no digits"}},
      {"1p3", "1p3", {"1:2: 'p' exponent requires hexadecimal mantissa"}},
      {"0o7P3", "0o7P3", {"1:4: 'P' exponent requires hexadecimal mantissa"}},
      {"0b1e3", "0b1e3", {"1:4: 'e' exponent requires decimal mantissa"}},
      {"0o1.2", "0o1.2", {"1:4: invalid radix point in octal literal"}},
      {"0b1.0", "0b1.0", {"1:4: invalid radix point in binary literal"}},
  };
  for (const BadLiteral& c : cases) ExpectBadLiteral(c);
  // Errors are reported at the right place inside a line, and scanning goes on.
  Scanned s = ScanAll("x := 0x\ny := 1");
  EXPECT_EQ(s.errors, std::vector<std::string>{"1:8: hexadecimal literal has no digits"});
  EXPECT_EQ(Render(s), "name(x) := lit(0x) ;newline name(y) := lit(1) ;EOF EOF");
}

// ---------------------------------------------------------------------------
// Rune and string literals

TEST(Scanner, ValidRunes) {
  for (const char* src :
       {"'a'", "'ä'", "'本'", "'\\t'", "'\\000'", "'\\007'", "'\\377'", "'\\x07'", "'\\xff'",
        "'\\xFF'", "'\\u12e4'", "'\\U00101234'", "'\\''", "'\\\\'", "'\\a'", "'\\b'", "'\\f'",
        "'\\n'", "'\\r'", "'\\v'", "'\"'", "'😀'", "'\\uFFFD'", "'\\U0010FFFF'"}) {
    ExpectValidLiteral(src, LitKind::Rune);
  }
}

TEST(Scanner, InvalidRunes) {
  const BadLiteral cases[] = {
      {"'aa'", "'aa'", {"1:1: more than one character in rune literal"}},
      {"'\\n\\n'", "'\\n\\n'", {"1:1: more than one character in rune literal"}},
      {"''", "''", {"1:2: empty rune literal or unescaped '"}},
      {"'\\\"'", "'\\\"'", {"1:3: unknown escape"}},
      {"'\\q'", "'\\q'", {"1:3: unknown escape"}},
      {"'\\400'", "'\\400'", {"1:6: octal escape value 256 > 255"}},
      {"'\\08'", "'\\08'", {"1:4: invalid character '8' in octal escape"}},
      {"'\\x0'", "'\\x0'", {"1:5: invalid character '\\'' in hexadecimal escape"}},
      {"'\\xg0'", "'\\xg0'", {"1:4: invalid character 'g' in hexadecimal escape"}},
      {"'\\uD800'", "'\\uD800'", {"1:8: escape is invalid Unicode code point U+D800"}},
      {"'\\U00110000'", "'\\U00110000'",
       {"1:12: escape is invalid Unicode code point U+110000"}},
      {"'\\u12'", "'\\u12'", {"1:6: invalid character '\\'' in hexadecimal escape"}},
      {"'\\uö000'", "'\\uö000'", {"1:4: invalid character 'ö' in hexadecimal escape"}},
      {"'a", "'a", {"1:1: rune literal not terminated"}},
      {"'", "'", {"1:1: rune literal not terminated"}},
      {"'\\x", "'\\x", {"1:1: rune literal not terminated"}},
  };
  for (const BadLiteral& c : cases) EXPECT_EQ(ExpectBadLiteral(c).kind, LitKind::Rune) << c.src;
  // A newline ends the literal (and is then a semicolon).
  Scanned s = ScanAll("'a\nx");
  EXPECT_EQ(s.errors, std::vector<std::string>{"1:3: newline in rune literal"});
  EXPECT_EQ(Render(s), "lit('a) ;newline name(x) ;EOF EOF");
  EXPECT_TRUE(s.toks[0].bad);
}

TEST(Scanner, ValidStrings) {
  for (const char* src :
       {"\"\"", "\"abc\"", "\"\\a\\b\\f\\n\\r\\t\\v\\\\\\\"\"", "\"\\000\\377\\x00\\xfF\"",
        "\"\\u65e5本\\U00008a9e\"", "\"日本語\"", "\"'\"", "\"\\xff\\u00FF\"",
        "\"tab\there\"", "\"\\U0001F600\""}) {
    ExpectValidLiteral(src, LitKind::String);
  }
}

TEST(Scanner, InvalidStrings) {
  const BadLiteral cases[] = {
      {"\"abc", "\"abc", {"1:1: string literal not terminated"}},
      {"\"", "\"", {"1:1: string literal not terminated"}},
      {"\"\\", "\"\\", {"1:1: string literal not terminated"}},
      {"\"\\'\"", "\"\\'\"", {"1:3: unknown escape"}},
      {"\"\\z\\y\"", "\"\\z\\y\"", {"1:3: unknown escape", "1:5: unknown escape"}},
      {"\"\\777\"", "\"\\777\"", {"1:6: octal escape value 511 > 255"}},
      {"\"\\xZ\"", "\"\\xZ\"", {"1:4: invalid character 'Z' in hexadecimal escape"}},
      {"\"\\uDFFF\"", "\"\\uDFFF\"", {"1:8: escape is invalid Unicode code point U+DFFF"}},
      {"\"\\U7fffffff\"", "\"\\U7fffffff\"",
       {"1:12: escape is invalid Unicode code point U+7FFFFFFF"}},
  };
  for (const BadLiteral& c : cases) ExpectBadLiteral(c);
  Scanned s = ScanAll("x = \"abc\ny");
  EXPECT_EQ(s.errors, std::vector<std::string>{"1:9: newline in string"});
  EXPECT_EQ(Render(s), "name(x) = lit(\"abc) ;newline name(y) ;EOF EOF");
  // An escape stops at the newline, which is then reported once.
  Scanned t = ScanAll("\"\\x\n");
  EXPECT_EQ(t.errors, (std::vector<std::string>{"1:4: invalid character '\\n' in hexadecimal escape",
                                                "1:4: newline in string"}));
}

TEST(Scanner, RawStrings) {
  for (const char* src : {"``", "`abc`", "`a\nb`", "`a\r\nb\r`", "`\\n\\x\"'`", "`日本`"}) {
    Scanned s = ScanAll(src);
    EXPECT_EQ(s.toks[0].tok, Token::Literal) << src;
    EXPECT_EQ(s.toks[0].kind, LitKind::String) << src;
    EXPECT_EQ(s.toks[0].lit, src);  // verbatim, carriage returns included
    EXPECT_FALSE(s.toks[0].bad);
    EXPECT_TRUE(s.errors.empty()) << src;
    EXPECT_EQ(s.toks[1].lit, "EOF");  // the newlines inside insert nothing
  }
  Scanned s = ScanAll("x\n`abc\ndef");
  EXPECT_EQ(s.errors, std::vector<std::string>{"2:1: raw string literal not terminated"});
  EXPECT_EQ(s.toks[2].lit, "`abc\ndef");
  EXPECT_TRUE(s.toks[2].bad);
}

// ---------------------------------------------------------------------------
// Comments

TEST(Scanner, Comments) {
  std::string src =
      "//go:build linux\n"
      "\n"
      "// Package p does things.\n"
      "package p /* inline */ // trailing\n"
      "/*line foo.go:10*/\n"
      "//line bar.go:20:5\n"
      "/* multi\n   line */\n"
      "//\n"
      "// at EOF";
  Scanned s = ScanAll(src);
  EXPECT_TRUE(s.errors.empty());
  std::vector<std::string> texts;
  for (const Comment& c : s.comments) {
    texts.emplace_back(c.text);
    // pos/end delimit exactly the text.
    EXPECT_EQ(src.substr(c.pos - s.base, c.end - c.pos), c.text);
  }
  EXPECT_EQ(texts, (std::vector<std::string>{"//go:build linux", "// Package p does things.",
                                             "/* inline */", "// trailing",
                                             "/*line foo.go:10*/", "//line bar.go:20:5",
                                             "/* multi\n   line */", "//", "// at EOF"}));
  EXPECT_EQ(Render(s), "package name(p) ;newline EOF");
}

TEST(Scanner, CommentPositions) {
  Scanned s = ScanAll("a // c\n/* d */");
  ASSERT_EQ(s.comments.size(), 2u);
  const Comment& c0 = s.comments[0];
  const Comment& c1 = s.comments[1];
  EXPECT_EQ(c1.pos - c0.pos, 5u);  // "// c\n"
  EXPECT_EQ(c0.end - c0.pos, 4u);  // the newline is not part of it
  EXPECT_EQ(c0.pos - s.base, 2u);
  EXPECT_EQ(c1.end - c1.pos, 7u);
}

TEST(Scanner, CommentsWithoutVector) {
  SourceSet set;
  const SourceFile* f = set.AddFile("x.go", "// a\nx /* b */");
  Scanner s(*f, nullptr, nullptr);
  s.Next();
  EXPECT_EQ(s.tok, Token::Name);
  s.Next();
  EXPECT_EQ(s.tok, Token::Semi);
  s.Next();
  EXPECT_EQ(s.tok, Token::EOF_);
}

TEST(Scanner, UnterminatedComment) {
  Scanned s = ScanAll("x /* abc\ndef");
  EXPECT_EQ(s.errors, std::vector<std::string>{"1:3: comment not terminated"});
  ASSERT_EQ(s.comments.size(), 1u);
  EXPECT_EQ(s.comments[0].text, "/* abc\ndef");
  EXPECT_EQ(Render(s), "name(x) ;newline EOF");
  Scanned t = ScanAll("/*/");
  EXPECT_EQ(t.errors, std::vector<std::string>{"1:1: comment not terminated"});
  EXPECT_EQ(Render(ScanAll("/**/x/***/")), "name(x) ;EOF EOF");
}

// Comments are skipped 8 bytes at a time: put the interesting byte at every
// offset relative to that stride, and near the end of the buffer.
TEST(Scanner, LongCommentsAtEveryAlignment) {
  using namespace std::string_literals;
  for (int k = 0; k < 20; k++) {
    std::string pad(static_cast<size_t>(k), 'a');
    for (const char* prefix : {"//", "/*"}) {
      bool line = prefix[1] == '/';
      std::string close = line ? "\n" : "*/";
      std::string body = prefix + pad;  // error at column body.size() + 1
      std::string col = std::to_string(body.size() + 1);
      Scanned nul = ScanAll(body + "\0"s + "bbbbbbbbbb" + close + "x");
      EXPECT_EQ(nul.errors, std::vector<std::string>{"1:" + col + ": invalid NUL character"});
      ASSERT_EQ(nul.comments.size(), 1u);
      EXPECT_EQ(nul.comments[0].text, body + "\0"s + "bbbbbbbbbb" + (line ? "" : "*/"));
      Scanned bad = ScanAll(body + "\xff" + "bbbbbbbbbb" + close + "x");
      EXPECT_EQ(bad.errors, std::vector<std::string>{"1:" + col + ": invalid UTF-8 encoding"});
      Scanned ok = ScanAll(body + "é**\t" + "bbbbbbbbbb" + close + "x");
      EXPECT_TRUE(ok.errors.empty()) << k;
      EXPECT_EQ(ok.comments.size(), 1u);
      EXPECT_EQ(ok.toks[0].lit, "x");
      Scanned end = ScanAll(body);  // comment up to the very end
      EXPECT_EQ(end.comments.size(), 1u);
      EXPECT_EQ(end.comments[0].text, body);
      EXPECT_EQ(end.error_count, line ? 0 : 1);
    }
    // The end of a line comment at every alignment.
    Scanned s = ScanAll("x //" + pad + "\ny");
    EXPECT_EQ(Render(s), "name(x) ;newline name(y) ;EOF EOF") << k;
    EXPECT_EQ(s.toks[1].off, 4u + static_cast<uint32_t>(k));
  }
}

// ---------------------------------------------------------------------------
// Encoding: BOM, NUL, invalid UTF-8

TEST(Scanner, BOM) {
  Scanned s = ScanAll("\xEF\xBB\xBFpackage p");
  EXPECT_TRUE(s.errors.empty());
  EXPECT_EQ(s.toks[0].tok, Token::Package);
  EXPECT_EQ(s.toks[0].off, 3u);

  Scanned m = ScanAll("x \xEF\xBB\xBFy");
  EXPECT_EQ(m.errors, std::vector<std::string>{"1:3: invalid BOM in the middle of the file"});
  EXPECT_EQ(Render(m), "name(x) name(y) ;EOF EOF");

  Scanned str = ScanAll("\"a\xEF\xBB\xBF\"");
  EXPECT_EQ(str.errors, std::vector<std::string>{"1:3: invalid BOM in the middle of the file"});
  EXPECT_TRUE(str.toks[0].bad);
  // Only one BOM is skipped.
  Scanned two = ScanAll("\xEF\xBB\xBF\xEF\xBB\xBFx");
  EXPECT_EQ(two.errors, std::vector<std::string>{"1:4: invalid BOM in the middle of the file"});
}

TEST(Scanner, NUL) {
  using namespace std::string_literals;
  Scanned s = ScanAll("x\0y"s);
  EXPECT_EQ(s.errors, std::vector<std::string>{"1:2: invalid NUL character"});
  EXPECT_EQ(Render(s), "name(x) name(y) ;EOF EOF");

  Scanned str = ScanAll("\"a\0b\" `c\0` '\0' // d\0e\n/* \0 */"s);
  EXPECT_EQ(str.errors, (std::vector<std::string>{
                            "1:3: invalid NUL character", "1:9: invalid NUL character",
                            "1:13: invalid NUL character", "1:20: invalid NUL character",
                            "2:4: invalid NUL character"}));
  EXPECT_EQ(str.toks[0].lit, "\"a\0b\""s);
  EXPECT_TRUE(str.toks[0].bad);
  EXPECT_TRUE(str.toks[1].bad);
  EXPECT_TRUE(str.toks[2].bad);
  ASSERT_EQ(str.comments.size(), 2u);
  EXPECT_EQ(str.comments[0].text, "// d\0e"s);

  // A file of NULs: one error each, then EOF.
  Scanned z = ScanAll(std::string(5, '\0'));
  EXPECT_EQ(z.error_count, 5);
  EXPECT_EQ(Render(z), "EOF");
}

TEST(Scanner, InvalidUTF8) {
  Scanned s = ScanAll("x \xff y");
  EXPECT_EQ(s.errors, std::vector<std::string>{"1:3: invalid UTF-8 encoding"});
  EXPECT_EQ(Render(s), "name(x) name(y) ;EOF EOF");

  // Overlong, surrogate, too large, truncated, stray continuation.
  for (const char* bad : {"\xC0\x80", "\xE0\x80\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                          "\xE6\x97", "\x80", "\xF8\x88\x80\x80\x80"}) {
    Scanned b = ScanAll(std::string("\"") + bad + "\"");
    EXPECT_GE(b.error_count, 1) << bad;
    EXPECT_EQ(b.errors[0], "1:2: invalid UTF-8 encoding");
    EXPECT_TRUE(b.toks[0].bad);
    EXPECT_EQ(b.toks[1].lit, "EOF");  // the literal is still closed by its quote
  }
  Scanned c = ScanAll("// \xff\nx");
  EXPECT_EQ(c.errors, std::vector<std::string>{"1:4: invalid UTF-8 encoding"});
  EXPECT_EQ(c.comments.size(), 1u);
  Scanned id = ScanAll("ab\xffz");
  EXPECT_EQ(id.errors, std::vector<std::string>{"1:3: invalid UTF-8 encoding"});
  EXPECT_EQ(id.toks[0].tok, Token::Name);
  EXPECT_EQ(id.toks[0].lit, "ab\xffz");
  // A truncated sequence at the very end never reads past the sentinel.
  Scanned t = ScanAll("x\xF0\x9F");
  EXPECT_EQ(t.error_count, 2);
}

// ---------------------------------------------------------------------------
// Identifiers and invalid characters

TEST(Scanner, UnicodeIdentifiers) {
  for (const char* name : {"αβγ", "日本語", "x٣", "ǅ", "ĳ", "Ωmega", "_ö", "résumé", "ℌ",
                           "ー", "a٠١٢", "𝒳"}) {
    Scanned s = ScanAll(name);
    EXPECT_EQ(s.toks[0].tok, Token::Name) << name;
    EXPECT_EQ(s.toks[0].lit, name);
    EXPECT_TRUE(s.errors.empty()) << name << ": " << (s.errors.empty() ? "" : s.errors[0]);
  }
  Scanned d = ScanAll("٣x");
  EXPECT_EQ(d.errors,
            std::vector<std::string>{"1:1: identifier cannot begin with digit U+0663 '٣'"});
  EXPECT_EQ(d.toks[0].lit, "٣x");
  Scanned e = ScanAll("a€b");
  EXPECT_EQ(e.errors,
            std::vector<std::string>{"1:2: invalid character U+20AC '€' in identifier"});
  EXPECT_EQ(Render(e), "name(a€b) ;EOF EOF");
  Scanned m = ScanAll("x := ·");
  EXPECT_EQ(m.errors,
            std::vector<std::string>{"1:6: invalid character U+00B7 '·' in identifier"});
  Scanned nb = ScanAll("a\u00A0b");  // NO-BREAK SPACE is not white space in Go
  EXPECT_EQ(nb.errors, std::vector<std::string>{"1:2: invalid character U+00A0 in identifier"});
}

TEST(Scanner, InvalidCharacters) {
  Scanned s = ScanAll("a @ # $ ? \\ \x01 \x7f b");
  EXPECT_EQ(s.errors, (std::vector<std::string>{
                          "1:3: invalid character U+0040 '@'", "1:5: invalid character U+0023 '#'",
                          "1:7: invalid character U+0024 '$'", "1:9: invalid character U+003F '?'",
                          "1:11: invalid character U+005C '\\'", "1:13: invalid character U+0001",
                          "1:15: invalid character U+007F"}));
  EXPECT_EQ(Render(s), "name(a) name(b) ;EOF EOF");
}

TEST(Scanner, NullHandlerCounts) {
  SourceSet set;
  const SourceFile* f = set.AddFile("x.go", "@ \"a");
  ErrorHandler empty;
  for (const ErrorHandler* h : std::vector<const ErrorHandler*>{nullptr, &empty}) {
    Scanner s(*f, h, nullptr);
    do s.Next(); while (s.tok != Token::EOF_);
    EXPECT_EQ(s.error_count(), 2);
  }
}

TEST(Scanner, PositionsAreSourceSetPositions) {
  SourceSet set;
  set.AddFile("a.go", "package a\n");
  const SourceFile* f = set.AddFile("b.go", "package b");
  Scanner s(*f, nullptr, nullptr);
  s.Next();
  EXPECT_EQ(s.pos, f->base());
  EXPECT_EQ(s.end, f->base() + 7);
  s.Next();
  EXPECT_EQ(set.Resolve(s.pos).String(), "b.go:1:9");
}

// ---------------------------------------------------------------------------
// Unicode helpers

TEST(Unicode, Classes) {
  EXPECT_TRUE(IsLetter('a'));
  EXPECT_FALSE(IsLetter('_'));
  EXPECT_TRUE(IsLetter(0x00E9));    // é
  EXPECT_TRUE(IsLetter(0x65E5));    // 日
  EXPECT_TRUE(IsLetter(0x1D4B3));   // 𝒳
  EXPECT_FALSE(IsLetter(0x0663));   // ٣
  EXPECT_FALSE(IsLetter(0x20AC));   // €
  EXPECT_TRUE(IsDigit(0x0663));
  EXPECT_TRUE(IsDigit('7'));
  EXPECT_FALSE(IsDigit(0x00B2));    // ² is No, not Nd
  EXPECT_TRUE(IsPrint(0x20AC));
  EXPECT_FALSE(IsPrint(0x00A0));
  EXPECT_FALSE(IsPrint(0x200B));
  EXPECT_FALSE(IsLetter(kMaxRune + 1));
}

TEST(Unicode, Formatting) {
  EXPECT_EQ(FormatRuneU('@'), "U+0040 '@'");
  EXPECT_EQ(FormatRuneU(0), "U+0000");
  EXPECT_EQ(FormatRuneU(0x1F600), "U+1F600 '😀'");
  EXPECT_EQ(QuoteRune('a'), "'a'");
  EXPECT_EQ(QuoteRune('\n'), "'\\n'");
  EXPECT_EQ(QuoteRune('\''), "'\\''");
  EXPECT_EQ(QuoteRune(0), "'\\x00'");
  EXPECT_EQ(QuoteRune(0x200B), "'\\u200b'");
  EXPECT_EQ(QuoteRune(0xE0001), "'\\U000e0001'");
  EXPECT_EQ(QuoteRune(0xD800), "'�'");
}

TEST(Unicode, Decode) {
  uint32_t r = 0;
  EXPECT_EQ(DecodeRune("\xC3\xA9", &r), 2);
  EXPECT_EQ(r, 0xE9u);
  EXPECT_EQ(DecodeRune("\xE6\x97\xA5", &r), 3);
  EXPECT_EQ(r, 0x65E5u);
  EXPECT_EQ(DecodeRune("\xF0\x9F\x98\x80", &r), 4);
  EXPECT_EQ(r, 0x1F600u);
  EXPECT_EQ(DecodeRune("\xEF\xBF\xBD", &r), 3);  // a real U+FFFD is valid
  EXPECT_EQ(r, kRuneError);
  EXPECT_EQ(DecodeRune("\xC1\xBF", &r), 0);
  EXPECT_EQ(DecodeRune("\xF0\x8F\xBF\xBF", &r), 0);
  EXPECT_EQ(DecodeRune("\xF4\x8F\xBF\xBF", &r), 4);
  EXPECT_EQ(r, kMaxRune);
  EXPECT_EQ(DecodeRune("\xF5\x80\x80\x80", &r), 0);
  EXPECT_EQ(DecodeRune("\xE6\x97", &r), 0);  // stops at the NUL
}

// ---------------------------------------------------------------------------
// The Go standard library scans without a single error.

std::string GoRoot() {
  FILE* p = popen("go env GOROOT 2>/dev/null", "r");
  if (p == nullptr) return "";
  char buf[4096];
  std::string out;
  while (fgets(buf, sizeof buf, p) != nullptr) out += buf;
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

TEST(Scanner, GorootSrcScansWithoutErrors) {
  std::string goroot = GoRoot();
  if (goroot.empty() || !std::filesystem::is_directory(goroot + "/src")) {
    GTEST_SKIP() << "go is not installed";
  }
  namespace fs = std::filesystem;
  SourceSet set;
  std::vector<const SourceFile*> files;
  for (auto it = fs::recursive_directory_iterator(goroot + "/src");
       it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename() == "testdata") {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || it->path().extension() != ".go") continue;
    std::string err;
    const SourceFile* f = set.ReadFile(it->path().string(), &err);
    ASSERT_NE(f, nullptr) << err;
    files.push_back(f);
  }
  ASSERT_GT(files.size(), 1000u);

  size_t bytes = 0, tokens = 0, comments = 0;
  int errors = 0;
  std::vector<std::string> first;
  std::vector<Comment> cs;
  auto t0 = std::chrono::steady_clock::now();
  for (const SourceFile* f : files) {
    ErrorHandler errh = [&](const Error& e) {
      if (first.size() < 10) first.push_back(FormatError(*f, e));
    };
    cs.clear();
    Scanner s(*f, &errh, &cs);
    do {
      s.Next();
      tokens++;
    } while (s.tok != Token::EOF_);
    errors += s.error_count();
    bytes += f->size();
    comments += cs.size();
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(errors, 0) << (first.empty() ? "" : first[0]);
  for (const std::string& e : first) ADD_FAILURE() << e;
  std::printf("scanned %zu files, %.1f MB, %zu tokens, %zu comments in %.3f s: %.0f MB/s\n",
              files.size(), bytes / 1e6, tokens, comments, secs, bytes / 1e6 / secs);
}

}  // namespace
}  // namespace gordian::syntax
