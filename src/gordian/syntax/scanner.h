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

  // Advances to the next token and fills in the public fields below.
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
  // Implementation state; see scanner.cc.
  void ErrorAt(uint32_t offset, std::string msg);

  const SourceFile& file_;
  const ErrorHandler* errh_;
  std::vector<Comment>* comments_;
  const char* buf_;       // file content; buf_[size_] == '\0'
  uint32_t size_;
  uint32_t offset_ = 0;   // next byte to read
  bool nlsemi_ = false;   // a newline or EOF here inserts a semicolon
  int error_count_ = 0;
};

}  // namespace gordian::syntax
