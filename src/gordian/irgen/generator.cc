// This file owns building, caching and running tools/irgen (generator.h).
#include "gordian/irgen/generator.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gordian/driver/go_env.h"
#include "gordian/driver/process.h"
#include "gordian/driver/work_dir.h"
#include "gordian/util/fnv.h"

namespace gordian::ir {
namespace {

namespace fs = std::filesystem;

bool IsIrgenDir(const fs::path& d) {
  std::error_code ec;
  return fs::exists(d / "go.mod", ec) && fs::exists(d / "main.go", ec) &&
         fs::exists(d / "vendor/modules.txt", ec);
}

std::string Slurp(const fs::path& p, bool* ok) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  *ok = static_cast<bool>(in) || in.eof();
  return ss.str();
}

// The first lines of the go command's output, for messages.
std::string Head(const std::string& s, int lines) {
  size_t at = 0;
  for (int i = 0; i < lines; i++) {
    at = s.find('\n', at);
    if (at == std::string::npos) return s;
    at++;
  }
  return s.substr(0, at) + "...\n";
}

class GoIrGenerator : public IrGenerator {
 public:
  bool Generate(const GenerateOptions& opts, GenerateResult* result, std::string* err) override {
    std::error_code ec;
    std::string cwd = fs::absolute(opts.dir.empty() ? "." : opts.dir, ec).lexically_normal().string();
    if (ec || !fs::is_directory(cwd, ec)) {
      *err = fmt::format("{}: no such directory", opts.dir);
      return false;
    }
    if (cwd.size() > 1 && cwd.back() == '/') cwd.pop_back();
    driver::GoTool go;
    if (!driver::FindGo(cwd, &go, err)) return false;
    std::string src, cache, exe;
    if (!FindIrgenDir(&src, err) || !driver::CacheDir(&cache, err)) return false;
    if (!Build(go, src, cache, &exe, err)) return false;

    std::string run_dir;
    if (!driver::MakeRunDir(cache, &run_dir, err)) return false;
    std::string out = run_dir + "/ir.txt";
    driver::ProcessSpec spec;
    spec.argv = {exe, "-C", cwd, "-o", out};
    if (opts.tests) spec.argv.push_back("-test");
    if (!opts.tags.empty()) spec.argv.insert(spec.argv.end(), {"-tags", opts.tags});
    spec.argv.insert(spec.argv.end(), opts.packages.begin(), opts.packages.end());
    spec.cwd = cwd;
    spec.pass_through = false;
    spec.timeout_seconds = opts.timeout_seconds;
    // go/packages runs the user's go command: the one gordian found.
    spec.set_env["PATH"] = fs::path(go.go).parent_path().string() + ":" + Getenv("PATH");
    if (go.gomodcache.empty()) spec.set_env["GOMODCACHE"] = cache + "/gomodcache";
    driver::ProcessResult pr;
    bool started = driver::RunProcess(spec, &pr, err);
    bool ok = false;
    if (!started) {
      *err = fmt::format("cannot run the IR generator {}: {}", exe, *err);
    } else if (pr.exit_code == 2 && pr.signal == 0) {
      result->build_failed = true;
      result->messages = pr.err;
      ok = true;
    } else if (!pr.Succeeded()) {
      *err = fmt::format("the IR generator failed ({}):\n{}", pr.Describe(), Head(pr.err, 20));
    } else {
      bool read_ok;
      result->ir = Slurp(out, &read_ok);
      ok = read_ok;
      if (!ok) *err = fmt::format("the IR generator wrote no {}", out);
    }
    driver::RemoveTree(run_dir);
    return ok;
  }

 private:
  static std::string Getenv(const char* k) {
    const char* v = std::getenv(k);
    return v ? v : "";
  }

  // The cached binary for this Go and these sources, built when missing.
  bool Build(const driver::GoTool& go, const std::string& src, const std::string& cache,
             std::string* exe, std::string* err) {
    uint64_t h;
    if (!HashIrgenSources(src, &h, err)) return false;
    fs::path dir = fs::path(cache) / "irgen" / fmt::format("{}-{:016x}", go.version, util::Fnv1a64(go.goroot, h));
    *exe = (dir / "irgen").string();
    if (access(exe->c_str(), X_OK) == 0) return true;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
      *err = fmt::format("cannot create {}: {}", dir.string(), ec.message());
      return false;
    }
    // Built under a private name and renamed: concurrent gordians each
    // build and the last rename wins, with a complete binary either way.
    std::string tmp = fmt::format("{}.tmp-{}", *exe, getpid());
    driver::ProcessSpec spec;
    // No -trimpath: the same flags as `go test` in tools/irgen, so that the
    // two share the go build cache (x/tools is most of the build).
    // -buildvcs=false: the sources may sit in a git tree the user's git
    // refuses to read (another owner), which would fail the build.
    spec.argv = {go.go, "build", "-mod=vendor", "-buildvcs=false", "-o", tmp, "."};
    spec.cwd = src;
    spec.pass_through = false;
    spec.timeout_seconds = 600;
    spec.set_env = {{"GOFLAGS", "-mod=vendor"}, {"GOWORK", "off"}, {"GOTOOLCHAIN", "local"},
                    {"GO111MODULE", "on"}, {"CGO_ENABLED", "0"}};
    driver::ProcessResult pr;
    if (!driver::RunProcess(spec, &pr, err)) return false;
    if (!pr.Succeeded()) {
      fs::remove(tmp, ec);
      if (pr.err.find("requires go >=") != std::string::npos ||
          pr.err.find("go.mod requires go") != std::string::npos) {
        *err = fmt::format("the IR generator (tools/irgen, golang.org/x/tools v0.52.0) needs Go 1.26 "
                           "or newer; {} is {}. Install a newer Go or point GORDIAN_GO at one",
                           go.go, go.version);
      } else {
        *err = fmt::format("building the IR generator in {} with {} failed ({}):\n{}", src, go.go,
                           pr.Describe(), Head(pr.err, 20));
      }
      return false;
    }
    fs::rename(tmp, *exe, ec);
    if (ec) {
      *err = fmt::format("cannot move the IR generator to {}: {}", *exe, ec.message());
      return false;
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<IrGenerator> NewGoIrGenerator() { return std::make_unique<GoIrGenerator>(); }

bool FindIrgenDir(std::string* dir, std::string* err) {
  return driver::FindGordianDirOrEnv({"GORDIAN_IRGEN_DIR", "irgen", "tools/irgen", IsIrgenDir,
                                      "the IR generator's sources", "go.mod, main.go and vendor/",
                                      "vendor/"},
                                     dir, err);
}

bool HashIrgenSources(const std::string& dir, uint64_t* hash, std::string* err) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec);
  if (ec) {
    *err = fmt::format("cannot read {}: {}", dir, ec.message());
    return false;
  }
  for (auto end = fs::recursive_directory_iterator(); it != end; it.increment(ec)) {
    if (ec) break;
    std::string rel = fs::relative(it->path(), dir, ec).string();
    if (it->is_directory(ec)) {
      if (rel == "testdata") it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(rel);
  }
  if (ec) {
    *err = fmt::format("cannot read {}: {}", dir, ec.message());
    return false;
  }
  std::sort(files.begin(), files.end());
  uint64_t h = util::kFnvOffset;
  for (const std::string& f : files) {
    bool ok;
    std::string text = Slurp(fs::path(dir) / f, &ok);
    if (!ok) {
      *err = fmt::format("cannot read {}/{}", dir, f);
      return false;
    }
    h = util::Fnv1a64(text, util::Fnv1a64(f + '\0', h));
  }
  *hash = h;
  return true;
}

}  // namespace gordian::ir
