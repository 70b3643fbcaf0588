// This file implements `gordian version` (and `gordian --version`): the
// version (util/version.h), the commit and build type (build_info.h), the Go
// releases the runtime hooks support (instrument/go_release.h), and where
// this binary finds the files it needs at run time.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gordian/cli/build_info.h"
#include "gordian/cli/command.h"
#include "gordian/driver/work_dir.h"
#include "gordian/instrument/go_release.h"
#include "gordian/irgen/generator.h"
#include "gordian/util/flags.h"
#include "gordian/util/version.h"

namespace gordian::cli {

int RunVersion(const std::vector<std::string>& args) {
  const std::string cmd = "gordian version";
  util::FlagSet flags(cmd);
  std::vector<std::string> pos;
  const char* usage =
      "usage: gordian version\n\n"
      "Prints gordian's version, the commit and build type of this binary,\n"
      "the Go releases it records, replays and confirms with, and where it\n"
      "finds its runtime hooks and the IR generator's sources (installed:\n"
      "share/gordian beside its bin/ directory). The first line is\n"
      "'gordian VERSION'; the JSON and SARIF reports carry the same version.\n";
  if (auto done = ParseCommandLine(&flags, args, &pos, usage)) return *done;
  if (!pos.empty()) {
    return UsageError(fmt::format("{}: unexpected argument {:?}", cmd, pos[0]));
  }
  std::string releases;
  for (const instrument::GoRelease& r : instrument::SupportedGoReleases()) {
    releases += fmt::format("{}1.{}", releases.empty() ? "" : ", ", r.minor);
  }
  // Where the run-time files are found, or why not (no failure: this
  // command answers even from a broken installation).
  auto where = [](bool (*find)(std::string*, std::string*)) {
    std::string dir, err;
    return find(&dir, &err) ? dir : "not found: " + err;
  };
  fmt::print("gordian {}\n", util::Version());
  fmt::print("commit:       {}\n", BuildCommit());
  fmt::print("build type:   {}\n", BuildType());
  fmt::print("go releases:  {} (linux/amd64)\n", releases);
  fmt::print("runtime:      {}\n", where(driver::FindHooksDir));
  fmt::print("irgen:        {}\n", where(ir::FindIrgenDir));
  return kExitOK;
}

}  // namespace gordian::cli
