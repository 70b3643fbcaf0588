// RerunWithoutRecording (plain_rerun.h): go test's JSON events of one plain
// run of the tests that failed under recording.
#include "gordian/driver/plain_rerun.h"

#include <nlohmann/json.hpp>

#include "gordian/driver/go_env.h"
#include "gordian/driver/process.h"
#include "gordian/driver/shard.h"

namespace gordian::driver {

bool RerunWithoutRecording(const std::vector<std::string>& args, const std::string& cwd,
                           const std::vector<std::string>& names, double wall_seconds,
                           std::vector<PlainTestResult>* out, std::string* err) {
  out->clear();
  std::vector<std::string> run = WithOnlyTests(args, names);
  // go wants -C before any other flag.
  size_t at = 0;
  if (!run.empty() && (run[0] == "-C" || run[0] == "--C") && run.size() > 1) {
    at = 2;
  } else if (!run.empty() && (run[0].starts_with("-C=") || run[0].starts_with("--C="))) {
    at = 1;
  }
  run.insert(run.begin() + static_cast<std::ptrdiff_t>(at), {"-json", "-count=1"});
  GoTool go;
  if (!FindGo(cwd, &go, err)) return false;
  ProcessSpec spec;
  spec.argv = {go.go, "test"};
  spec.argv.insert(spec.argv.end(), run.begin(), run.end());
  spec.cwd = cwd;
  spec.pass_through = false;
  spec.timeout_seconds = wall_seconds;
  ProcessResult r;
  if (!RunProcess(spec, &r, err)) return false;
  size_t pos = 0;
  while (pos < r.out.size()) {
    size_t nl = r.out.find('\n', pos);
    if (nl == std::string::npos) nl = r.out.size();
    nlohmann::json ev = nlohmann::json::parse(r.out.substr(pos, nl - pos), nullptr, false);
    pos = nl + 1;
    if (ev.is_discarded() || !ev.is_object()) continue;
    std::string test = ev.value("Test", "");
    std::string action = ev.value("Action", "");
    if (test.empty() || test.find('/') != std::string::npos) continue;
    if (action != "pass" && action != "fail") continue;
    out->push_back(PlainTestResult{ev.value("Package", ""), test, action == "pass"});
  }
  if (out->empty()) {
    *err = r.timed_out ? "the plain run was stopped at its time limit"
                       : "the plain run reported no test (" + r.Describe() + ")";
    return false;
  }
  return true;
}

}  // namespace gordian::driver
