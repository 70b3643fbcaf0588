// This file implements the GORACE log files (gorace.h).
#include "gordian/race/gorace.h"

#include "gordian/util/read_file.h"

namespace gordian::race {

std::string GoraceWithLogPath(std::string_view user, const std::string& trace_dir) {
  // GORACE is a space-separated list of name=value options; the runtime
  // splits on spaces and has no quoting, so a directory with a space cannot
  // be named. Such a trace directory gets no race log (the reports then stay
  // in the test output, as without gordian).
  std::string out(user);
  if (trace_dir.find_first_of(" \t\n") != std::string::npos) return out;
  if (!out.empty() && out.back() != ' ') out += ' ';
  return out + "log_path=" + trace_dir + "/race";
}

std::string ReadRaceLog(const std::string& trace_dir, const std::string& pid) {
  if (pid.empty()) return "";
  std::string log;
  util::ReadWholeFile(trace_dir + "/race." + pid, &log);
  return log;
}

}  // namespace gordian::race
