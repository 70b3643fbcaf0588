// This file implements FailureExcerpt (test_failure.h).
#include "gordian/fuzz/test_failure.h"

#include <string_view>
#include <vector>

namespace gordian::fuzz {

std::string FailureExcerpt(const std::string& output, const std::string& test,
                           size_t max_lines) {
  std::vector<std::string_view> lines;
  std::string_view rest = output;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  const std::string head = "--- FAIL: " + test + " ";
  std::string out;
  size_t taken = 0;
  auto take = [&](std::string_view l) {
    if (taken++ > 0) out += '\n';
    out += l;
  };
  for (size_t i = 0; i < lines.size(); i++) {
    if (!lines[i].starts_with(head)) continue;
    take(lines[i]);
    size_t j = i + 1;
    for (; j < lines.size() && taken < max_lines; j++) {
      std::string_view l = lines[j];
      if (l.empty() || (l[0] != ' ' && l[0] != '\t')) break;
      take(l);
    }
    if (j < lines.size() && taken < max_lines && lines[j].starts_with("panic: ")) take(lines[j]);
    break;
  }
  return out;
}

}  // namespace gordian::fuzz
