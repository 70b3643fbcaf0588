// This file owns the runtime hook set: the anchor-based patches of Go
// standard library files and the files added to std packages that together
// make a stock Go toolchain record a trace (runtime/std/ in the repository,
// docs/trace-format.md "How it is recorded"). BuildStdOverlay applies them
// to the installed GOROOT and returns the overlay pairs for `go -overlay`.
//
// Hook directory layout (hooks_dir, normally <repo>/runtime/std):
//   patches.txt          the patches (format documented at its top)
//   <pkg>/gordian_*.go   files added to std package <pkg> (runtime, sync, ...)
//   go.mod               keeps the directory out of the support module
//
// A missing or ambiguous anchor is an error naming the patch, the GOROOT
// file and the anchor, so that a Go release whose sources moved fails the
// build loudly instead of recording wrongly. Which releases are supported,
// and how a patch is limited to some of them: go_release.h.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gordian::instrument {

// One patch of patches.txt.
struct StdPatch {
  enum class Op { kInsertBefore, kInsertAfter, kReplace };
  std::string file;    // relative to GOROOT/src, e.g. "runtime/chan.go"
  Op op = Op::kInsertAfter;
  std::string anchor;  // exact text, ends with a newline
  std::string text;    // inserted or replacing text (may be empty)
  int line = 0;        // line of the "@@ op" directive in patches.txt
  // The Go releases (minor versions) the patch is for, from "@@ op go1.25+"
  // (25, 0), "@@ op go1.23-go1.24" (23, 24) or "@@ op go1.23" (23, 23);
  // 0 leaves that side open.
  int min_minor = 0;
  int max_minor = 0;

  bool AppliesTo(int minor) const {
    return (min_minor == 0 || minor >= min_minor) && (max_minor == 0 || minor <= max_minor);
  }
};

// Parses the patch file text; name is used in messages ("patches.txt").
bool ParseStdPatches(std::string_view text, const std::string& name,
                     std::vector<StdPatch>* out, std::string* err);

// Applies the patches (all for one file) to the file's original text. Each
// anchor must occur exactly once in original and anchors must not overlap.
// label names the file in messages.
bool ApplyStdPatches(std::string_view original, const std::vector<const StdPatch*>& patches,
                     const std::string& label, std::string* out, std::string* err);

// An overlay entry: the path the go command sees -> the file it reads.
using OverlayPair = std::pair<std::string, std::string>;

// Applies hooks_dir's patches to goroot's sources, writes the patched copies
// and copies of the added files under work_dir/std/, and appends the pairs
// (GOROOT/src/<file> -> copy) to *replace. Returns false with a message
// saying what to do on any error. A Go release that go_release.h does not
// list is refused before any file is read; only the patches for the
// release in goroot are applied.
bool BuildStdOverlay(const std::string& goroot, const std::string& hooks_dir,
                     const std::string& work_dir, std::vector<OverlayPair>* replace,
                     std::string* err);

// The JSON text of an overlay file: {"Replace": {"orig": "copy", ...}}.
std::string OverlayJson(const std::vector<OverlayPair>& replace);

}  // namespace gordian::instrument
