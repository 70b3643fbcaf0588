// This file implements the table of supported Go releases (go_release.h).
#include "gordian/instrument/go_release.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace gordian::instrument {
namespace {

// Keep in step with runtime/std (patch ranges and gordian_release_* files),
// docs/recording.md "Go releases" and the release tests (tests/releases).
constexpr GoRelease kReleases[] = {
    {23, "go1.23.12",
     "sync.Mutex is sync's own (no internal/sync); no GetCallerPC: runtime hooks call "
     "getcallerpc, sync hooks find their caller by unwinding one frame; no synctest; "
     "sysAlloc without a name; Once.done is a Uint32; go vet does not read overlays",
     false},
    {24, "go1.24.13",
     "synctest groups (g.syncGroup); sysAlloc without a name; Once.done is a Uint32; "
     "no WaitGroup.Go",
     true},
    {25, "go1.25.14",
     "synctest bubbles; sudog.c is a plain *hchan; Linux system calls in "
     "internal/runtime/syscall",
     true},
    {26, "go1.26.8", "the release the hooks were first written for", true},
};

}  // namespace

std::span<const GoRelease> SupportedGoReleases() { return kReleases; }

std::string SupportedGoReleasesText() {
  std::string out = "Go ";
  const size_t n = std::size(kReleases);
  for (size_t i = 0; i < n; i++) {
    if (i > 0) out += i + 1 == n ? " and " : ", ";
    out += fmt::format("1.{}", kReleases[i].minor);
  }
  return out;
}

bool GoVetReadsOverlay(std::string_view version) {
  const GoRelease* r = FindGoRelease(GoMinorOfVersion(version));
  return r == nullptr || r->vet_reads_overlay;
}

const GoRelease* FindGoRelease(int minor) {
  for (const GoRelease& r : kReleases) {
    if (r.minor == minor) return &r;
  }
  return nullptr;
}

int GoMinorOfVersion(std::string_view version) {
  size_t at = version.find("go1.");
  if (at == std::string_view::npos) return 0;
  int minor = 0;
  size_t i = at + 4;
  for (; i < version.size() && std::isdigit(static_cast<unsigned char>(version[i])); i++) {
    minor = minor * 10 + (version[i] - '0');
    if (minor > 100000) return 0;
  }
  return i == at + 4 ? 0 : minor;
}

bool GoMinorOfRoot(const std::string& goroot, int* minor, std::string* err) {
  const std::filesystem::path p =
      std::filesystem::path(goroot) / "src/internal/goversion/goversion.go";
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  const std::string_view key = "const Version = ";
  size_t at = text.find(key);
  int v = 0;
  size_t i = at == std::string::npos ? text.size() : at + key.size();
  size_t start = i;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); i++) {
    v = v * 10 + (text[i] - '0');
    if (v > 100000) break;
  }
  if (!f && text.empty()) {
    *err = fmt::format("cannot read {}: {} is not a Go root of Go 1.21 or later; gordian "
                       "supports {}",
                       p.string(), goroot, SupportedGoReleasesText());
    return false;
  }
  if (i == start || v > 100000) {
    *err = fmt::format("{} does not say which Go release it is (no 'const Version = N'); "
                       "gordian supports {}",
                       p.string(), SupportedGoReleasesText());
    return false;
  }
  *minor = v;
  return true;
}

bool CheckGoReleaseSupported(int minor, std::string_view version, std::string* err) {
  if (FindGoRelease(minor) != nullptr) return true;
  const std::string found =
      version.empty() ? fmt::format("Go 1.{}", minor) : fmt::format("Go 1.{} ({})", minor, version);
  const GoRelease& newest = kReleases[std::size(kReleases) - 1];
  *err = fmt::format(
      "{} is not supported: gordian records with {}. Use one of them, e.g. "
      "GOTOOLCHAIN={} (the go command fetches it), or point GORDIAN_GO at its go command",
      found, SupportedGoReleasesText(), newest.tested);
  if (minor > newest.minor) {
    *err += fmt::format("; supporting a newer release means checking runtime/std against it "
                        "(docs/recording.md, \"Go releases\")");
  }
  return false;
}

}  // namespace gordian::instrument
