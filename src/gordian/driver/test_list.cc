// This file implements ListTests (test_list.h) on go test's JSON events.
#include "gordian/driver/test_list.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gordian/driver/go_env.h"
#include "gordian/driver/process.h"

namespace gordian::driver {
namespace {

// go test's isTest: the prefix ("Test", "Example", "Fuzz") alone, or
// followed by something other than a lower-case letter (Testify is no test).
bool IsFuncNamed(std::string_view s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  if (s.size() > prefix.size() && s[prefix.size()] >= 'a' && s[prefix.size()] <= 'z') {
    return false;
  }
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || static_cast<unsigned char>(c) >= 0x80;
  });
}

// The flag name of a -flag or --flag[=value] argument, else "".
std::string_view FlagNameOf(std::string_view a) {
  if (a.size() < 2 || a[0] != '-') return {};
  a.remove_prefix(a[1] == '-' ? 2 : 1);
  return a.substr(0, a.find('='));
}

}  // namespace

std::string TopLevelPattern(const std::string& run) {
  int depth = 0;
  for (size_t i = 0; i < run.size(); i++) {
    char c = run[i];
    if (c == '\\' && i + 1 < run.size()) {
      i++;
    } else if (c == '[' || c == '(') {
      depth++;
    } else if ((c == ']' || c == ')') && depth > 0) {
      depth--;
    } else if (c == '/' && depth == 0) {
      return run.substr(0, i);
    }
  }
  return run;
}

bool ListTests(const std::vector<std::string>& args_in, const std::string& cwd_in,
               double wall_seconds, std::vector<PackageTests>* out, std::string* err) {
  out->clear();
  std::vector<std::string> args = args_in;
  std::string cwd = cwd_in;
  if (!args.empty() && (args[0] == "-C" || args[0] == "--C") && args.size() > 1) {
    cwd = cwd + "/" + args[1];
    if (!args[1].empty() && args[1][0] == '/') cwd = args[1];
    args.erase(args.begin(), args.begin() + 2);
  } else if (!args.empty() && (args[0].starts_with("-C=") || args[0].starts_with("--C="))) {
    std::string d = args[0].substr(args[0].find('=') + 1);
    cwd = !d.empty() && d[0] == '/' ? d : cwd + "/" + d;
    args.erase(args.begin());
  }
  // The selecting and reporting flags, up to -args (what follows is the
  // test binary's).
  std::string pattern = ".";
  std::vector<std::string> kept;
  bool binary_args = false;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& a = args[i];
    std::string_view name = binary_args ? std::string_view() : FlagNameOf(a);
    if (name == "args") binary_args = true;
    bool has_value = a.find('=') != std::string::npos;
    if (name == "run" || name == "test.run" || name == "list" || name == "test.list") {
      std::string value = has_value ? a.substr(a.find('=') + 1)
                                    : (i + 1 < args.size() ? args[++i] : "");
      if ((name == "run" || name == "test.run") && !value.empty()) {
        pattern = TopLevelPattern(value);
        if (pattern.empty()) pattern = ".";
      }
      continue;
    }
    if (name == "json" || name == "v" || name == "test.v") continue;
    kept.push_back(a);
  }
  GoTool go;
  if (!FindGo(cwd, &go, err)) return false;
  ProcessSpec spec;
  spec.argv = {go.go, "test", "-json", "-vet=off", "-list", pattern};
  spec.argv.insert(spec.argv.end(), kept.begin(), kept.end());
  spec.cwd = cwd;
  spec.pass_through = false;
  spec.timeout_seconds = wall_seconds;
  ProcessResult r;
  if (!RunProcess(spec, &r, err)) return false;

  std::string other;  // what is not an event: the go command's own errors
  size_t at = 0;
  while (at < r.out.size()) {
    size_t nl = r.out.find('\n', at);
    if (nl == std::string::npos) nl = r.out.size();
    std::string line = r.out.substr(at, nl - at);
    at = nl + 1;
    nlohmann::json ev = nlohmann::json::parse(line, nullptr, false);
    if (ev.is_discarded() || !ev.is_object()) {
      if (!line.empty()) other += line + "\n";
      continue;
    }
    std::string pkg = ev.value("Package", "");
    std::string action = ev.value("Action", "");
    if (pkg.empty()) {
      if (action == "build-output") other += ev.value("Output", "");
      continue;
    }
    auto it = std::find_if(out->begin(), out->end(),
                           [&](const PackageTests& p) { return p.package == pkg; });
    if (it == out->end()) {
      out->push_back(PackageTests{pkg, {}, {}, false});
      it = out->end() - 1;
    }
    if (action == "output") {
      std::string o = ev.value("Output", "");
      while (!o.empty() && (o.back() == '\n' || o.back() == '\r')) o.pop_back();
      if (IsFuncNamed(o, "Test")) {
        it->tests.push_back(o);
      } else if (IsFuncNamed(o, "Example") || IsFuncNamed(o, "Fuzz")) {
        it->others.push_back(o);
      }
    } else if (action == "pass") {
      it->listed = true;
    }
  }
  bool any = std::any_of(out->begin(), out->end(), [](const PackageTests& p) { return p.listed; });
  if (!any) {
    std::string why = other + r.err;
    if (size_t cut = why.find('\n', std::min(why.size(), size_t{600})); cut != std::string::npos) {
      why.resize(cut);
    }
    while (!why.empty() && why.back() == '\n') why.pop_back();
    *err = fmt::format("go test -list listed no package's tests ({}){}{}", r.Describe(),
                       why.empty() ? "" : ":\n", why);
    return false;
  }
  return true;
}

}  // namespace gordian::driver
