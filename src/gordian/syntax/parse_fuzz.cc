// This file is the libFuzzer target of the Go front end: it feeds arbitrary
// bytes to the scanner and the parser, which must never crash, hang or use
// unbounded memory, and checks what can be checked of their output:
//   1. scanner invariants: tokens advance monotonically, stay inside the
//      file, and lit/comment views point into the buffer;
//   2. Parse always returns a File;
//   3. if the input parsed without errors: print it with the printer, parse
//      the printed text again, which must succeed too and give an equal tree
//      with the same comments (the printer's round-trip guarantee).
// Build and run it with scripts/fuzz (docs/fuzzing.md).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "gordian/syntax/arena.h"
#include "gordian/syntax/scanner.h"
#include "gordian/syntax/syntax.h"

// Define GORDIAN_FUZZ_NO_PRINTER to fuzz the scanner and parser alone.
#if __has_include("gordian/syntax/printer.h") && !defined(GORDIAN_FUZZ_NO_PRINTER)
#include "gordian/syntax/equal.h"
#include "gordian/syntax/printer.h"
#define GORDIAN_FUZZ_PRINTER 1
#endif

namespace gordian::syntax {
namespace {

// Inputs above this size are ignored: they find nothing small ones don't,
// and only slow the fuzzer down.
constexpr size_t kMaxInput = 1 << 20;

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "parse_fuzz: %s\n%s\n", what, detail.c_str());
  std::abort();
}

bool Inside(const SourceFile& f, std::string_view v) {
  const char* b = f.data();
  return v.data() >= b && v.data() + v.size() <= b + f.size();
}

void CheckScanner(const SourceFile& f) {
  std::vector<Comment> comments;
  Scanner s(f, nullptr, &comments);
  Pos last_end = f.base();
  // Every token but EOF_ and the semicolon before it consumes at least one
  // byte: a scanner that loops forever trips this limit.
  size_t limit = 2 * size_t{f.size()} + 4;
  for (size_t n = 0;; n++) {
    s.Next();
    if (n > limit) Fail("scanner does not terminate", "");
    if (s.pos < last_end) {
      Fail("token starts before the end of the previous one", std::string(s.lit));
    }
    if (s.end < s.pos || s.end > f.base() + f.size()) {
      Fail("token extent outside the file", std::string(s.lit));
    }
    if ((s.tok == Token::Name || s.tok == Token::Literal) && !Inside(f, s.lit)) {
      Fail("lit does not point into the buffer", std::string(s.lit));
    }
    if (s.tok == Token::Name && s.lit.empty()) Fail("empty name", "");
    last_end = s.end;
    if (s.tok == Token::EOF_) break;
  }
  Pos prev = f.base();
  for (const Comment& c : comments) {
    if (c.pos < prev || c.end < c.pos || c.end > f.base() + f.size() || !Inside(f, c.text) ||
        c.text.size() != c.end - c.pos || c.text.size() < 2 || c.text[0] != '/') {
      Fail("bad comment", std::string(c.text));
    }
    prev = c.end;
  }
}

}  // namespace
}  // namespace gordian::syntax

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gordian::syntax;
  if (size > kMaxInput) return 0;
  SourceSet set;
  const SourceFile* f =
      set.AddFile("fuzz.go", std::string(reinterpret_cast<const char*>(data), size));
  CheckScanner(*f);

  Arena arena;
  std::vector<std::string> errors;
  ErrorHandler errh = [&](const Error& e) {
    if (errors.size() < 4) errors.push_back(FormatError(*f, e));
  };
  ParseResult r = Parse(*f, &arena, errh, kCheckBranches);
  if (r.file == nullptr) Fail("Parse returned no File", "");
  if (r.error_count != 0) return 0;

#ifdef GORDIAN_FUZZ_PRINTER
  std::string printed = PrintFile(*r.file);
  const SourceFile* g = set.AddFile("printed.go", printed);
  Arena arena2;
  errors.clear();
  ParseResult r2 = Parse(*g, &arena2, errh, kCheckBranches);
  if (r2.file == nullptr || r2.error_count != 0) {
    Fail("printed output does not parse",
         (errors.empty() ? std::string() : errors[0]) + "\n--- printed:\n" + printed);
  }
  std::string diff;
  if (!EqualTrees(r.file, r2.file, &diff)) {
    Fail("printed output parses to a different tree", diff + "\n--- printed:\n" + printed);
  }
  // Every comment is printed, text unchanged, in order.
  std::span<Comment> c1 = r.file->comments, c2 = r2.file->comments;
  for (size_t i = 0; i < c1.size() || i < c2.size(); i++) {
    if (i >= c1.size() || i >= c2.size() || c1[i].text != c2[i].text) {
      Fail("printed output has different comments",
           "comment " + std::to_string(i) + ": " +
               (i < c1.size() ? std::string(c1[i].text) : "(none)") + " vs " +
               (i < c2.size() ? std::string(c2[i].text) : "(none)") + "\n--- printed:\n" + printed);
    }
  }
#endif
  return 0;
}
