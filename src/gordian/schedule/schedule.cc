// This file implements the schedule text format (docs/schedule-format.md).
#include "gordian/schedule/schedule.h"

#include "gordian/schedule/invocation_check.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

namespace gordian::schedule {

using trace::Kind;

namespace {

std::string Escape(const std::string& s) {  // args: one per line, newlines escaped
  std::string o;
  for (char c : s) {
    if (c == '\\') o += "\\\\";
    else if (c == '\n') o += "\\n";
    else o += c;
  }
  return o;
}

std::string Unescape(const std::string& s) {
  std::string o;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      o += s[i + 1] == 'n' ? '\n' : s[i + 1];
      i++;
    } else {
      o += s[i];
    }
  }
  return o;
}

template <typename T>
bool Num(std::string_view s, T* out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::string FormatSchedule(const Schedule& s) {
  std::string out = "gordian-schedule 1\n";
  if (!s.origin.empty()) out += fmt::format("origin {}\n", s.origin);
  if (!s.expect.empty()) out += fmt::format("expect {}\n", s.expect);
  if (!s.cmd.mode.empty()) out += fmt::format("cmd.mode {}\n", s.cmd.mode);
  if (!s.cmd.cwd.empty()) out += fmt::format("cmd.cwd {}\n", Escape(s.cmd.cwd));
  for (const auto& a : s.cmd.args) out += fmt::format("cmd.arg {}\n", Escape(a));
  if (s.fatal_at >= 0) out += fmt::format("fatal_at {}\n", s.fatal_at);
  if (s.cmd.gomaxprocs > 0) out += fmt::format("cmd.gomaxprocs {}\n", s.cmd.gomaxprocs);
  if (s.cmd.race) out += "cmd.race 1\n";
  out += "# g PATH             (goroutine number = order of these lines)\n";
  for (const auto& g : s.goroutines) out += fmt::format("g {}\n", g);
  if (!s.panics.empty() || !s.relocks.empty() || !s.test_ends.empty())
    out += "# p|r|e G INDEX POS  (panic, Cond.Wait relock, test end: G began INDEX ops; at POS)\n";
  for (const Gate& p : s.panics) out += fmt::format("p {} {} {}\n", p.g, p.index, p.pos);
  for (const Gate& p : s.relocks) out += fmt::format("r {} {} {}\n", p.g, p.index, p.pos);
  for (const Gate& p : s.test_ends) out += fmt::format("e {} {} {}\n", p.g, p.index, p.pos);
  out += "# o G KIND CHOICE NAME OBJ VAL INDEX FLAGS BLOCKS SITE   (position = order)\n";
  out.reserve(out.size() + s.ops.size() * 64);
  for (const Op& op : s.ops) {
    std::string ch = op.choice == kChoiceFree ? "-"
                     : op.choice == kChoiceDefault ? "d" : std::to_string(op.choice);
    out += fmt::format("o {} {} {} {} {} {} {} {} {} {}\n", op.g, static_cast<int>(op.kind), ch,
                       KindName(op.kind), op.obj, op.val, op.index, op.flags,
                       op.blocks ? 1 : 0, op.site.empty() ? "?" : op.site);
  }
  return out;
}

bool ParseSchedule(const std::string& text, Schedule* out, std::string* err) {
  *out = Schedule();
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  bool header = false;
  std::vector<uint32_t> counts;
  std::vector<int> arg_lines;  // line of each cmd.arg, for the invocation check
  int mode_line = 0;
  while (std::getline(in, line)) {
    lineno++;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    size_t sp = line.find(' ');
    std::string key = line.substr(0, sp);
    std::string rest = sp == std::string::npos ? "" : line.substr(sp + 1);
    auto bad = [&](const char* what) {
      *err = fmt::format("schedule line {}: {}: {:?}", lineno, what, line);
      return false;
    };
    if (!header) {
      if (line != "gordian-schedule 1") {
        *err = "not a gordian schedule (the first line must be \"gordian-schedule 1\")";
        return false;
      }
      header = true;
      continue;
    }
    if (key == "origin") out->origin = rest;
    else if (key == "expect") out->expect = rest;
    else if (key == "cmd.mode") {
      out->cmd.mode = rest;
      mode_line = lineno;
    }
    else if (key == "cmd.cwd") out->cmd.cwd = Unescape(rest);
    else if (key == "cmd.arg") {
      out->cmd.args.push_back(Unescape(rest));
      arg_lines.push_back(lineno);
    }
    else if (key == "fatal_at") {
      if (!Num(rest, &out->fatal_at)) return bad("bad number");
    } else if (key == "cmd.gomaxprocs") {
      if (!Num(rest, &out->cmd.gomaxprocs)) return bad("bad number");
    } else if (key == "cmd.race") {
      // A yes/no that gordian turns into -race itself: never a flag text.
      if (rest != "0" && rest != "1") return bad("cmd.race must be 0 or 1");
      out->cmd.race = rest == "1";
    } else if (key == "g") {
      if (rest.empty()) return bad("missing path");
      out->goroutines.push_back(rest);
      counts.push_back(0);
    } else if (key == "p" || key == "r" || key == "e") {
      Gate p;
      std::istringstream f(rest);
      std::string a, b, c, extra;
      if (!(f >> a >> b >> c) || (f >> extra)) return bad("expected G INDEX POS");
      if (!Num(a, &p.g) || p.g >= out->goroutines.size()) return bad("bad goroutine");
      if (!Num(b, &p.index) || !Num(c, &p.pos)) return bad("bad number");
      (key == "p" ? out->panics : key == "r" ? out->relocks : out->test_ends).push_back(p);
    } else if (key == "o") {
      std::vector<std::string_view> f;
      std::string_view r(rest);
      for (int i = 0; i < 9; i++) {
        size_t e = r.find(' ');
        if (e == std::string_view::npos) return bad("too few fields");
        f.push_back(r.substr(0, e));
        r.remove_prefix(e + 1);
      }
      Op op;
      int kind = 0;
      unsigned flags = 0;
      int blocks = 0;
      if (!Num(f[0], &op.g) || op.g >= out->goroutines.size()) return bad("bad goroutine");
      if (!Num(f[1], &kind) || kind <= 0 || kind >= static_cast<int>(Kind::Count_))
        return bad("bad kind");
      op.kind = static_cast<Kind>(kind);
      if (f[2] == "-") op.choice = kChoiceFree;
      else if (f[2] == "d") op.choice = kChoiceDefault;
      else if (!Num(f[2], &op.choice)) return bad("bad choice");
      if (!Num(f[4], &op.obj) || !Num(f[5], &op.val) || !Num(f[6], &op.index) ||
          !Num(f[7], &flags) || !Num(f[8], &blocks))
        return bad("bad number");
      op.flags = static_cast<uint8_t>(flags);
      op.blocks = blocks != 0;
      op.site = std::string(r);
      if (op.index != counts[op.g]) return bad("INDEX is not the goroutine's next index");
      counts[op.g]++;
      out->ops.push_back(std::move(op));
    } else {
      // A schedule is data that people share: a line this reader does not
      // know is refused, not skipped (the format has a version for change).
      return bad("unknown line");
    }
  }
  if (!header) {
    *err = "empty schedule";
    return false;
  }
  if (mode_line != 0 || !out->cmd.args.empty()) {
    size_t bad_arg = 0;
    std::string why;
    if (!CheckInvocationArgs(out->cmd.mode, out->cmd.args, &bad_arg, &why)) {
      int at = out->cmd.args.empty() || bad_arg >= arg_lines.size() ? mode_line
                                                                      : arg_lines[bad_arg];
      *err = fmt::format("schedule line {}: {}{}", at, why,
                         bad_arg < out->cmd.args.size()
                             ? fmt::format(": {:?}", out->cmd.args[bad_arg])
                             : "");
      return false;
    }
  }
  if (!out->goroutines.empty() && out->goroutines[0] != "1") {
    *err = "schedule: the first goroutine must be \"1\" (main)";
    return false;
  }
  return true;
}

bool WriteSchedule(const std::string& path, const Schedule& s, std::string* err) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  std::string text = FormatSchedule(s);
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  f.close();
  if (!f) {
    *err = fmt::format("cannot write {}", path);
    return false;
  }
  return true;
}

bool ReadSchedule(const std::string& path, Schedule* out, std::string* err) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    *err = fmt::format("cannot read {}", path);
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  if (!ParseSchedule(ss.str(), out, err)) {
    *err = path + ": " + *err;
    return false;
  }
  return true;
}

}  // namespace gordian::schedule
