// This file implements the checks of a schedule's command line
// (invocation_check.h).
#include "gordian/schedule/invocation_check.h"

#include <algorithm>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

namespace gordian::schedule {
namespace {

namespace fs = std::filesystem;

bool AllOf(std::string_view v, std::string_view allowed_extra, bool digits_letters = true) {
  if (v.empty()) return false;
  return std::all_of(v.begin(), v.end(), [&](char c) {
    bool alnum = (c >= '0' && c <= '9') || (digits_letters && ((c >= 'a' && c <= 'z') ||
                                                               (c >= 'A' && c <= 'Z')));
    return alnum || allowed_extra.find(c) != std::string_view::npos;
  });
}

bool Digits(std::string_view v) { return AllOf(v, "", false); }

// A regular expression for -run/-skip: any printable text; it only selects
// tests. Control characters are refused.
bool Pattern(std::string_view v) {
  return std::none_of(v.begin(), v.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
}

bool Duration(std::string_view v) { return AllOf(v, ".µ"); }

// A flag of the list: its name (without dashes) and how its value is checked
// (nullptr: boolean, "=true"/"=false" allowed).
struct AllowedFlag {
  std::string_view name;
  bool (*value)(std::string_view);
};

bool Tags(std::string_view v) { return AllOf(v, "_.,!"); }
bool ModValue(std::string_view v) { return v == "mod" || v == "vendor" || v == "readonly"; }
bool Shuffle(std::string_view v) { return v == "on" || v == "off" || Digits(v); }
bool CpuList(std::string_view v) { return AllOf(v, ",", false); }

constexpr AllowedFlag kTestFlags[] = {
    {"run", Pattern},       {"skip", Pattern},      {"count", Digits},    {"timeout", Duration},
    {"tags", Tags},         {"parallel", Digits},   {"cpu", CpuList},     {"shuffle", Shuffle},
    {"mod", ModValue},      {"v", nullptr},         {"short", nullptr},   {"failfast", nullptr},
    {"race", nullptr},      {"trimpath", nullptr},
};
constexpr AllowedFlag kBuildFlags[] = {
    {"tags", Tags}, {"mod", ModValue}, {"race", nullptr}, {"trimpath", nullptr},
};

// Checks the flag at args[i] against a list, with its value, given as
// -name=value or as the next argument. Returns how many arguments it takes
// (1 or 2), or 0 with *bad and *why when it is refused.
size_t CheckFlagAt(const std::vector<std::string>& args, size_t i, const AllowedFlag* begin,
                   const AllowedFlag* end, size_t* bad, std::string* why) {
  std::string_view arg = args[i];
  std::string_view body = arg.substr(arg.size() > 1 && arg[1] == '-' ? 2 : 1);
  if (body.starts_with("test.")) body.remove_prefix(5);
  size_t eq = body.find('=');
  std::string_view name = body.substr(0, eq);
  *bad = i;
  const AllowedFlag* f = std::find_if(begin, end, [&](const AllowedFlag& x) { return x.name == name; });
  if (f == end) {
    *why = "not a flag a schedule may set (replays run only the recorded test or program, "
           "with flags from a short list)";
    return 0;
  }
  if (f->value == nullptr) {
    std::string_view v = eq == std::string_view::npos ? "true" : body.substr(eq + 1);
    if (v == "true" || v == "false") return 1;
    *why = "a boolean flag takes true or false";
    return 0;
  }
  if (eq != std::string_view::npos) {
    if (f->value(body.substr(eq + 1))) return 1;
    *why = fmt::format("the value of -{} is not one gordian replays", name);
    return 0;
  }
  if (i + 1 < args.size() && f->value(args[i + 1])) return 2;
  *bad = i + 1 < args.size() ? i + 1 : i;
  *why = "a missing or bad flag value";
  return 0;
}

// A package pattern: relative to the working directory and inside it
// ("." "./x/..."), or an import path; never a flag, an absolute path or "..".
bool PackagePattern(std::string_view p, std::string* why) {
  if (p.empty() || p[0] == '-' || p[0] == '/') {
    *why = "not a package inside the recorded module";
    return false;
  }
  for (size_t i = 0; i <= p.size();) {
    size_t j = p.find('/', i);
    std::string_view part = p.substr(i, j == std::string_view::npos ? p.size() - i : j - i);
    if (part == "..") {
      *why = "a package outside the recorded directory";
      return false;
    }
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  if (!AllOf(p, "._~/-+")) {
    *why = "not a package path";
    return false;
  }
  return true;
}

}  // namespace

bool CheckInvocationArgs(const std::string& mode, const std::vector<std::string>& args,
                         size_t* bad, std::string* why) {
  if (mode != "test" && mode != "run") {
    *bad = 0;
    *why = "cmd.mode must be test or run";
    return false;
  }
  const bool test = mode == "test";
  const AllowedFlag* begin = test ? std::begin(kTestFlags) : std::begin(kBuildFlags);
  const AllowedFlag* end = test ? std::end(kTestFlags) : std::end(kBuildFlags);
  bool in_flags = true;     // go's flags, until the first package
  bool packages = false;    // a package was seen
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& a = args[i];
    *bad = i;
    if (test && a == "-args") {
      // The test binary's own arguments: its flags are its data, but the
      // testing package's -test.* flags may write files, so only the list.
      for (size_t k = i + 1; k < args.size(); k++) {
        *bad = k;
        const std::string& b = args[k];
        if (b.starts_with("-test.") || b.starts_with("--test.")) {
          size_t took = CheckFlagAt(args, k, begin, end, bad, why);
          if (took == 0) return false;
          k += took - 1;
        }
      }
      return true;
    }
    if (!test && packages) {
      // More .go files of the same main package are compiled too: checked;
      // after them come the program's arguments, its own data.
      if (a.size() > 3 && a.ends_with(".go") && args[i - 1].ends_with(".go")) {
        if (!PackagePattern(a, why)) return false;
        continue;
      }
      return true;
    }
    if (in_flags && a.size() > 1 && a[0] == '-' && a != "--") {
      size_t took = CheckFlagAt(args, i, begin, end, bad, why);
      if (took == 0) return false;
      i += took - 1;
      continue;
    }
    if (!test && a == "--") {
      if (!packages) {
        // "--" with no package: "." and then the program's arguments.
        return true;
      }
      continue;
    }
    if (test && a.size() > 1 && a[0] == '-') {
      *why = "a flag after the packages";
      return false;
    }
    in_flags = false;
    if (!PackagePattern(a, why)) return false;
    packages = true;
  }
  return true;
}

bool CheckInvocationDir(const std::string& cwd, std::string* why) {
  if (cwd.empty() || cwd[0] != '/') {
    *why = fmt::format("cmd.cwd {:?} is not an absolute directory", cwd);
    return false;
  }
  std::error_code ec;
  if (!fs::is_directory(cwd, ec)) {
    *why = fmt::format("cmd.cwd {} is not a directory on this machine", cwd);
    return false;
  }
  for (const fs::directory_entry& e : fs::directory_iterator(cwd, ec)) {
    std::string name = e.path().filename().string();
    if (name == "go.mod" || (name.size() > 3 && name.ends_with(".go"))) return true;
  }
  *why = fmt::format("cmd.cwd {} holds no Go package (no .go file, no go.mod); a schedule "
                     "replays only the package it was recorded in",
                     cwd);
  return false;
}

}  // namespace gordian::schedule
