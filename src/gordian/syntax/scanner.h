// This file declares the Go scanner: it turns a source file into tokens,
// inserting semicolons automatically as the Go specification requires, and
// collects comments (directives included) for the printer and for pragmas.
//
// The scanner reads from the file's buffer directly; the NUL byte that every
// SourceFile keeps after its content is the end sentinel, so the ASCII fast
// path is a single compare. Literal values and names are string_views into the
// buffer: nothing is copied or allocated per token.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gordian/syntax/nodes.h"
#include "gordian/syntax/source.h"
#include "gordian/syntax/syntax.h"
#include "gordian/syntax/tokens.h"

namespace gordian::syntax {

class Scanner {
 public:
  // comments, if not null, receives every comment in source order.
  Scanner(const SourceFile& file, const ErrorHandler* errh,
          std::vector<Comment>* comments);

  // Advances to the next token and fills in the public fields below. The
  // constructor reads nothing: call Next() once to get the first token. After
  // EOF_, Next() keeps returning EOF_.
  void Next();

  // Current token. Which fields are valid depends on tok:
  //   Name:                 lit
  //   Literal:              lit, kind, bad
  //   Operator, AssignOp:   op, prec
  //   IncOp:                op (Add or Sub), prec
  //   Star:                 op == Mul, prec == kPrecMul
  //   Arrow:                op == Recv
  //   Semi:                 lit is "semicolon", "newline" or "EOF"
  Token tok = Token::EOF_;
  std::string_view lit;
  LitKind kind = LitKind::Int;
  bool bad = false;
  Op op = Op::None;
  uint8_t prec = 0;
  Pos pos = kNoPos;  // first byte of the token (SourceSet position)
  Pos end = kNoPos;  // one past its last byte

  // Number of errors reported so far by the scanner.
  int error_count() const { return error_count_; }

 private:
  // Implementation; see scanner.cc. Each helper takes the cursor and returns
  // it advanced past what it consumed, so the hot loop keeps it in a register.
  const char* AssignOp(const char* p, Op o, uint8_t pr);
  const char* IncOrAssignOp(const char* p, char c, Op o);
  const char* StarOp(const char* p);
  const char* AmpOp(const char* p);
  const char* BarOp(const char* p);
  const char* LessOp(const char* p);
  const char* GreaterOp(const char* p);
  const char* EqualOp(const char* p);
  const char* BangOp(const char* p);
  const char* Unusual(const char* start, const char* p, bool* ident);
  const char* Ident(const char* start, const char* p);
  const char* IdentSlow(const char* p);
  const char* Number(const char* start, const char* p, bool seen_point);
  const char* Digits(const char* start, const char* p, int base, int* invalid,
                     int* digsep);
  const char* RuneLit(const char* start, const char* p);
  const char* StdString(const char* start, const char* p);
  const char* RawString(const char* start, const char* p);
  const char* LineComment(const char* start, const char* p);
  const char* FullComment(const char* start, const char* p);
  const char* Escape(const char* p, char quote, bool* ok);
  const char* NonASCII(const char* p, bool* ok);
  bool AtEnd(const char* start, const char** p, const char* unterminated, bool* ok);
  void SetLit(LitKind k, const char* start, const char* p, bool ok);
  void AddComment(const char* start, const char* p);
  void ErrorAt(const char* p, std::string msg);

  const ErrorHandler* errh_;  // null or empty: errors are only counted
  std::vector<Comment>* comments_;
  const char* buf_;       // file content; buf_[size] == '\0' (the sentinel)
  const char* end_;       // buf_ + size: the sentinel
  const char* cur_;       // next byte to read
  Pos base_;              // Pos of buf_[0]
  bool nlsemi_ = false;   // a newline or EOF here inserts a semicolon
  int error_count_ = 0;
};

}  // namespace gordian::syntax
