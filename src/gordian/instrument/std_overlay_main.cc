// gordian-std-overlay GOROOT HOOKS_DIR WORK_DIR [EXTRA_OVERLAY_JSON]
//
// Applies the runtime hooks (runtime_hooks.h) to GOROOT and writes
// WORK_DIR/overlay.json for `go build/test/run -overlay=...`. Prints the
// overlay path. Exit status 2 with a message on error.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gordian/instrument/runtime_hooks.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: gordian-std-overlay GOROOT HOOKS_DIR WORK_DIR\n");
    return 2;
  }
  std::vector<gordian::instrument::OverlayPair> replace;
  std::string err;
  if (!gordian::instrument::BuildStdOverlay(argv[1], argv[2], argv[3], &replace, &err)) {
    std::fprintf(stderr, "gordian-std-overlay: %s\n", err.c_str());
    return 2;
  }
  std::string path = std::string(argv[3]) + "/overlay.json";
  std::ofstream f(path, std::ios::trunc);
  f << gordian::instrument::OverlayJson(replace);
  if (!f) {
    std::fprintf(stderr, "gordian-std-overlay: cannot write %s\n", path.c_str());
    return 2;
  }
  std::printf("%s\n", path.c_str());
  return 0;
}
