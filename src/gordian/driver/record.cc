// This file implements Record and the go test exec wrapper (record.h).
#include "gordian/driver/record.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gordian/driver/go_env.h"
#include "gordian/driver/work_dir.h"
#include "gordian/instrument/go_release.h"
#include "gordian/instrument/runtime_hooks.h"
#include "gordian/race/gorace.h"
#include "gordian/util/fnv.h"

namespace gordian::driver {
namespace fs = std::filesystem;
namespace {

// Record tells the exec wrapper through go test's environment to keep each
// test binary (RecordOptions::keep_binary).
constexpr const char* kKeepBinaryEnv = "GORDIAN_KEEP_BINARY";

// binary linked (go test deletes its test binary when the package is done)
// or moved (move: gordian's run directory goes after the run), else
// copied, into trace_dir as kKeptBinaryFile. Best effort: without it the
// replays go through go test or go build. Returns whether it is there.
bool KeepBinary(const std::string& binary, const std::string& trace_dir, bool move) {
  std::string kept = trace_dir + "/" + kKeptBinaryFile;
  if ((move ? rename(binary.c_str(), kept.c_str()) : link(binary.c_str(), kept.c_str())) == 0) {
    return true;
  }
  std::error_code ec;
  if (fs::copy_file(binary, kept, fs::copy_options::overwrite_existing, ec)) return true;
  fs::remove(kept, ec);  // no half copy for a replay to run
  return false;
}

// The limit of a recorded run within -wall (0: none), after `spent`
// seconds of build: what is left, less a reserve for reading the trace
// after a run the limit had to kill. A command whose one deadline covers
// the run and the work after it (gordian replay, record) would otherwise
// end at its deadline a moment after the kill, without its result: a
// program that hangs for good is killed at the limit by design.
double RunLimit(double wall_seconds, double spent) {
  if (!(wall_seconds > 0)) return 0;
  double reserve = std::min(1.0, wall_seconds / 10);
  return std::max(1e-3, wall_seconds - spent - reserve);
}

// go build and go test flags that take a value (as the next argument when
// not written -flag=value). Any other flag is taken to be boolean.
const std::set<std::string, std::less<>>& ValueFlags() {
  static const std::set<std::string, std::less<>> flags = {
      // build flags
      "C", "p", "covermode", "coverpkg", "asmflags", "buildmode", "compiler", "gccgoflags",
      "gcflags", "installsuffix", "ldflags", "mod", "modfile", "overlay", "pgo", "pkgdir",
      "tags", "toolexec", "o", "exec", "buildvcs",
      // go test and test binary flags
      "bench", "benchtime", "blockprofile", "blockprofilerate", "count", "coverprofile",
      "cpu", "cpuprofile", "fuzz", "fuzzcachedir", "fuzzminimizetime", "fuzztime", "list",
      "memprofile", "memprofilerate", "mutexprofile", "mutexprofilefraction", "outputdir",
      "parallel", "run", "skip", "shuffle", "timeout", "trace", "vet", "fullpath"};
  return flags;
}

// One flag occurrence in an argument list.
struct FlagAt {
  size_t index = 0;  // of the flag
  size_t span = 1;   // arguments it occupies (2 when the value is separate)
  std::string value;
};

// Splits "-name=value" / "--name"; returns false for a non-flag.
bool FlagName(const std::string& a, std::string* name, std::string* value, bool* has_value) {
  if (a.size() < 2 || a[0] != '-' || a == "--") return false;
  std::string_view body = a;
  body.remove_prefix(a[1] == '-' ? 2 : 1);
  size_t eq = body.find('=');
  *has_value = eq != std::string_view::npos;
  *name = std::string(body.substr(0, eq));
  *value = *has_value ? std::string(body.substr(eq + 1)) : std::string();
  return true;
}

// Finds every occurrence of flag `want` in args (before "-args"), and
// optionally stops at the first positional argument.
std::vector<FlagAt> FindFlag(const std::vector<std::string>& args, std::string_view want,
                             bool stop_at_positional) {
  std::vector<FlagAt> found;
  for (size_t i = 0; i < args.size(); i++) {
    std::string name, value;
    bool has_value = false;
    if (!FlagName(args[i], &name, &value, &has_value)) {
      if (args[i] == "--" || stop_at_positional) break;
      continue;
    }
    if (name == "args") break;
    size_t span = 1;
    if (!has_value && ValueFlags().count(name) && i + 1 < args.size()) {
      value = args[i + 1];
      span = 2;
    }
    if (name == want) found.push_back({i, span, value});
    i += span - 1;
  }
  return found;
}

void Erase(std::vector<std::string>* args, const FlagAt& f) {
  args->erase(args->begin() + static_cast<long>(f.index),
              args->begin() + static_cast<long>(f.index + f.span));
}

// Removes one flag (all its occurrences) and returns the last value.
bool TakeFlag(std::vector<std::string>* args, std::string_view name, std::string* value,
              bool stop_at_positional) {
  std::vector<FlagAt> at = FindFlag(*args, name, stop_at_positional);
  if (at.empty()) return false;
  *value = at.back().value;
  for (size_t k = at.size(); k-- > 0;) Erase(args, at[k]);
  return true;
}

// The largest trace (GORDIAN_TRACE_MAX_MB) when neither the user nor the
// caller set one: what the filesystem of dir can spare, less a reserve,
// at most the recorder's 32 GiB. A trace that would fill the disk ends
// early instead (marked incomplete), and the disk keeps room for the rest
// of the run (the other packages' traces, the schedules, go's own files).
void SetTraceCap(const std::string& dir, ProcessSpec* spec) {
  if (spec->set_env.count("GORDIAN_TRACE_MAX_MB") || getenv("GORDIAN_TRACE_MAX_MB") != nullptr) {
    return;
  }
  std::error_code ec;
  fs::path probe = dir;
  while (!probe.empty() && !fs::exists(probe, ec)) probe = probe.parent_path();
  fs::space_info sp = fs::space(probe.empty() ? fs::path(".") : probe, ec);
  if (ec) return;
  constexpr uint64_t kMiB = 1 << 20;
  uint64_t free_mb = sp.available / kMiB;
  uint64_t reserve = std::min<uint64_t>(1024, free_mb / 4);
  uint64_t cap = std::clamp<uint64_t>(free_mb - reserve, 64, 32768);
  spec->set_env["GORDIAN_TRACE_MAX_MB"] = std::to_string(cap);
}

bool WriteText(const std::string& path, const std::string& text, std::string* err) {
  std::ofstream f(path, std::ios::trunc | std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    *err = fmt::format("cannot write {}", path);
    return false;
  }
  return true;
}

// Builds run_dir/overlay.json: the std hooks plus the user's own -overlay.
bool WriteOverlay(const GoTool& go, const std::string& hooks, const std::string& cache,
                  const std::string& user_overlay, const std::string& cwd,
                  const std::string& run_dir, std::string* path, std::string* err) {
  std::string std_dir = fmt::format("{}/std/{}-{:016x}", cache, go.version,
                                    util::Fnv1a64(hooks, util::Fnv1a64(go.goroot)));
  std::vector<instrument::OverlayPair> pairs;
  if (!instrument::BuildStdOverlay(go.goroot, hooks, std_dir, &pairs, err)) return false;
  if (!user_overlay.empty()) {
    fs::path up = fs::path(user_overlay).is_absolute() ? fs::path(user_overlay)
                                                        : fs::path(cwd) / user_overlay;
    std::ifstream in(up);
    std::stringstream ss;
    ss << in.rdbuf();
    nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
    if (!in || !j.is_object() || !j.contains("Replace") || !j["Replace"].is_object()) {
      *err = fmt::format("-overlay {}: cannot read it as a go overlay file "
                         "({{\"Replace\": {{...}}}})",
                         user_overlay);
      return false;
    }
    std::set<std::string> ours;
    for (const auto& [from, to] : pairs) ours.insert(from);
    for (const auto& [from, to] : j["Replace"].items()) {
      fs::path f = fs::path(from).is_absolute() ? fs::path(from) : up.parent_path() / from;
      std::string to_s = to.is_string() ? to.get<std::string>() : "";
      if (!to_s.empty() && !fs::path(to_s).is_absolute()) {
        to_s = (up.parent_path() / to_s).string();
      }
      if (ours.count(f.string())) {
        *err = fmt::format("-overlay {} replaces {}, which gordian's runtime hooks replace "
                           "too; drop that entry",
                           user_overlay, from);
        return false;
      }
      pairs.emplace_back(f.string(), to_s);
    }
  }
  *path = run_dir + "/overlay.json";
  return WriteText(*path, instrument::OverlayJson(pairs), err);
}

// What a build with the runtime hooks needs: gordian's cache, a run
// directory of its own (removed with this), and in it the overlay that lays
// the std hooks, plus the user's own -overlay, over the Go sources.
struct HookedBuild {
  std::string cache;
  ScopedRunDir run_dir;
  std::string overlay;  // run_dir/overlay.json
};

// Makes b ready for a build with go in cwd.
bool PrepareHookedBuild(const GoTool& go, const std::string& user_overlay, const std::string& cwd,
                        HookedBuild* b, std::string* err) {
  std::string hooks;
  if (!CacheDir(&b->cache, err) || !FindHooksDir(&hooks, err)) return false;
  if (!b->run_dir.Make(b->cache, err)) return false;
  return WriteOverlay(go, hooks, b->cache, user_overlay, cwd, b->run_dir.path(), &b->overlay, err);
}

// Quotes a word for go's -exec value (split by the go command's own rules).
std::string QuoteForGo(const std::string& s) {
  if (s.find_first_of(" \t'\"") == std::string::npos) return s;
  if (s.find('\'') == std::string::npos) return "'" + s + "'";
  return "\"" + s + "\"";
}

std::string Join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); i++) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

// Splits run-mode arguments: build flags, the package (or .go files), the
// program's arguments.
void SplitRunArgs(const std::vector<std::string>& args, std::vector<std::string>* flags,
                  std::vector<std::string>* pkgs, std::vector<std::string>* prog) {
  size_t i = 0;
  for (; i < args.size(); i++) {
    std::string name, value;
    bool has_value = false;
    if (args[i] == "--") {  // no package given: "." and then the program's arguments
      prog->assign(args.begin() + static_cast<long>(i) + 1, args.end());
      return;
    }
    if (!FlagName(args[i], &name, &value, &has_value)) break;
    flags->push_back(args[i]);
    if (!has_value && ValueFlags().count(name) && i + 1 < args.size()) {
      flags->push_back(args[++i]);
    }
  }
  if (i < args.size() && args[i].size() > 3 && args[i].ends_with(".go")) {
    while (i < args.size() && args[i].size() > 3 && args[i].ends_with(".go")) {
      pkgs->push_back(args[i++]);
    }
  } else if (i < args.size() && args[i] != "--") {
    pkgs->push_back(args[i++]);
  }
  if (i < args.size() && args[i] == "--") i++;
  prog->assign(args.begin() + static_cast<long>(i), args.end());
}

// The name go run would give the binary of pkgs.
std::string BinaryName(const std::vector<std::string>& pkgs, const std::string& cwd) {
  std::string base;
  if (pkgs.empty() || pkgs[0] == ".") {
    base = fs::path(cwd).filename().string();
  } else if (pkgs[0].ends_with(".go")) {
    base = fs::path(pkgs[0]).stem().string();
  } else {
    std::string p = pkgs[0];
    if (size_t at = p.find('@'); at != std::string::npos) p.resize(at);
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    base = fs::path(p).filename().string();
    // Major version suffixes: example.com/x/v2 -> x.
    if (base.size() >= 2 && base[0] == 'v' &&
        base.find_first_not_of("0123456789", 1) == std::string::npos) {
      base = fs::path(p).parent_path().filename().string();
    }
  }
  if (base.empty() || base == "." || base == "..") base = "main";
  return base;
}

}  // namespace

bool Record(const RecordOptions& opts, RecordResult* result, std::string* err) {
  *result = RecordResult();
  std::error_code ec;
  std::string cwd = opts.cwd.empty() ? fs::current_path(ec).string() : opts.cwd;
  std::vector<std::string> args = opts.args;

  // -C must be the go command's first flag; we run several go commands,
  // so it becomes their working directory instead.
  if (!args.empty()) {
    std::vector<FlagAt> c = FindFlag(args, "C", /*stop_at_positional=*/true);
    if (!c.empty() && c[0].index == 0) {
      fs::path d = fs::path(c[0].value);
      cwd = (d.is_absolute() ? d : fs::path(cwd) / d).lexically_normal().string();
      Erase(&args, c[0]);
    }
  }
  bool is_test = opts.mode == RecordMode::kTest;
  std::string user_overlay;
  TakeFlag(&args, "overlay", &user_overlay, /*stop_at_positional=*/!is_test);
  std::string exec_flag;
  if (!FindFlag(args, "exec", !is_test).empty()) {
    *err = "-exec cannot be used with gordian record (gordian runs the binary itself); "
           "drop it";
    return false;
  }

  // go run has no -o: the binary goes to gordian's run directory, and a
  // -o among the build flags would write it elsewhere and leave nothing to
  // run.
  if (!is_test && !FindFlag(args, "o", /*stop_at_positional=*/true).empty()) {
    *err = "-o cannot be used with gordian run or record run (the binary is built in "
           "gordian's cache and removed after the run); to keep a binary, use go build";
    return false;
  }

  GoTool go;
  if (!FindGo(cwd, &go, err)) return false;
  result->go_version = go.version;
  HookedBuild hooked;
  if (!PrepareHookedBuild(go, user_overlay, cwd, &hooked, err)) return false;

  // Flags that change which modules are main modules matter for the roots.
  std::vector<std::string> mod_flags;
  for (const char* f : {"mod", "modfile"}) {
    for (const FlagAt& at : FindFlag(args, f, !is_test)) {
      mod_flags.push_back(fmt::format("-{}={}", f, at.value));
    }
  }
  result->roots = ModuleRoots(go, cwd, mod_flags);

  fs::path out = fs::path(opts.out_dir);
  result->out_dir = (out.is_absolute() ? out : fs::path(cwd) / out).lexically_normal().string();
  while (result->out_dir.size() > 1 && result->out_dir.back() == '/') result->out_dir.pop_back();
  if (!PrepareOutputDir(result->out_dir, err)) return false;

  ProcessSpec spec;
  spec.cwd = cwd;
  spec.timeout_seconds = RunLimit(opts.wall_seconds, 0);
  spec.pass_through = opts.pass_through;
  spec.stdout_to_stderr = opts.stdout_to_stderr;
  spec.unset_env = {"GORDIAN_TRACE_DIR", "GORDIAN_RECORD_OUT", "GORDIAN_GOMAXPROCS",
                    "GORDIAN_WALL_MS"};
  // The runtime's deadlock watchdog ignores callbacks due after the run is
  // killed anyway (gordian_watchdog.go). Counted from the program's start,
  // which comes after the limit's start: never earlier than the kill.
  if (opts.wall_seconds > 0) {
    spec.set_env["GORDIAN_WALL_MS"] =
        std::to_string(static_cast<long long>(opts.wall_seconds * 1000));
  }
  for (const auto& [k, v] : opts.env) spec.set_env[k] = v;
  SetTraceCap(result->out_dir, &spec);
  // With HOME unset (and no GOPATH), go has no GOMODCACHE, and then refuses
  // every overlay ("files beneath GOMODCACHE () must not be replaced"),
  // though plain go test works. A module cache inside gordian's cache lets
  // the same tests run.
  if (go.gomodcache.empty() && !spec.set_env.count("GOMODCACHE")) {
    spec.set_env["GOMODCACHE"] = hooked.cache + "/gomodcache";
  }
  if (!result->roots.empty()) spec.set_env["GORDIAN_ROOTS"] = Join(result->roots, ":");

  if (is_test) {
    // (Not from the caller's environment: only when asked.)
    if (opts.keep_binary) spec.set_env[kKeepBinaryEnv] = "1";
    else spec.unset_env.push_back(kKeepBinaryEnv);
    std::string self = opts.self_exe.empty() ? SelfExe() : opts.self_exe;
    if (self.empty()) {
      *err = "cannot find the gordian executable (/proc/self/exe) for go test -exec";
      return false;
    }
    spec.argv = {go.go, "test", "-overlay=" + hooked.overlay,
                 "-exec=" + QuoteForGo(self) + " record " + kExecWrapperFlag};
    // A cached test result runs nothing and so records nothing.
    if (FindFlag(args, "count", false).empty() && FindFlag(args, "test.count", false).empty()) {
      spec.argv.push_back("-count=1");
    }
    // Go 1.23's vet cannot read the files the hooks add to std.
    if ((!opts.vet || !instrument::GoVetReadsOverlay(go.version)) &&
        FindFlag(args, "vet", false).empty()) {
      spec.argv.push_back("-vet=off");
    }
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.set_env["GORDIAN_RECORD_OUT"] = result->out_dir;
    if (opts.gomaxprocs > 0) spec.set_env["GORDIAN_GOMAXPROCS"] = std::to_string(opts.gomaxprocs);
    result->command = "go test " + Join(args, " ");
    spec.observe = opts.observe;
    if (!RunProcess(spec, &result->run, err)) return false;
    if (!ListTraces(result->out_dir, &result->traces, err)) result->traces.clear();
    std::string all = result->run.out + result->run.err;
    bool failed = !result->run.Succeeded() && !result->run.timed_out;
    if (TestBuildFailed(all) || (failed && result->traces.empty())) {
      result->build_errors = ParseBuildErrors(result->run.err);
      std::vector<BuildError> more = ParseBuildErrors(result->run.out);
      // Test output with positions (t.Error lines) is indented and not
      // taken; the build's own errors are the unindented ones.
      result->build_errors.insert(result->build_errors.end(), more.begin(), more.end());
      result->build_failed = TestBuildFailed(all) || !result->build_errors.empty();
    }
    return true;
  }

  std::vector<std::string> flags, pkgs, prog_args;
  SplitRunArgs(args, &flags, &pkgs, &prog_args);
  if (pkgs.empty()) pkgs.push_back(".");
  std::string bin = hooked.run_dir.path() + "/" + BinaryName(pkgs, cwd);
  ProcessSpec build = spec;
  build.argv = {go.go, "build", "-overlay=" + hooked.overlay, "-o", bin};
  build.argv.insert(build.argv.end(), flags.begin(), flags.end());
  build.argv.insert(build.argv.end(), pkgs.begin(), pkgs.end());
  build.pass_through = opts.pass_through;
  // -wall bounds the build too (a replay's build used to have 30 minutes).
  build.timeout_seconds = opts.wall_seconds > 0 ? std::min(opts.build_seconds, opts.wall_seconds)
                                                : opts.build_seconds;
  ProcessResult br;
  if (!RunProcess(build, &br, err)) return false;
  if (!br.Succeeded()) {
    result->build_failed = true;
    result->build_errors = ParseBuildErrors(br.err);
    result->run = br;
    result->command = "go build " + Join(flags, " ") + (flags.empty() ? "" : " ") + Join(pkgs, " ");
    return true;
  }
  // -wall bounds build and run together, as go test's does in test mode.
  spec.timeout_seconds = RunLimit(opts.wall_seconds, br.seconds);
  spec.argv = {bin};
  spec.argv.insert(spec.argv.end(), prog_args.begin(), prog_args.end());
  if (opts.gomaxprocs > 0) spec.set_env["GOMAXPROCS"] = std::to_string(opts.gomaxprocs);
  spec.inherit_stdin = true;
  spec.set_env["GORDIAN_TRACE_DIR"] = result->out_dir;
  // -race: the reports go to a file beside the trace (race/gorace.h).
  const char* gorace = getenv("GORACE");
  spec.set_env["GORACE"] = race::GoraceWithLogPath(
      opts.env.count("GORACE") ? opts.env.at("GORACE") : gorace ? gorace : "", result->out_dir);
  result->command = "go run " + Join(args, " ");
  if (!RunProcess(spec, &result->run, err)) return false;
  if (!ListTraces(result->out_dir, &result->traces, err)) result->traces.clear();
  // The program goes with its trace (the run directory is removed).
  if (opts.keep_binary && !result->traces.empty() &&
      KeepBinary(bin, result->out_dir, /*move=*/true)) {
    result->program.path = result->out_dir + "/" + kKeptBinaryFile;
    result->program.cwd = cwd;
    result->program.record_cwd = opts.cwd.empty() ? fs::current_path(ec).string() : opts.cwd;
    result->program.record_args = opts.args;
    result->program.program_args = prog_args;
    result->program.roots = result->roots;
  }
  return true;
}

bool KeptTestBinary(const PackageTrace& p, const RecordResult& rec, TestBinary* out) {
  std::string binary = p.trace_dir + "/" + kKeptBinaryFile;
  if (access(binary.c_str(), X_OK) != 0) return false;
  *out = TestBinary();
  out->path = std::move(binary);
  out->package_dir = p.source_dir;
  out->import_path = p.import_path;
  out->roots = rec.roots;
  out->go_version = rec.go_version;
  return true;
}

bool BuildTestBinary(const std::string& package_dir, bool race,
                     const std::vector<std::string>& build_flags, const std::string& bin_dir,
                     double wall_seconds, TestBinary* out, std::string* err) {
  *out = TestBinary();
  GoTool go;
  if (!FindGo(package_dir, &go, err)) return false;
  HookedBuild hooked;
  if (!PrepareHookedBuild(go, "", package_dir, &hooked, err)) return false;
  out->import_path = ImportPathOfDir(package_dir);
  std::string name = out->import_path.empty() ? fs::path(package_dir).filename().string()
                                              : fs::path(out->import_path).filename().string();
  out->path = (fs::path(bin_dir) / (name + ".test")).string();
  out->package_dir = package_dir;
  out->roots = ModuleRoots(go, package_dir, {});
  out->race = race;
  out->go_version = go.version;
  ProcessSpec spec;
  spec.cwd = package_dir;
  spec.timeout_seconds = wall_seconds;
  spec.pass_through = false;
  if (go.gomodcache.empty()) spec.set_env["GOMODCACHE"] = hooked.cache + "/gomodcache";
  spec.argv = {go.go, "test", "-c", "-overlay=" + hooked.overlay, "-o", out->path};
  if (!instrument::GoVetReadsOverlay(go.version)) spec.argv.push_back("-vet=off");
  if (race) spec.argv.push_back("-race");
  spec.argv.insert(spec.argv.end(), build_flags.begin(), build_flags.end());
  spec.argv.push_back(".");
  ProcessResult r;
  if (!RunProcess(spec, &r, err)) return false;
  if (!r.Succeeded() || access(out->path.c_str(), X_OK) != 0) {
    std::string why = r.err.empty() ? r.out : r.err;
    if (why.size() > 2000) why.resize(2000);
    while (!why.empty() && why.back() == '\n') why.pop_back();
    *err = fmt::format("go test -c in {} failed ({}): {}", package_dir, r.Describe(), why);
    return false;
  }
  return true;
}

namespace {

// Runs binary (argv[0] of argv) as a recording of run: in cwd, the trace in
// trace_dir, under run.out_dir (prepared by the caller), and lists the
// traces. What RecordTestBinary and RecordProgramBinary share.
bool RunKeptBinary(std::vector<std::string> argv, const std::string& cwd,
                   const std::vector<std::string>& roots, const BinaryRun& run,
                   const std::string& trace_dir, bool inherit_stdin, RecordResult* result,
                   std::string* err) {
  ProcessSpec spec;
  spec.cwd = cwd;
  spec.timeout_seconds = run.wall_seconds;
  spec.pass_through = run.pass_through;
  spec.inherit_stdin = inherit_stdin;
  spec.unset_env = {"GORDIAN_RECORD_OUT", "GORDIAN_GOMAXPROCS", "GORDIAN_WALL_MS"};
  // As Record's: the watchdog ignores callbacks due after the kill.
  if (run.wall_seconds > 0) {
    spec.set_env["GORDIAN_WALL_MS"] = std::to_string(static_cast<long long>(run.wall_seconds * 1000));
  }
  for (const auto& [k, v] : run.env) spec.set_env[k] = v;
  SetTraceCap(trace_dir, &spec);
  if (!roots.empty()) spec.set_env["GORDIAN_ROOTS"] = Join(roots, ":");
  spec.set_env["GORDIAN_TRACE_DIR"] = trace_dir;
  const char* gorace = getenv("GORACE");
  spec.set_env["GORACE"] = race::GoraceWithLogPath(
      run.env.count("GORACE") ? run.env.at("GORACE") : gorace ? gorace : "", trace_dir);
  if (run.gomaxprocs > 0) spec.set_env["GOMAXPROCS"] = std::to_string(run.gomaxprocs);
  spec.argv = std::move(argv);
  spec.argv.insert(spec.argv.end(), run.args.begin(), run.args.end());
  result->command = Join(spec.argv, " ");
  if (!RunProcess(spec, &result->run, err)) return false;
  if (!ListTraces(result->out_dir, &result->traces, err)) result->traces.clear();
  return true;
}

// *result for a run of a binary into run.out_dir, which is made ready.
bool PrepareBinaryRun(const BinaryRun& run, const std::vector<std::string>& roots,
                      RecordResult* result, std::string* err) {
  *result = RecordResult();
  result->roots = roots;
  result->out_dir = fs::absolute(run.out_dir).lexically_normal().string();
  while (result->out_dir.size() > 1 && result->out_dir.back() == '/') result->out_dir.pop_back();
  return PrepareOutputDir(result->out_dir, err);
}

}  // namespace

bool RecordTestBinary(const TestBinary& b, const BinaryRun& run, RecordResult* result,
                      std::string* err) {
  if (!PrepareBinaryRun(run, b.roots, result, err)) return false;
  result->go_version = b.go_version;
  // What the exec wrapper does for go test: the package's own trace
  // directory, listed in packages.txt.
  std::string trace_dir;
  if (!ClaimPackageDir(result->out_dir, b.import_path, b.package_dir, &trace_dir, err)) {
    return false;
  }
  // go test's own first flag: a test that calls os.Exit(0) fails.
  return RunKeptBinary({b.path, "-test.paniconexit0"}, b.package_dir, b.roots, run, trace_dir,
                       /*inherit_stdin=*/false, result, err);
}

bool RecordProgramBinary(const ProgramBinary& b, const BinaryRun& run, RecordResult* result,
                         std::string* err) {
  if (!PrepareBinaryRun(run, b.roots, result, err)) return false;
  // A run's trace is its directory itself; stdin as Record's run mode.
  return RunKeptBinary({b.path}, b.cwd, b.roots, run, result->out_dir, /*inherit_stdin=*/true,
                       result, err);
}

int ExecWrapper(const std::vector<std::string>& args) {
  if (args.empty()) {
    fmt::print(stderr, "gordian record {}: missing the test binary (this mode is for go test "
               "-exec only)\n", kExecWrapperFlag);
    return 2;
  }
  const char* base = getenv("GORDIAN_RECORD_OUT");
  if (base != nullptr && *base) {
    std::error_code ec;
    std::string cwd = fs::current_path(ec).string();
    std::string dir, err;
    if (!ClaimPackageDir(base, ImportPathOfDir(cwd), cwd, &dir, &err)) {
      fmt::print(stderr, "gordian record: {}\n", err);
      return 2;
    }
    setenv("GORDIAN_TRACE_DIR", dir.c_str(), 1);
    if (const char* keep = getenv(kKeepBinaryEnv); keep != nullptr && std::string(keep) == "1") {
      KeepBinary(args[0], dir, /*move=*/false);
    }
    // -race: the reports go to a file beside the trace (race/gorace.h).
    const char* gorace = getenv("GORACE");
    setenv("GORACE", race::GoraceWithLogPath(gorace ? gorace : "", dir).c_str(), 1);
    unsetenv("GORDIAN_RECORD_OUT");
  }
  unsetenv(kKeepBinaryEnv);
  // The schedule's GOMAXPROCS is for the test binary, not for go test.
  if (const char* g = getenv("GORDIAN_GOMAXPROCS"); g != nullptr && *g) {
    setenv("GOMAXPROCS", g, 1);
    unsetenv("GORDIAN_GOMAXPROCS");
  }
  std::vector<char*> argv;
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  fmt::print(stderr, "gordian record: cannot run {}: {}\n", args[0], strerror(errno));
  return 2;
}

}  // namespace gordian::driver
