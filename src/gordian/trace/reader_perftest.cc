// trace_perftest [RECORDS] [GOROUTINES]: writes a synthetic trace with
// TraceWriter (channel traffic between many goroutines) into a temporary
// directory and times ReadTrace on it, cold and warm.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "gordian/trace/trace.h"
#include "gordian/trace/writer.h"

using namespace gordian::trace;

int main(int argc, char** argv) {
  uint64_t n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 10'000'000;
  uint32_t ngor = argc > 2 ? static_cast<uint32_t>(strtoul(argv[2], nullptr, 10)) : 1000;
  std::string tmpl =
      (std::filesystem::temp_directory_path() / "gordian-perftest-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) return 2;
  std::string dir = tmpl;

  auto t0 = std::chrono::steady_clock::now();
  TraceWriter w;
  uint32_t site = w.AddSite("/src/bench/main.go", 10, "main.worker");
  uint32_t ch = w.NewObject();
  std::vector<uint32_t> gs{1};
  for (uint32_t i = 1; i < ngor; i++) gs.push_back(w.Go(gs[(i - 1) / 4], site));
  uint32_t seq = 0;
  for (uint64_t i = 0; w.goroutine_count() > 0 && i < n / 2; i++) {
    uint32_t a = gs[i % gs.size()], b = gs[(i * 7 + 3) % gs.size()];
    RecordRef s = w.Pre(a, Kind::ChanSend, ch, site);
    RecordRef r = w.Pre(b, Kind::ChanRecv, ch, site);
    ++seq;
    w.Post(s, seq);
    w.Post(r, seq);
  }
  std::string err;
  if (!w.Write(dir, &err)) {
    fmt::print(stderr, "{}\n", err);
    return 2;
  }
  double wsecs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("wrote {} goroutines in {:.2f}s to {}\n", gs.size(), wsecs, dir);

  for (int round = 0; round < 3; round++) {
    auto start = std::chrono::steady_clock::now();
    Trace t;
    if (!ReadTrace(dir, &t, &err)) {
      fmt::print(stderr, "{}\n", err);
      return 2;
    }
    double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("read {} records of {} goroutines in {:.3f}s: {:.1f} M records/s, "
               "{} warnings\n",
               t.records.size(), t.goroutines.size(), secs,
               static_cast<double>(t.records.size()) / secs / 1e6, t.warnings.size());
  }
  std::filesystem::remove_all(dir);
  return 0;
}
