// This file implements ListTests (test_list.h) on go test's JSON events.
#include "gordian/driver/test_list.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>
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

std::vector<std::vector<std::string>> SplitTestPattern(const std::string& pattern) {
  // testing's splitRegexp: brackets hide '(' and ')'; an unmatched ']' is
  // legal; a backslash hides the next character.
  std::vector<std::vector<std::string>> alts;
  std::vector<std::string> levels;
  int brackets = 0, parens = 0;
  size_t from = 0;
  for (size_t i = 0; i < pattern.size(); i++) {
    char c = pattern[i];
    if (c == '[') {
      brackets++;
    } else if (c == ']') {
      if (--brackets < 0) brackets = 0;
    } else if (c == '(' && brackets == 0) {
      parens++;
    } else if (c == ')' && brackets == 0) {
      parens--;
    } else if (c == '\\') {
      i++;
    } else if ((c == '/' || c == '|') && brackets == 0 && parens == 0) {
      levels.push_back(pattern.substr(from, i - from));
      from = i + 1;
      if (c == '|') {
        alts.push_back(std::move(levels));
        levels.clear();
      }
    }
  }
  levels.push_back(pattern.substr(std::min(from, pattern.size())));
  alts.push_back(std::move(levels));
  return alts;
}

std::string TopLevelPattern(const std::string& run) {
  std::vector<std::vector<std::string>> alts = SplitTestPattern(run);
  if (alts.size() == 1) return alts[0][0];
  std::vector<std::string> firsts;
  for (const auto& a : alts) firsts.push_back("(?:" + a[0] + ")");
  return fmt::format("{}", fmt::join(firsts, "|"));
}

SkipFilter SkipFilterOf(const std::string& skip) {
  SkipFilter f;
  if (skip.empty()) return f;  // go test: no -skip
  for (const auto& a : SplitTestPattern(skip)) {
    f.first_levels.push_back(a[0]);
    f.whole.push_back(a.size() == 1);
  }
  return f;
}

namespace {

// One `go test -json -vet=off -list PATTERN ARGS`: the names it lists,
// per package, into *out (a package's `listed` when its binary listed).
// *other collects what is not an event (the go command's own errors).
bool ListOnce(const GoTool& go, const std::string& pattern, const std::vector<std::string>& kept,
              const std::string& cwd, double wall_seconds, std::vector<PackageTests>* out,
              std::string* other, ProcessResult* r, std::string* err) {
  ProcessSpec spec;
  spec.argv = {go.go, "test", "-json", "-vet=off", "-list", pattern};
  spec.argv.insert(spec.argv.end(), kept.begin(), kept.end());
  spec.cwd = cwd;
  spec.pass_through = false;
  spec.timeout_seconds = wall_seconds;
  if (!RunProcess(spec, r, err)) return false;
  size_t at = 0;
  while (at < r->out.size()) {
    size_t nl = r->out.find('\n', at);
    if (nl == std::string::npos) nl = r->out.size();
    std::string line = r->out.substr(at, nl - at);
    at = nl + 1;
    nlohmann::json ev = nlohmann::json::parse(line, nullptr, false);
    if (ev.is_discarded() || !ev.is_object()) {
      if (!line.empty()) *other += line + "\n";
      continue;
    }
    std::string pkg = ev.value("Package", "");
    std::string action = ev.value("Action", "");
    if (pkg.empty()) {
      if (action == "build-output") *other += ev.value("Output", "");
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
  return true;
}

// Leaves out of *out the names skip skips (SkipFilterOf), asking go which
// names each alternative's first level matches.
bool ApplySkip(const GoTool& go, const SkipFilter& skip, const std::string& whole_pattern,
               const std::vector<std::string>& kept, const std::string& cwd,
               double wall_seconds, std::vector<PackageTests>* out, std::string* err) {
  if (skip.first_levels.empty()) return true;
  // (package, name) -> the index of the first alternative that matches it.
  std::map<std::pair<std::string, std::string>, size_t> first;
  bool all_whole = std::all_of(skip.whole.begin(), skip.whole.end(), [](bool w) { return w; });
  // Every alternative one level: the whole pattern matches what one of
  // them does, and whichever is first, the name is skipped.
  size_t listings = all_whole ? 1 : skip.first_levels.size();
  for (size_t i = 0; i < listings; i++) {
    std::vector<PackageTests> matched;
    std::string other;
    ProcessResult r;
    const std::string& pattern = all_whole ? whole_pattern : skip.first_levels[i];
    if (!ListOnce(go, pattern.empty() ? "." : pattern, kept, cwd, wall_seconds, &matched,
                  &other, &r, err)) {
      return false;
    }
    for (const PackageTests& p : matched) {
      for (const auto* names : {&p.tests, &p.others}) {
        for (const std::string& n : *names) first.emplace(std::make_pair(p.package, n), i);
      }
    }
  }
  for (PackageTests& p : *out) {
    for (auto* names : {&p.tests, &p.others}) {
      std::erase_if(*names, [&](const std::string& n) {
        auto it = first.find({p.package, n});
        return it != first.end() && skip.whole[it->second];
      });
    }
  }
  return true;
}

}  // namespace

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
  std::string skip;  // -skip's pattern, applied after the listing
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
        std::string top = TopLevelPattern(value);
        if (!top.empty()) pattern = std::move(top);
      }
      continue;
    }
    if (name == "skip" || name == "test.skip") {
      skip = has_value ? a.substr(a.find('=') + 1) : (i + 1 < args.size() ? args[++i] : "");
      continue;
    }
    if (name == "json" || name == "v" || name == "test.v") continue;
    kept.push_back(a);
  }
  GoTool go;
  if (!FindGo(cwd, &go, err)) return false;
  std::string other;  // what is not an event: the go command's own errors
  ProcessResult r;
  if (!ListOnce(go, pattern, kept, cwd, wall_seconds, out, &other, &r, err)) return false;
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
  return ApplySkip(go, SkipFilterOf(skip), skip, kept, cwd, wall_seconds, out, err);
}

}  // namespace gordian::driver
