// This file implements the build-error recognisers (build_errors.h).
#include "gordian/driver/build_errors.h"
#include "gordian/util/whole_number.h"

#include <fmt/format.h>

namespace gordian::driver {
namespace {

using util::ParseWholeNumber;

// "file.go:12:3: msg" or "file.go:12: msg".
bool ParsePositioned(std::string_view line, BuildError* e) {
  size_t go = line.find(".go:");
  if (go == std::string_view::npos || go == 0) return false;
  std::string_view file = line.substr(0, go + 3);
  if (file.find(' ') != std::string_view::npos && file[0] != '/' && file[0] != '.') {
    // "vet: ./x.go:..." and similar prefixes: keep the part after the last space.
    file = file.substr(file.rfind(' ') + 1);
  }
  std::string_view rest = line.substr(go + 4);
  size_t c1 = rest.find(':');
  if (c1 == std::string_view::npos || !ParseWholeNumber(rest.substr(0, c1), &e->line)) return false;
  rest.remove_prefix(c1 + 1);
  size_t c2 = rest.find(':');
  uint32_t col = 0;
  if (c2 != std::string_view::npos && ParseWholeNumber(rest.substr(0, c2), &col)) {
    e->column = col;
    rest.remove_prefix(c2 + 1);
  }
  while (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  e->file = std::string(file);
  e->message = std::string(rest);
  return true;
}

}  // namespace

std::string BuildError::String() const {
  if (file.empty()) return message;
  if (column != 0) return fmt::format("{}:{}:{}: {}", file, line, column, message);
  return fmt::format("{}:{}: {}", file, line, message);
}

std::vector<BuildError> ParseBuildErrors(std::string_view output) {
  std::vector<BuildError> out;
  while (!output.empty()) {
    size_t nl = output.find('\n');
    std::string_view line = output.substr(0, nl);
    output.remove_prefix(nl == std::string_view::npos ? output.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    BuildError e;
    if (line.starts_with("go: ") || line.starts_with("package ") ||
        line.starts_with("no required module") || line.starts_with("cannot find package")) {
      e.message = std::string(line);
      out.push_back(std::move(e));
    } else if (!line.starts_with("\t") && !line.starts_with(" ") && ParsePositioned(line, &e)) {
      out.push_back(std::move(e));
    }
  }
  return out;
}

bool TestBuildFailed(std::string_view output) {
  return output.find(" [build failed]") != std::string_view::npos ||
         output.find(" [setup failed]") != std::string_view::npos;
}

}  // namespace gordian::driver
