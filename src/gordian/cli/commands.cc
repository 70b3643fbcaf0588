// This file holds the table of gordian subcommands (made from commands.def).
#include "gordian/cli/command.h"

namespace gordian::cli {

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
#define GORDIAN_COMMAND(name, run, summary) {name, summary, run},
#include "gordian/cli/commands.def"
#undef GORDIAN_COMMAND
  };
  return commands;
}

}  // namespace gordian::cli
