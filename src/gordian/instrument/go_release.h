// This file owns the Go releases the runtime hooks support: one table with
// a row per release (by minor version), what differs in it, and the patch
// release CI tests it with; the reading of a GOROOT's release; and the
// refusal, with a message naming the supported releases, of any other.
//
// Per-release differences live in two places, both keyed by the minor
// version this table lists: runtime/std/patches.txt limits a patch to some
// releases ("@@ insert-after go1.25+", runtime_hooks.h), and the added Go
// files select themselves with Go's own release build tags
// (runtime/std/<pkg>/gordian_release_go1NN.go, "//go:build go1.25").
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace gordian::instrument {

struct GoRelease {
  int minor;               // 23 for Go 1.23
  std::string_view tested;  // the patch release CI runs the release tests with
  std::string_view notes;   // what the hooks do differently for it
  // go vet reads overlaid files (Go 1.24 and later). Before, go test's vet
  // step fails on the files the hooks add to std, so gordian runs go test
  // with -vet=off unless told otherwise.
  bool vet_reads_overlay;
};

// true unless version (GOVERSION) is a supported release whose go vet
// cannot read overlaid files.
bool GoVetReadsOverlay(std::string_view version);

// The supported releases, oldest first.
std::span<const GoRelease> SupportedGoReleases();

// "Go 1.23, 1.24, 1.25 and 1.26", for messages.
std::string SupportedGoReleasesText();

// The release of a GOROOT: the minor version its sources declare
// (src/internal/goversion/goversion.go, "const Version = 26"), which a Go
// built from source has too. false with a message when it cannot be read.
bool GoMinorOfRoot(const std::string& goroot, int* minor, std::string* err);

// The minor version in a go version string ("go1.24.13", "go1.25rc1",
// "devel go1.27-abc"), or 0.
int GoMinorOfVersion(std::string_view version);

// The table's row for minor, or nullptr.
const GoRelease* FindGoRelease(int minor);

// true when minor is supported; otherwise false with a message that names
// the release found (version: the VERSION text, may be empty), the
// supported ones and what to do.
bool CheckGoReleaseSupported(int minor, std::string_view version, std::string* err);

}  // namespace gordian::instrument
