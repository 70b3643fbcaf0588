// What the end-to-end tests of gordian verify share: running it in a
// directory with the IR cache of the e2e tests, so that the generator's
// output for the corpus is built once per build tree.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "../e2e_env.h"
#include "gordian/driver/process.h"

namespace gordian::e2e {

// Runs `gordian verify ARGS...` in dir (at most 600 s) with the shared IR
// cache (GORDIAN_BINARY_DIR/ir-e2e-cache; scratch/cache when not run by
// ctest). False when it could not run (err says why).
inline bool RunVerify(const std::vector<std::string>& args, const std::filesystem::path& dir,
                      const std::filesystem::path& scratch, driver::ProcessResult* r, std::string* err) {
  std::string bin = Env("GORDIAN_BINARY_DIR");
  std::filesystem::path cache = bin.empty() ? scratch / "cache" : std::filesystem::path(bin) / "ir-e2e-cache";
  std::filesystem::create_directories(cache);
  driver::ProcessSpec spec;
  spec.argv = {Gordian(), "verify"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = dir.string();
  spec.set_env["GORDIAN_CACHE"] = cache.string();
  spec.pass_through = false;
  spec.timeout_seconds = 600;
  return driver::RunProcess(spec, r, err);
}

}  // namespace gordian::e2e
