// This file declares how gordian gets the IR of Go packages: the
// IrGenerator interface (the side effects, running Go and writing files,
// stay behind it) and its implementation that builds tools/irgen with the
// user's Go on first use, caches the binary in gordian's cache directory
// (irgen/<go version>-<hash of the generator's sources>/irgen, as the
// recording overlay is cached per Go version), and runs it.
//
// The generator is vendored (tools/irgen/vendor): building it needs no
// network. golang.org/x/tools v0.52.0 requires Go 1.26 or newer; an older
// Go gets an error saying so.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace gordian::ir {

struct GenerateOptions {
  std::vector<std::string> packages;  // go package patterns
  std::string dir;                    // where they are resolved ("": cwd)
  bool tests = true;                  // include _test.go files (tests are entry points)
  std::string tags;                   // comma-separated build tags
  double timeout_seconds = 900;
};

struct GenerateResult {
  bool build_failed = false;  // a package did not load or type check
  std::string messages;       // then: the compiler's messages
  std::string ir;             // else: the IR text
};

class IrGenerator {
 public:
  virtual ~IrGenerator() = default;
  // False with *err when gordian cannot proceed (no go, a Go too old to
  // build the generator, the generator crashed); a package that does not
  // build is a successful call with result->build_failed.
  virtual bool Generate(const GenerateOptions& opts, GenerateResult* result, std::string* err) = 0;
};

// The generator built from tools/irgen with the user's go command.
std::unique_ptr<IrGenerator> NewGoIrGenerator();

// The generator's sources: $GORDIAN_IRGEN_DIR, else the installed ones
// (share/gordian/irgen beside the binary's bin/), else, for a binary in its
// build tree, tools/irgen of the sources it was built from
// (driver::FindGordianDir).
bool FindIrgenDir(std::string* dir, std::string* err);

// A hash of the generator's sources (every file under dir but testdata/),
// so that a changed generator is rebuilt.
bool HashIrgenSources(const std::string& dir, uint64_t* hash, std::string* err);

}  // namespace gordian::ir
