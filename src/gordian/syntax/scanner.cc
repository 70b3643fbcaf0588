// This file implements the Go scanner: the lexical elements of the Go
// specification ("Lexical elements": comments, tokens, semicolons, identifiers,
// keywords, operators, integer, floating-point, imaginary, rune and string
// literals), read straight from a SourceFile's buffer.
//
// The structure follows Go's cmd/compile/internal/syntax/scanner.go, and so do
// the error messages and their positions, so that a user sees what `go build`
// would have said. Differences: unterminated literals say "string literal not
// terminated" / "raw string literal not terminated" (go/scanner's wording),
// and every literal with an error, including one containing invalid UTF-8 or
// a NUL byte, is marked bad.
//
// Speed. The buffer ends in a NUL sentinel (SourceFile guarantees it), so the
// loops test one byte at a time without bounds checks; a NUL that is not at
// the end is an error and is skipped. Byte classes come from one 256-entry
// table. Everything ASCII stays on the fast path; non-ASCII bytes go through
// NonASCII/IdentSlow, which decode and validate UTF-8. Comments, the longest
// runs of uninteresting bytes, are skipped 8 bytes at a time. Error paths
// (Unusual, ErrorAt) are out of line, so Next's frame stays small. Keywords
// are found by a perfect hash (checked at compile time). Tokens are
// string_views into the buffer: the scanner allocates nothing except the
// comments vector and error messages. On GOROOT/src the scanner alone runs at
// about 340 MB/s, the parser as a whole at about 210 MB/s (bench/
// run-parse-bench; go/parser does about 30 MB/s on the same machine).
#include "gordian/syntax/scanner.h"

#include <array>
#include <cstring>

#include <fmt/format.h>

#include "gordian/syntax/unicode.h"

namespace gordian::syntax {
namespace {

// ----------------------------------------------------------------------------
// Byte classes

enum : uint8_t {
  kIdentBit = 1 << 0,      // ASCII letter, '_' or decimal digit
  kStrPlainBit = 1 << 1,   // ASCII byte with no meaning inside "..."
  kRawPlainBit = 1 << 2,   // ASCII byte with no meaning inside `...`
  kLinePlainBit = 1 << 3,  // ASCII byte with no meaning inside // ...
  kFullPlainBit = 1 << 4,  // ASCII byte with no meaning inside /* ... */
};

constexpr std::array<uint8_t, 256> MakeByteClass() {
  std::array<uint8_t, 256> t{};
  for (int c = 1; c < 0x80; c++) {
    uint8_t bits = kStrPlainBit | kRawPlainBit | kLinePlainBit | kFullPlainBit;
    if (('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c == '_' ||
        ('0' <= c && c <= '9')) {
      bits |= kIdentBit;
    }
    if (c == '"' || c == '\\' || c == '\n') bits &= ~kStrPlainBit;
    if (c == '`') bits &= ~kRawPlainBit;
    if (c == '\n') bits &= ~kLinePlainBit;
    if (c == '*') bits &= ~kFullPlainBit;
    t[c] = bits;
  }
  return t;  // NUL and every byte >= 0x80 have no bits: they leave every fast loop
}

constexpr std::array<uint8_t, 256> kByteClass = MakeByteClass();

// SkipPlain8 advances p by 8 bytes at a time while none of them is a NUL,
// a non-ASCII byte or `stop` (the classic "has zero byte" bit trick), and
// only while 8 bytes remain before the sentinel. The caller's byte loop does
// the rest precisely. Used where long runs are common: comments.
inline const char* SkipPlain8(const char* p, const char* end, char stop) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHighs = 0x8080808080808080ULL;
  const uint64_t stops = kOnes * static_cast<unsigned char>(stop);
  while (end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    uint64_t x = w ^ stops;
    if ((((w - kOnes) & ~w) | ((x - kOnes) & ~x) | w) & kHighs) break;
    p += 8;
  }
  return p;
}

inline bool Is(char c, uint8_t bit) {
  return (kByteClass[static_cast<unsigned char>(c)] & bit) != 0;
}
inline char Lower(char c) { return static_cast<char>(c | ('a' - 'A')); }  // lower-case iff ASCII letter
inline bool IsDecimal(char c) { return '0' <= c && c <= '9'; }
inline bool IsHex(char c) { return IsDecimal(c) || ('a' <= Lower(c) && Lower(c) <= 'f'); }

const char* BaseName(int base) {
  switch (base) {
    case 2: return "binary";
    case 8: return "octal";
    case 10: return "decimal";
    default: return "hexadecimal";
  }
}

// ----------------------------------------------------------------------------
// Keywords: Go's perfect hash (first two bytes and the length) into a table of
// 64; the constexpr constructor fails to compile if two keywords collide.

constexpr uint32_t KeywordHash(const char* s, size_t n) {
  return ((static_cast<uint32_t>(static_cast<unsigned char>(s[0])) << 4 ^
           static_cast<unsigned char>(s[1])) +
          static_cast<uint32_t>(n)) &
         63;
}

struct KeywordTable {
  Token tok[64]{};              // Token::EOF_ means "no keyword"
  std::string_view text[64]{};

  constexpr KeywordTable() {
    constexpr std::pair<std::string_view, Token> kKeywords[] = {
        {"break", Token::Break},     {"case", Token::Case},
        {"chan", Token::Chan},       {"const", Token::Const},
        {"continue", Token::Continue}, {"default", Token::Default},
        {"defer", Token::Defer},     {"else", Token::Else},
        {"fallthrough", Token::Fallthrough}, {"for", Token::For},
        {"func", Token::Func},       {"go", Token::Go},
        {"goto", Token::Goto},       {"if", Token::If},
        {"import", Token::Import},   {"interface", Token::Interface},
        {"map", Token::Map},         {"package", Token::Package},
        {"range", Token::Range},     {"return", Token::Return},
        {"select", Token::Select},   {"struct", Token::Struct},
        {"switch", Token::Switch},   {"type", Token::Type},
        {"var", Token::Var},
    };
    for (const auto& [s, t] : kKeywords) {
      uint32_t h = KeywordHash(s.data(), s.size());
      if (tok[h] != Token::EOF_) throw "keyword hash is not perfect";
      tok[h] = t;
      text[h] = s;
    }
  }
};

constexpr KeywordTable kKeywords;
static_assert(kKeywords.tok[KeywordHash("func", 4)] == Token::Func);

// Tokens after which a newline or EOF inserts a semicolon (spec "Semicolons").
constexpr TokenSet kSemiKeywords = TokenBit(Token::Break) | TokenBit(Token::Continue) |
                                   TokenBit(Token::Fallthrough) | TokenBit(Token::Return);

// invalidSep returns the index of the first '_' in a number literal that does
// not separate two digits (or a prefix and a digit), or -1 (Go's invalidSep).
int InvalidSep(std::string_view x) {
  char x1 = ' ';  // prefix char; only 'x' matters
  char d = '.';   // previous class: '_', '0' (a digit) or '.' (anything else)
  size_t i = 0;
  if (x.size() >= 2 && x[0] == '0') {
    x1 = Lower(x[1]);
    if (x1 == 'x' || x1 == 'o' || x1 == 'b') {
      d = '0';  // a prefix counts as a digit
      i = 2;
    }
  }
  for (; i < x.size(); i++) {
    char p = d;
    d = x[i];
    if (d == '_') {
      if (p != '0') return static_cast<int>(i);
    } else if (IsDecimal(d) || (x1 == 'x' && IsHex(d))) {
      d = '0';
    } else {
      if (p == '_') return static_cast<int>(i) - 1;
      d = '.';
    }
  }
  if (d == '_') return static_cast<int>(x.size()) - 1;
  return -1;
}

}  // namespace

// ----------------------------------------------------------------------------
// Construction, errors, comments

Scanner::Scanner(const SourceFile& file, const ErrorHandler* errh,
                 std::vector<Comment>* comments)
    : errh_(errh),
      comments_(comments),
      buf_(file.data()),
      end_(file.data() + file.size()),
      cur_(file.data()),
      base_(file.base()) {
  // A byte order mark is allowed (and ignored) as the very first character.
  if (file.size() >= 3 && std::memcmp(buf_, "\xEF\xBB\xBF", 3) == 0) cur_ += 3;
}

[[gnu::noinline, gnu::cold]] void Scanner::ErrorAt(const char* p, std::string msg) {
  error_count_++;
  if (errh_ != nullptr && *errh_) {
    (*errh_)(Error{base_ + static_cast<Pos>(p - buf_), std::move(msg)});
  }
}

void Scanner::AddComment(const char* start, const char* p) {
  if (comments_ == nullptr) return;
  comments_->push_back(Comment{base_ + static_cast<Pos>(start - buf_),
                               base_ + static_cast<Pos>(p - buf_),
                               std::string_view(start, static_cast<size_t>(p - start))});
}

// NonASCII consumes one character whose first byte is >= 0x80 inside a
// literal or comment, reporting invalid UTF-8 and a misplaced BOM.
const char* Scanner::NonASCII(const char* p, bool* ok) {
  uint32_t r;
  int n = DecodeRune(p, &r);
  if (n == 0) {
    ErrorAt(p, "invalid UTF-8 encoding");
    *ok = false;
    return p + 1;
  }
  if (r == kBOM) {
    ErrorAt(p, "invalid BOM in the middle of the file");
    *ok = false;
  }
  return p + n;
}

// AtEnd handles a NUL byte at *p inside a literal or comment. At the end of
// the input it reports unterminated (unless null) at start and returns true;
// otherwise the NUL is a stray one: it is reported and stepped over.
bool Scanner::AtEnd(const char* start, const char** p, const char* unterminated,
                    bool* ok) {
  if (*p == end_) {
    if (unterminated != nullptr) ErrorAt(start, unterminated);
    *ok = false;
    return true;
  }
  ErrorAt(*p, "invalid NUL character");
  *ok = false;
  ++*p;
  return false;
}

// ----------------------------------------------------------------------------
// Operators (Next's hot path: always inlined into it)

// AssignOp scans the rest of a binary operator op that may be followed by
// '=' (op=): p is past op's spelling.
[[gnu::always_inline]] inline const char* Scanner::AssignOp(const char* p, Op o, uint8_t pr) {
  op = o;
  prec = pr;
  if (*p == '=') {
    ++p;
    tok = Token::AssignOp;
  } else {
    tok = Token::Operator;
  }
  return p;
}

// + ++ += or - -- -= (c is the first byte, o its operator).
[[gnu::always_inline]] inline const char* Scanner::IncOrAssignOp(const char* p, char c, Op o) {
  if (*p != c) return AssignOp(p, o, kPrecAdd);
  ++p;
  op = o;
  prec = kPrecAdd;
  nlsemi_ = true;
  tok = Token::IncOp;
  return p;
}

// * *=: not AssignOp, a lone '*' is Star, not Operator.
[[gnu::always_inline]] inline const char* Scanner::StarOp(const char* p) {
  op = Op::Mul;
  prec = kPrecMul;
  if (*p == '=') {
    ++p;
    tok = Token::AssignOp;
    return p;
  }
  tok = Token::Star;
  return p;
}

// & && &= &^ &^=
[[gnu::always_inline]] inline const char* Scanner::AmpOp(const char* p) {
  if (*p == '&') {
    ++p;
    op = Op::AndAnd;
    prec = kPrecAndAnd;
    tok = Token::Operator;
    return p;
  }
  if (*p == '^') return AssignOp(p + 1, Op::AndNot, kPrecMul);
  return AssignOp(p, Op::And, kPrecMul);
}

// | || |=
[[gnu::always_inline]] inline const char* Scanner::BarOp(const char* p) {
  if (*p == '|') {
    ++p;
    op = Op::OrOr;
    prec = kPrecOrOr;
    tok = Token::Operator;
    return p;
  }
  return AssignOp(p, Op::Or, kPrecAdd);
}

// < <= << <<= <-
[[gnu::always_inline]] inline const char* Scanner::LessOp(const char* p) {
  if (*p == '=') {
    ++p;
    op = Op::Leq;
    prec = kPrecCmp;
    tok = Token::Operator;
    return p;
  }
  if (*p == '<') return AssignOp(p + 1, Op::Shl, kPrecMul);
  if (*p == '-') {
    ++p;
    op = Op::Recv;
    tok = Token::Arrow;
    return p;
  }
  op = Op::Lss;
  prec = kPrecCmp;
  tok = Token::Operator;
  return p;
}

// > >= >> >>=
[[gnu::always_inline]] inline const char* Scanner::GreaterOp(const char* p) {
  if (*p == '=') {
    ++p;
    op = Op::Geq;
    prec = kPrecCmp;
    tok = Token::Operator;
    return p;
  }
  if (*p == '>') return AssignOp(p + 1, Op::Shr, kPrecMul);
  op = Op::Gtr;
  prec = kPrecCmp;
  tok = Token::Operator;
  return p;
}

// = ==
[[gnu::always_inline]] inline const char* Scanner::EqualOp(const char* p) {
  if (*p == '=') {
    ++p;
    op = Op::Eql;
    prec = kPrecCmp;
    tok = Token::Operator;
    return p;
  }
  tok = Token::Assign;
  return p;
}

// ! !=
[[gnu::always_inline]] inline const char* Scanner::BangOp(const char* p) {
  if (*p == '=') {
    ++p;
    op = Op::Neq;
    prec = kPrecCmp;
    tok = Token::Operator;
    return p;
  }
  op = Op::Not;
  tok = Token::Operator;
  return p;
}

// ----------------------------------------------------------------------------
// The token loop

void Scanner::Next() {
  bool nlsemi = nlsemi_;
  nlsemi_ = false;
  const char* p = cur_;
  const char* start;

redo:
  // Skip white space; a newline is white space unless it ends a statement.
  for (;;) {
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\r' || (c == '\n' && !nlsemi)) {
      ++p;
      continue;
    }
    break;
  }

  start = p;
  pos = base_ + static_cast<Pos>(start - buf_);
  bad = false;
  op = Op::None;
  prec = kPrecNone;

  switch (*p) {
    case 'a': case 'b': case 'c': case 'd': case 'e': case 'f': case 'g':
    case 'h': case 'i': case 'j': case 'k': case 'l': case 'm': case 'n':
    case 'o': case 'p': case 'q': case 'r': case 's': case 't': case 'u':
    case 'v': case 'w': case 'x': case 'y': case 'z':
    case 'A': case 'B': case 'C': case 'D': case 'E': case 'F': case 'G':
    case 'H': case 'I': case 'J': case 'K': case 'L': case 'M': case 'N':
    case 'O': case 'P': case 'Q': case 'R': case 'S': case 'T': case 'U':
    case 'V': case 'W': case 'X': case 'Y': case 'Z': case '_':
      p = Ident(start, p + 1);
      goto done_lit;

    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      p = Number(start, p, false);
      goto done_lit;

    case '"':
      p = StdString(start, p + 1);
      goto done_lit;

    case '`':
      p = RawString(start, p + 1);
      goto done_lit;

    case '\'':
      p = RuneLit(start, p + 1);
      goto done_lit;

    case '\n':  // only reached when nlsemi
      ++p;
      tok = Token::Semi;
      lit = "newline";
      goto done_lit;

    case '\0':
      if (p == end_) {
        if (nlsemi) {
          tok = Token::Semi;
          lit = "EOF";
        } else {
          tok = Token::EOF_;
          lit = {};
        }
        goto done_lit;
      }
      ErrorAt(p, "invalid NUL character");  // ErrorAt is out of line: the frame stays small
      ++p;
      goto redo;

    case '(': ++p; tok = Token::Lparen; break;
    case '[': ++p; tok = Token::Lbrack; break;
    case '{': ++p; tok = Token::Lbrace; break;
    case ',': ++p; tok = Token::Comma; break;
    case ';':
      ++p;
      tok = Token::Semi;
      lit = "semicolon";
      goto done_lit;
    case ')': ++p; nlsemi_ = true; tok = Token::Rparen; break;
    case ']': ++p; nlsemi_ = true; tok = Token::Rbrack; break;
    case '}': ++p; nlsemi_ = true; tok = Token::Rbrace; break;

    case ':':
      ++p;
      if (*p == '=') {
        ++p;
        tok = Token::Define;
        break;
      }
      tok = Token::Colon;
      break;

    case '.':
      ++p;
      if (IsDecimal(*p)) {
        p = Number(start, p, true);
        goto done_lit;
      }
      if (p[0] == '.' && p[1] == '.') {
        p += 2;
        tok = Token::DotDotDot;
        break;
      }
      tok = Token::Dot;
      break;

    // Operators: each helper gets the cursor past the operator's first byte,
    // sets tok, op and prec, and returns the cursor past the operator.
    case '+': p = IncOrAssignOp(p + 1, '+', Op::Add); break;
    case '-': p = IncOrAssignOp(p + 1, '-', Op::Sub); break;
    case '*': p = StarOp(p + 1); break;
    case '%': p = AssignOp(p + 1, Op::Rem, kPrecMul); break;
    case '&': p = AmpOp(p + 1); break;
    case '|': p = BarOp(p + 1); break;
    case '^': p = AssignOp(p + 1, Op::Xor, kPrecAdd); break;
    case '<': p = LessOp(p + 1); break;
    case '>': p = GreaterOp(p + 1); break;
    case '=': p = EqualOp(p + 1); break;
    case '!': p = BangOp(p + 1); break;

    case '/':
      if (p[1] == '/') {
        p = LineComment(start, p + 2);
        goto redo;
      }
      if (p[1] == '*') {
        p = FullComment(start, p + 2);
        if (nlsemi && std::memchr(start, '\n', static_cast<size_t>(p - start)) != nullptr) {
          // A general comment containing a newline acts like a newline.
          tok = Token::Semi;
          lit = "newline";
          goto done_lit;
        }
        goto redo;
      }
      p = AssignOp(p + 1, Op::Div, kPrecMul);
      break;

    case '~':
      ++p;
      op = Op::Tilde;
      tok = Token::Operator;
      break;

    default: {
      bool ident = false;
      p = Unusual(start, p, &ident);
      if (!ident) goto redo;
      goto done_lit;
    }
  }

  // Operators and delimiters: lit is their spelling.
  lit = std::string_view(start, static_cast<size_t>(p - start));
done_lit:
  cur_ = p;
  end = base_ + static_cast<Pos>(p - buf_);
}

// Unusual handles a byte that starts no ASCII token: an invalid character,
// invalid UTF-8, a misplaced BOM, or a non-ASCII character, which (as in the
// Go compiler) starts an identifier, with an error unless it is a letter;
// that keeps the parser's recovery simple. *ident tells whether a Name was
// scanned; otherwise the caller skips to the next token. Kept out of line so
// that Next's frame holds no std::string temporaries.
[[gnu::noinline, gnu::cold]] const char* Scanner::Unusual(const char* start, const char* p,
                                                          bool* ident) {
  auto c = static_cast<unsigned char>(*p);
  if (c < 0x80) {
    ErrorAt(p, "invalid character " + FormatRuneU(c));
    return p + 1;
  }
  uint32_t r;
  int n = DecodeRune(p, &r);
  if (n == 0) {
    ErrorAt(p, "invalid UTF-8 encoding");
    return p + 1;
  }
  if (r == kBOM) {
    ErrorAt(p, "invalid BOM in the middle of the file");
    return p + n;
  }
  if (!IsLetter(r)) {
    if (IsDigit(r)) {
      ErrorAt(p, "identifier cannot begin with digit " + FormatRuneU(r));
    } else {
      ErrorAt(p, "invalid character " + FormatRuneU(r) + " in identifier");
    }
  }
  *ident = true;
  return Ident(start, p + n);
}

// ----------------------------------------------------------------------------
// Identifiers and keywords

const char* Scanner::Ident(const char* start, const char* p) {
  while (Is(*p, kIdentBit)) ++p;
  if (static_cast<unsigned char>(*p) >= 0x80) [[unlikely]] {
    p = IdentSlow(p);
  }
  size_t n = static_cast<size_t>(p - start);
  lit = std::string_view(start, n);
  if (n >= 2 && n <= 11) {
    uint32_t h = KeywordHash(start, n);
    Token kw = kKeywords.tok[h];
    // Most names miss on the length; a byte loop beats a memcmp call here.
    if (kw != Token::EOF_ && kKeywords.text[h].size() == n) {
      const char* k = kKeywords.text[h].data();
      size_t i = 0;
      while (i < n && k[i] == start[i]) i++;
      if (i == n) {
        tok = kw;
        nlsemi_ = InSet(kw, kSemiKeywords);
        return p;
      }
    }
  }
  tok = Token::Name;
  nlsemi_ = true;
  return p;
}

// IdentSlow continues an identifier that contains non-ASCII characters.
const char* Scanner::IdentSlow(const char* p) {
  for (;;) {
    auto c = static_cast<unsigned char>(*p);
    if (c < 0x80) {
      if (!Is(*p, kIdentBit)) return p;
      ++p;
      continue;
    }
    uint32_t r;
    int n = DecodeRune(p, &r);
    if (n == 0) {
      ErrorAt(p, "invalid UTF-8 encoding");
      ++p;
      continue;
    }
    if (r == kBOM) {
      ErrorAt(p, "invalid BOM in the middle of the file");
    } else if (!IsLetter(r) && !IsDigit(r)) {
      ErrorAt(p, "invalid character " + FormatRuneU(r) + " in identifier");
    }
    p += n;
  }
}

// ----------------------------------------------------------------------------
// Number literals

void Scanner::SetLit(LitKind k, const char* start, const char* p, bool ok) {
  nlsemi_ = true;
  tok = Token::Literal;
  lit = std::string_view(start, static_cast<size_t>(p - start));
  bad = !ok;
  kind = k;
}

// Digits accepts { digit | '_' }. For base <= 10 it accepts every decimal
// digit but records in *invalid (if still < 0) the index, relative to start,
// of the first digit >= base. *digsep gets bit 0 if a digit was seen and bit
// 1 if a '_' was.
const char* Scanner::Digits(const char* start, const char* p, int base, int* invalid,
                            int* digsep) {
  if (base <= 10) {
    char max = static_cast<char>('0' + base);
    for (;;) {
      char c = *p;
      if (IsDecimal(c)) {
        *digsep |= 1;
        if (c >= max && *invalid < 0) *invalid = static_cast<int>(p - start);
      } else if (c == '_') {
        *digsep |= 2;
      } else {
        break;
      }
      ++p;
    }
  } else {
    for (;;) {
      char c = *p;
      if (IsHex(c)) {
        *digsep |= 1;
      } else if (c == '_') {
        *digsep |= 2;
      } else {
        break;
      }
      ++p;
    }
  }
  return p;
}

// int_lit, float_lit, imaginary_lit. p is at the first digit, or after the
// '.' if seen_point.
const char* Scanner::Number(const char* start, const char* p, bool seen_point) {
  bool ok = true;
  LitKind k = LitKind::Int;
  int base = 10;
  char prefix = 0;  // 0 (decimal), '0' (legacy octal), 'x', 'o' or 'b'
  int digsep = 0;   // bit 0: a digit was seen, bit 1: a '_' was seen
  int invalid = -1; // index of the first invalid digit, or -1

  // integer part
  if (!seen_point) {
    if (*p == '0') {
      ++p;
      switch (Lower(*p)) {
        case 'x': ++p; base = 16; prefix = 'x'; break;
        case 'o': ++p; base = 8; prefix = 'o'; break;
        case 'b': ++p; base = 2; prefix = 'b'; break;
        default: base = 8; prefix = '0'; digsep = 1; break;  // the leading 0 is a digit
      }
    }
    p = Digits(start, p, base, &invalid, &digsep);
    if (*p == '.') {
      if (prefix == 'o' || prefix == 'b') {
        ErrorAt(p, fmt::format("invalid radix point in {} literal", BaseName(base)));
        ok = false;
      }
      ++p;
      seen_point = true;
    }
  }

  // fractional part
  if (seen_point) {
    k = LitKind::Float;
    p = Digits(start, p, base, &invalid, &digsep);
  }

  if ((digsep & 1) == 0 && ok) {
    ErrorAt(p, fmt::format("{} literal has no digits", BaseName(base)));
    ok = false;
  }

  // exponent
  char e = Lower(*p);
  if (e == 'e' || e == 'p') {
    if (ok) {
      if (e == 'e' && prefix != 0 && prefix != '0') {
        ErrorAt(p, fmt::format("{} exponent requires decimal mantissa",
                               QuoteRune(static_cast<unsigned char>(*p))));
        ok = false;
      } else if (e == 'p' && prefix != 'x') {
        ErrorAt(p, fmt::format("{} exponent requires hexadecimal mantissa",
                               QuoteRune(static_cast<unsigned char>(*p))));
        ok = false;
      }
    }
    ++p;
    k = LitKind::Float;
    if (*p == '+' || *p == '-') ++p;
    int ds = 0;
    int unused = 0;  // base 10 has no invalid decimal digits
    p = Digits(start, p, 10, &unused, &ds);
    digsep = ds | (digsep & 2);  // keep the separator bit of the mantissa
    if ((ds & 1) == 0 && ok) {
      ErrorAt(p, "exponent has no digits");
      ok = false;
    }
  } else if (prefix == 'x' && k == LitKind::Float && ok) {
    ErrorAt(p, "hexadecimal mantissa requires a 'p' exponent");
    ok = false;
  }

  // suffix 'i'
  if (*p == 'i') {
    k = LitKind::Imag;
    ++p;
  }

  std::string_view text(start, static_cast<size_t>(p - start));
  if (k == LitKind::Int && invalid >= 0 && ok) {
    ErrorAt(start + invalid,
            fmt::format("invalid digit {} in {} literal",
                        QuoteRune(static_cast<unsigned char>(text[invalid])), BaseName(base)));
    ok = false;
  }
  if ((digsep & 2) != 0 && ok) {
    int i = InvalidSep(text);
    if (i >= 0) {
      ErrorAt(start + i, "'_' must separate successive digits");
      ok = false;
    }
  }
  SetLit(k, start, p, ok);
  return p;
}

// ----------------------------------------------------------------------------
// Rune and string literals

// Escape checks one escape sequence; p is just after the backslash. On error
// it reports it, clears *ok and stops before the offending character, so the
// caller sees (and reports) a newline or the end of the file itself.
const char* Scanner::Escape(const char* p, char quote, bool* ok) {
  int n;
  uint32_t base, max;
  char c = *p;
  switch (c) {
    case 'a': case 'b': case 'f': case 'n': case 'r': case 't': case 'v': case '\\':
      return p + 1;
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
      n = 3, base = 8, max = 255;
      break;
    case 'x':
      ++p;
      n = 2, base = 16, max = 255;
      break;
    case 'u':
      ++p;
      n = 4, base = 16, max = kMaxRune;
      break;
    case 'U':
      ++p;
      n = 8, base = 16, max = kMaxRune;
      break;
    default:
      if (c == quote) return p + 1;
      if (c == '\0' && p == end_) return p;  // the caller complains about EOF
      ErrorAt(p, "unknown escape");
      *ok = false;
      return p;
  }

  uint32_t x = 0;
  for (int i = n; i > 0; i--) {
    c = *p;
    if (c == '\0' && p == end_) return p;  // the caller complains about EOF
    uint32_t d = base;
    if (IsDecimal(c)) {
      d = static_cast<uint32_t>(c - '0');
    } else if ('a' <= Lower(c) && Lower(c) <= 'f') {
      d = static_cast<uint32_t>(Lower(c) - 'a' + 10);
    }
    if (d >= base) {
      uint32_t r = static_cast<unsigned char>(c);
      if (r >= 0x80 && DecodeRune(p, &r) == 0) r = kRuneError;
      ErrorAt(p, fmt::format("invalid character {} in {} escape", QuoteRune(r),
                             BaseName(static_cast<int>(base))));
      *ok = false;
      return p;
    }
    x = x * base + d;
    ++p;
  }

  if (x > max && base == 8) {
    ErrorAt(p, fmt::format("octal escape value {} > 255", x));
    *ok = false;
    return p;
  }
  if (x > max || (0xD800 <= x && x < 0xE000)) {
    ErrorAt(p, "escape is invalid Unicode code point " + FormatRuneU(x));
    *ok = false;
  }
  return p;
}

// rune_lit; p is after the opening quote.
const char* Scanner::RuneLit(const char* start, const char* p) {
  bool ok = true;
  for (int n = 0;; n++) {
    char c = *p;
    if (c == '\'') {
      if (ok) {
        if (n == 0) {
          ErrorAt(p, "empty rune literal or unescaped '");
          ok = false;
        } else if (n != 1) {
          ErrorAt(start, "more than one character in rune literal");
          ok = false;
        }
      }
      ++p;
      break;
    }
    if (c == '\\') {
      p = Escape(p + 1, '\'', &ok);
      continue;
    }
    if (c == '\n') {
      if (ok) {
        ErrorAt(p, "newline in rune literal");
        ok = false;
      }
      break;
    }
    if (c == '\0') {
      if (AtEnd(start, &p, ok ? "rune literal not terminated" : nullptr, &ok)) break;
      continue;
    }
    if (static_cast<unsigned char>(c) >= 0x80) {
      p = NonASCII(p, &ok);
      continue;
    }
    ++p;
  }
  SetLit(LitKind::Rune, start, p, ok);
  return p;
}

// interpreted_string_lit; p is after the opening quote.
const char* Scanner::StdString(const char* start, const char* p) {
  bool ok = true;
  for (;;) {
    while (Is(*p, kStrPlainBit)) ++p;
    char c = *p;
    if (c == '"') {
      ++p;
      break;
    }
    if (c == '\\') {
      p = Escape(p + 1, '"', &ok);
      continue;
    }
    if (c == '\n') {
      ErrorAt(p, "newline in string");
      ok = false;
      break;
    }
    if (c == '\0') {
      if (AtEnd(start, &p, "string literal not terminated", &ok)) break;
      continue;
    }
    p = NonASCII(p, &ok);
  }
  SetLit(LitKind::String, start, p, ok);
  return p;
}

// raw_string_lit; p is after the opening back quote. Newlines and carriage
// returns stay in lit exactly as written (the value drops the CRs; that is the
// consumer's business).
const char* Scanner::RawString(const char* start, const char* p) {
  bool ok = true;
  for (;;) {
    while (Is(*p, kRawPlainBit)) ++p;
    char c = *p;
    if (c == '`') {
      ++p;
      break;
    }
    if (c == '\0') {
      if (AtEnd(start, &p, "raw string literal not terminated", &ok)) break;
      continue;
    }
    p = NonASCII(p, &ok);
  }
  SetLit(LitKind::String, start, p, ok);
  return p;
}

// ----------------------------------------------------------------------------
// Comments

// A // comment; p is after the "//". The comment ends before the newline,
// which is left for the semicolon logic.
const char* Scanner::LineComment(const char* start, const char* p) {
  bool ok = true;  // a bad comment is still a comment
  for (;;) {
    p = SkipPlain8(p, end_, '\n');
    while (Is(*p, kLinePlainBit)) ++p;
    char c = *p;
    if (c == '\n') break;
    if (c == '\0') {
      if (AtEnd(start, &p, nullptr, &ok)) break;
      continue;
    }
    p = NonASCII(p, &ok);
  }
  AddComment(start, p);
  return p;
}

// A /* */ comment; p is after the "/*". An unterminated comment runs to EOF
// and is still recorded.
const char* Scanner::FullComment(const char* start, const char* p) {
  bool ok = true;
  for (;;) {
    p = SkipPlain8(p, end_, '*');
    while (Is(*p, kFullPlainBit)) ++p;
    char c = *p;
    if (c == '*') {
      ++p;
      if (*p == '/') {
        ++p;
        break;
      }
      continue;
    }
    if (c == '\0') {
      if (AtEnd(start, &p, "comment not terminated", &ok)) break;
      continue;
    }
    p = NonASCII(p, &ok);
  }
  AddComment(start, p);
  return p;
}

}  // namespace gordian::syntax
