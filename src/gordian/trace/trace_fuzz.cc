// This file is the libFuzzer target of the trace reader: a trace directory
// can be damaged (a crash, a full disk) or crafted, so ReadTrace must never
// crash, hang or use unbounded memory on it. One input holds the files of a
// trace directory: events.bin, then sites.txt, strings.txt, meta.txt and
// goroutines.txt, separated by the bytes "\n--8<--\n"; missing parts are
// missing files. The reader's result must be usable: every goroutine's
// record range lies inside the records, and every site and string a record
// names can be looked up without going out of bounds.
// The whole input is also read as a text trace (text.h): the text reader
// must refuse it with a message naming the line, or read a trace whose text
// form reads back to the same text.
// Build and run it with scripts/fuzz (docs/fuzzing.md).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "gordian/trace/text.h"
#include "gordian/trace/trace.h"

namespace {

namespace fs = std::filesystem;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "trace_fuzz: check failed: %s\n", what);
    std::abort();
  }
}

const std::string& Dir() {
  static const std::string dir = [] {
    std::string tmpl = (fs::temp_directory_path() / "gordian-trace-fuzz-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) std::abort();
    return tmpl;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gordian::trace;
  static const char* kFiles[] = {"events.bin", "sites.txt", "strings.txt", "meta.txt",
                                 "goroutines.txt"};
  const std::string& dir = Dir();
  std::string_view in(reinterpret_cast<const char*>(data), size);
  {
    Trace t;
    std::string err;
    if (ParseTextTrace(in, "f.trace", &t, &err)) {
      std::string text = FormatTextTrace(t);
      Trace back;
      Check(ParseTextTrace(text, "f.trace", &back, &err), "a written text trace reads back");
      Check(FormatTextTrace(back) == text, "text -> trace -> text is the same text");
    } else {
      Check(err.starts_with("f.trace:"), "a refused text trace names the file");
    }
  }
  constexpr std::string_view kSep = "\n--8<--\n";
  for (const char* f : kFiles) {
    std::error_code ec;
    fs::remove(dir + "/" + f, ec);
  }
  for (const char* f : kFiles) {
    if (in.empty()) break;
    size_t at = in.find(kSep);
    std::string_view part = in.substr(0, at);
    std::ofstream(dir + "/" + f, std::ios::binary).write(part.data(), part.size());
    in = at == std::string_view::npos ? std::string_view() : in.substr(at + kSep.size());
  }
  Trace t;
  std::string err;
  if (!ReadTrace(dir, &t, &err)) {
    Check(!err.empty(), "a refused trace says why");
    return 0;
  }
  for (const Goroutine& g : t.goroutines) {
    Check(g.begin <= g.end && g.end <= t.records.size(), "goroutine ranges inside the records");
  }
  for (const Record& r : t.records) {
    const Site& s = t.SiteOf(r);  // must not read out of bounds (ASan checks)
    (void)s;
  }
  return 0;
}
