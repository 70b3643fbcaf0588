// This file implements command-line flag parsing for the gordian subcommands.
//
// Flags follow Go's conventions, since our users are Go developers: -name or
// --name, values as -name=value or -name value, booleans as -name or
// -name=false. Parsing stops at the first non-flag argument or at "--".
// A hand-written parser (rather than CLI11) because `gordian test` must pass
// unknown flags through to `go test` verbatim, which CLI11 cannot do cleanly.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gordian::util {

class FlagSet {
 public:
  explicit FlagSet(std::string command) : command_(std::move(command)) {}

  void Bool(std::string name, bool* target, std::string help);
  void String(std::string name, std::string* target, std::string metavar,
              std::string help);
  void Int(std::string name, long* target, std::string metavar, std::string help);
  // Flags with this prefix-free name are accepted and appended, with their
  // value if any, to *passthrough (for go test flags).
  void PassThroughUnknown(std::vector<std::string>* passthrough) {
    passthrough_ = passthrough;
  }

  // Flags may also follow positional arguments (`gordian analyze DIR
  // --json f`, as go test allows flags after its packages); "--" still ends
  // the flags. Without it, parsing stops at the first positional argument.
  void Interspersed() { interspersed_ = true; }

  // Parses args; on success the remaining positional arguments are in
  // *positional. Returns false and sets *err to a one-line message on error.
  // Sets *help when -h/-help/--help was given.
  bool Parse(const std::vector<std::string>& args, std::vector<std::string>* positional,
             bool* help, std::string* err);

  // The flag table, one line per flag, for --help output.
  std::string Usage() const;

 private:
  struct Flag {
    std::string name;
    std::string metavar;  // empty for booleans
    std::string help;
    std::function<bool(std::string_view, std::string*)> set;
    bool is_bool;
  };
  const Flag* Find(std::string_view name) const;

  std::string command_;
  bool interspersed_ = false;
  std::vector<Flag> flags_;
  std::vector<std::string>* passthrough_ = nullptr;
};

}  // namespace gordian::util
