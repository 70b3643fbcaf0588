// This file owns how a finding's location is spelled in JSON: the JSON
// report (json.h) writes these fields, and the data of the HTML page
// (html.h) the same ones with more after them, so that the two never
// spell a location differently.
#pragma once

#include <nlohmann/json.hpp>

#include "gordian/report/finding.h"

namespace gordian::report {

// {"file","line","column","role","goroutine"}, in the report contract's
// order.
inline nlohmann::ordered_json LocationJson(const Location& l) {
  nlohmann::ordered_json j;
  j["file"] = l.file;
  j["line"] = l.line;
  j["column"] = l.column;
  j["role"] = RoleName(l.role);
  j["goroutine"] = l.goroutine;
  return j;
}

}  // namespace gordian::report
