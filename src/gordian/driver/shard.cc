// This file implements -shard I/N (shard.h).
#include "gordian/driver/shard.h"
#include "gordian/util/fnv.h"
#include "gordian/util/whole_number.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gordian::driver {
namespace {

using util::ParseWholeNumber;

std::string_view FlagName(std::string_view a) {
  if (a.size() < 2 || a[0] != '-') return {};
  a.remove_prefix(a[1] == '-' ? 2 : 1);
  return a.substr(0, a.find('='));
}

}  // namespace

bool ParseShard(const std::string& text, Shard* out, std::string* err) {
  size_t slash = text.find('/');
  Shard s;
  std::string_view t = text;
  if (slash == std::string::npos || !ParseWholeNumber(t.substr(0, slash), &s.index) ||
      !ParseWholeNumber(t.substr(slash + 1), &s.count)) {
    *err = fmt::format("-shard {:?}: want I/N, the shard index I of N shards (0 <= I < N), "
                       "e.g. -shard 0/4",
                       text);
    return false;
  }
  if (s.count == 0 || s.index >= s.count) {
    *err = fmt::format("-shard {:?}: the index must be from 0 to N-1 and N at least 1 "
                       "(shards 0/{} to {}/{})",
                       text, s.count == 0 ? 1 : s.count, s.count == 0 ? 0 : s.count - 1,
                       s.count == 0 ? 1 : s.count);
    return false;
  }
  *out = s;
  return true;
}

uint32_t ShardOfTest(const std::string& name, uint32_t count) {
  // FNV-1a, 64 bits: defined byte by byte, so every build and machine agrees.
  return static_cast<uint32_t>(util::Fnv1a64(name) % count);
}

std::vector<std::string> TestsOfShard(const std::vector<PackageTests>& listed, Shard s) {
  std::vector<std::string> names;
  for (const PackageTests& p : listed) {
    for (const auto* list : {&p.tests, &p.others}) {
      for (const std::string& t : *list) {
        if (ShardOfTest(t, s.count) == s.index) names.push_back(t);
      }
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<std::string> WithOnlyTests(const std::vector<std::string>& args,
                                       const std::vector<std::string>& names) {
  std::vector<std::string> out;
  std::string sub;  // the user's -run after its top-level part: "/pattern"
  bool binary_args = false;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& a = args[i];
    std::string_view name = binary_args ? std::string_view() : FlagName(a);
    if (name == "args") binary_args = true;
    if (name == "run" || name == "test.run") {
      bool has_value = a.find('=') != std::string::npos;
      std::string value = has_value ? a.substr(a.find('=') + 1)
                                    : (i + 1 < args.size() ? args[++i] : "");
      // One alternative: its levels after the first stay. With several
      // (each its own levels), the shard runs its tests whole.
      std::vector<std::vector<std::string>> alts = SplitTestPattern(value);
      sub = alts.size() == 1 ? value.substr(alts[0][0].size()) : "";
      continue;
    }
    out.push_back(a);
  }
  // Test names are Go identifiers: no character of theirs needs escaping.
  // "^$" matches no test (none has an empty name).
  std::string pattern = "^$";
  if (!names.empty()) pattern = fmt::format("^({})$", fmt::join(names, "|"));
  // -C must stay the first flag.
  size_t at = 0;
  if (!out.empty() && (out[0] == "-C" || out[0] == "--C")) {
    at = std::min<size_t>(2, out.size());
  } else if (!out.empty() && (out[0].starts_with("-C=") || out[0].starts_with("--C="))) {
    at = 1;
  }
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), "-run=" + pattern + sub);
  return out;
}

bool ShardArgs(const std::vector<std::string>& args, const std::string& cwd,
               double wall_seconds, Shard s, std::vector<std::string>* out, size_t* selected,
               size_t* total, std::string* err) {
  std::vector<PackageTests> listed;
  if (!ListTests(args, cwd, wall_seconds, &listed, err)) {
    *err = fmt::format("-shard: cannot list the tests to split: {}", *err);
    return false;
  }
  std::vector<std::string> all;
  for (const PackageTests& p : listed) {
    all.insert(all.end(), p.tests.begin(), p.tests.end());
    all.insert(all.end(), p.others.begin(), p.others.end());
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::vector<std::string> names = TestsOfShard(listed, s);
  *selected = names.size();
  *total = all.size();
  *out = WithOnlyTests(args, names);
  // Linux refuses one argument of 128 KiB or more (MAX_ARG_STRLEN): say so
  // rather than let go test fail to start with E2BIG.
  for (const std::string& a : *out) {
    if (a.starts_with("-run=") && a.size() >= 128 * 1024) {
      *err = fmt::format("-shard {}/{}: its {} test names make a -run pattern of {} bytes, more "
                         "than one argument can hold; use more shards",
                         s.index, s.count, names.size(), a.size());
      return false;
    }
  }
  return true;
}

}  // namespace gordian::driver
