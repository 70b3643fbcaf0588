// This file implements the schedule text format (docs/schedule-format.md).
#include "gordian/schedule/schedule.h"

#include "gordian/schedule/invocation_check.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <map>
#include <string_view>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "gordian/util/read_file.h"

namespace gordian::schedule {

using trace::Kind;

namespace {

// Text values (args, the cwd, origin, expect, sites, goroutine paths): one per line, so newlines
// are escaped, and so are carriage returns (a reader drops a trailing one,
// as from CRLF files).
bool NeedsEscape(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return c == '\\' || c == '\n' || c == '\r'; });
}

std::string Escape(const std::string& s) {
  if (!NeedsEscape(s)) return s;  // nearly always: copied whole, not a character at a time
  std::string o;
  for (char c : s) {
    if (c == '\\') o += "\\\\";
    else if (c == '\n') o += "\\n";
    else if (c == '\r') o += "\\r";
    else o += c;
  }
  return o;
}

std::string Unescape(std::string_view s) {
  // Nearly every value has no escape: one copy, not a character at a time
  // (a schedule of a million operations has a site on each).
  if (s.find('\\') == std::string_view::npos) return std::string(s);
  std::string o;
  o.reserve(s.size());
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      o += s[i + 1] == 'n' ? '\n' : s[i + 1] == 'r' ? '\r' : s[i + 1];
      i++;
    } else {
      o += s[i];
    }
  }
  return o;
}

// The number ranges of the grammar (docs/schedule-format.md, "Grammar").
// Positions and select cases are int32 in the runtime, flags a byte.
constexpr uint64_t kU8 = 0xff, kI32 = 0x7fffffff, kU32 = 0xffffffff;

// A number of the grammar: ASCII digits, no sign, no leading zero, at most
// max. The runtime's gordianScheduleNum takes exactly the same texts.
bool Num(std::string_view s, uint64_t max, uint64_t* out) {
  if (s.empty() || s.size() > 10 || (s[0] == '0' && s.size() > 1)) return false;
  uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  if (n > max) return false;
  *out = n;
  return true;
}

// Splits v into n fields separated by single spaces, none empty; with
// rest, the last field is the rest of the line (it may hold spaces).
bool Fields(std::string_view v, size_t n, bool rest, std::string_view* f) {
  for (size_t i = 0; i < n; i++) {
    size_t e = i + 1 == n && rest ? std::string_view::npos : v.find(' ');
    if (i + 1 == n && e != std::string_view::npos) return false;  // a field too many
    if (i + 1 < n && e == std::string_view::npos) return false;   // a field too few
    f[i] = v.substr(0, e);
    if (f[i].empty()) return false;
    if (e != std::string_view::npos) v.remove_prefix(e + 1);
  }
  return true;
}

// A line for an error message: quoted, and cut if it is long.
std::string Quote(std::string_view line) {
  constexpr size_t kMax = 200;
  if (line.size() <= kMax) return fmt::format("{:?}", line);
  return fmt::format("{:?}... ({} bytes)", line.substr(0, kMax), line.size());
}


}  // namespace

// Appends the schedule's text to out, calling flush(out) whenever out holds
// a megabyte or more (and not at the end): a schedule of a million
// operations is 80 MB of text that need not be in memory at once.
template <typename Flush>
void FormatScheduleTo(const Schedule& s, fmt::memory_buffer& out, Flush&& flush) {
  auto put = [&](std::string_view t) { out.append(t.data(), t.data() + t.size()); };
  // A text value, copied whole where it needs no escaping (nearly always):
  // one per goroutine and per operation of a schedule of a million.
  auto put_text = [&](const std::string& t) {
    if (NeedsEscape(t)) put(Escape(t));
    else put(t);
  };
  put("gordian-schedule 1\n");
  if (!s.origin.empty()) fmt::format_to(std::back_inserter(out), "origin {}\n", Escape(s.origin));
  if (!s.expect.empty()) fmt::format_to(std::back_inserter(out), "expect {}\n", Escape(s.expect));
  if (!s.cmd.mode.empty()) fmt::format_to(std::back_inserter(out), "cmd.mode {}\n", s.cmd.mode);
  if (!s.cmd.cwd.empty()) fmt::format_to(std::back_inserter(out), "cmd.cwd {}\n", Escape(s.cmd.cwd));
  for (const auto& a : s.cmd.args) fmt::format_to(std::back_inserter(out), "cmd.arg {}\n", Escape(a));
  if (s.fatal_at >= 0) fmt::format_to(std::back_inserter(out), "fatal_at {}\n", s.fatal_at);
  if (s.cmd.gomaxprocs > 0) {
    fmt::format_to(std::back_inserter(out), "cmd.gomaxprocs {}\n", s.cmd.gomaxprocs);
  }
  if (s.cmd.race) put("cmd.race 1\n");
  constexpr size_t kFlushAt = 1 << 20;
  auto maybe_flush = [&] {
    if (out.size() >= kFlushAt) {
      flush(out);
      out.clear();
    }
  };
  put("# g PATH             (goroutine number = order of these lines)\n");
  for (const auto& g : s.goroutines) {
    put("g ");
    put_text(g);
    put("\n");
    maybe_flush();
  }
  if (!s.panics.empty() || !s.relocks.empty() || !s.test_ends.empty())
    put("# p|r|e G INDEX POS  (panic, Cond.Wait relock, test end: G began INDEX ops; at POS)\n");
  for (const Gate& p : s.panics) fmt::format_to(std::back_inserter(out), "p {} {} {}\n", p.g, p.index, p.pos);
  for (const Gate& p : s.relocks) fmt::format_to(std::back_inserter(out), "r {} {} {}\n", p.g, p.index, p.pos);
  for (const Gate& p : s.test_ends) fmt::format_to(std::back_inserter(out), "e {} {} {}\n", p.g, p.index, p.pos);
  if (!s.prefers.empty() || !s.delays.empty()) {
    put("# prefer CASE WAIT_MS SITE | delay NTH WAIT_MS SITE   (the free run)\n");
  }
  for (const Preference& p : s.prefers) {
    fmt::format_to(std::back_inserter(out), "prefer {} {} {}\n", p.choice, p.wait_ms,
                   p.site.empty() ? "?" : Escape(p.site));
  }
  for (const Delay& d : s.delays) {
    fmt::format_to(std::back_inserter(out), "delay {} {} {}\n", d.nth, d.wait_ms,
                   d.site.empty() ? "?" : Escape(d.site));
  }
  if (!s.chain.empty()) put("# chain G INDEX   (the scheduling chain the prefix orders, in order)\n");
  for (const ChainOp& c : s.chain) {
    fmt::format_to(std::back_inserter(out), "chain {} {}\n", c.g, c.index);
    maybe_flush();
  }
  if (!s.after_end.empty()) put("# after_end G NTH   (G's NTH testing call waits until its test ended)\n");
  for (const AfterEnd& a : s.after_end) {
    fmt::format_to(std::back_inserter(out), "after_end {} {}\n", a.g, a.nth);
  }
  put("# o G KIND CHOICE NAME OBJ VAL INDEX FLAGS BLOCKS SITE   (position = order)\n");
  // The numbers of an operation line by to_chars: fmt's format string,
  // parsed again for each of a million lines, was most of the writing.
  auto num = [&](int64_t v, char after) {
    char buf[24];
    char* end = std::to_chars(buf, buf + sizeof buf - 1, v).ptr;
    *end++ = after;
    out.append(buf, end);
  };
  for (const Op& op : s.ops) {
    put("o ");
    num(op.g, ' ');
    num(static_cast<int>(op.kind), ' ');
    if (op.choice == kChoiceFree) {
      put("- ");
    } else if (op.choice == kChoiceDefault) {
      put("d ");
    } else {
      num(op.choice, ' ');
    }
    put(KindName(op.kind));
    put(" ");
    num(op.obj, ' ');
    num(op.val, ' ');
    num(op.index, ' ');
    num(op.flags, ' ');
    put(op.blocks ? "1 " : "0 ");
    if (op.site.empty()) put("?");
    else put_text(op.site);
    put("\n");
    maybe_flush();
  }
}

std::string FormatSchedule(const Schedule& s) {
  std::string text;
  fmt::memory_buffer buf;
  auto flush = [&](const fmt::memory_buffer& b) { text.append(b.data(), b.size()); };
  FormatScheduleTo(s, buf, flush);
  flush(buf);
  return text;
}

namespace {

// The lines of a schedule that take more than a field or two, each
// parsed into out by a function of its own: the error message for the line
// (ParseSchedule quotes the line after it), or "" when it is good.

// A goroutine line: "g PATH". paths: the paths of the earlier g lines;
// counts: the operations listed per goroutine so far.
std::string_view ParseGoroutineLine(std::string_view rest, Schedule* out,
                                    std::unordered_set<std::string_view>* paths,
                                    std::vector<uint32_t>* counts) {
  uint64_t n = 0;
  std::string_view path;
  if (!Fields(rest, 1, false, &path)) return "expected one PATH";
  if (out->goroutines.empty() && path != "1") {
    return "the first goroutine must be \"1\" (main)";
  }
  if (path[0] >= '0' && path[0] <= '9') {
    // A spawn path: "1", or its parent's path, a dot and a child index;
    // the runtime finds a goroutine's number through its parent's.
    size_t dot = path.rfind('.');
    if (dot == std::string_view::npos) {
      if (path != "1") return "a spawn path begins with 1 (main)";
    } else if (!Num(path.substr(dot + 1), kU32, &n)) {
      return "bad child index (0 to 4294967295)";
    } else if (!paths->count(path.substr(0, dot))) {
      return "the parent's g line must come first";
    }
  }
  // Other paths ("?12", "recorder") are goroutines whose identity is
  // not stable: listed for the checks, never matched by the runtime.
  if (!paths->insert(path).second) return "a goroutine listed twice";
  // Escapes as in text values: a spawn path has none; another path
  // (opaque to the runtime) may come from any goroutine label.
  std::string label = Unescape(path);
  if (label.empty() || ((label[0] >= '0' && label[0] <= '9') && !(path[0] >= '0' && path[0] <= '9'))) {
    // "\0" would be written back as 0, a spawn path: not the same schedule.
    return "a goroutine that is no spawn path needs a label not beginning with a digit";
  }
  out->goroutines.push_back(std::move(label));
  counts->push_back(0);
  return "";
}

// A directive of the free run: "prefer CASE WAIT_MS SITE" (a select
// preference) or "delay NTH WAIT_MS SITE" (a delay point).
std::string_view ParseDirectiveLine(std::string_view key, std::string_view rest, Schedule* out) {
  std::string_view f[3];
  uint64_t a = 0, wait = 0;
  bool prefer = key == "prefer";
  if (!Fields(rest, 3, true, f)) {
    return prefer ? "expected CASE WAIT_MS SITE" : "expected NTH WAIT_MS SITE";
  }
  if (prefer && !Num(f[0], kI32, &a)) return "bad CASE (0 to 2147483647)";
  if (!prefer && (!Num(f[0], kI32, &a) || a == 0)) return "bad NTH (1 to 2147483647)";
  if (!Num(f[1], kMaxDirectiveWaitMs, &wait)) return "bad WAIT_MS (0 to 60000)";
  if ((prefer ? out->prefers.size() : out->delays.size()) >= kMaxDirectives) {
    return prefer ? "more than 64 prefer lines" : "more than 64 delay lines";
  }
  if (prefer) {
    out->prefers.push_back(
        Preference{static_cast<int32_t>(a), static_cast<uint32_t>(wait), Unescape(f[2])});
  } else {
    out->delays.push_back(
        Delay{static_cast<uint32_t>(a), static_cast<uint32_t>(wait), Unescape(f[2])});
  }
  return "";
}

// An operation: "o G KIND CHOICE NAME OBJ VAL INDEX FLAGS BLOCKS SITE".
std::string_view ParseOpLine(std::string_view rest, Schedule* out, std::vector<uint32_t>* counts) {
  std::string_view f[10];
  if (!Fields(rest, 10, true, f)) {
    return "expected G KIND CHOICE NAME OBJ VAL INDEX FLAGS BLOCKS SITE";
  }
  Op op;
  uint64_t g = 0, kind = 0, v = 0;
  if (!Num(f[0], kU32, &g) || g >= out->goroutines.size()) {
    return "bad goroutine (the number of an earlier g line)";
  }
  op.g = static_cast<uint32_t>(g);
  if (!Num(f[1], kU32, &kind) || kind >= static_cast<uint64_t>(Kind::Count_) ||
      !IsControlled(static_cast<Kind>(kind))) {
    return "bad kind (the number of a controlled kind)";
  }
  op.kind = static_cast<Kind>(kind);
  // CHOICE: only a select is forced to a case (or its default), and a
  // Once.Do to running f or not; the runtime ignores it elsewhere.
  if (f[2] == "-") op.choice = kChoiceFree;
  else if (op.kind == Kind::Select && f[2] == "d") op.choice = kChoiceDefault;
  else if (op.kind == Kind::Select && Num(f[2], kI32, &v)) op.choice = static_cast<int32_t>(v);
  else if (op.kind == Kind::OnceDo && (f[2] == "0" || f[2] == "1")) op.choice = f[2] == "1";
  else return "bad choice (-; a select: d or a case; a Once.Do: 0 or 1)";
  // f[3], NAME, is for people.
  if (!Num(f[4], kU32, &v)) return "bad OBJ (0 to 4294967295)";
  op.obj = static_cast<uint32_t>(v);
  if (!Num(f[5], kU32, &v)) return "bad VAL (0 to 4294967295)";
  op.val = static_cast<uint32_t>(v);
  if (!Num(f[6], kU32, &v)) return "bad INDEX (0 to 4294967295)";
  op.index = static_cast<uint32_t>(v);
  if (!Num(f[7], kU8, &v)) return "bad FLAGS (0 to 255)";
  op.flags = static_cast<uint8_t>(v);
  if (f[8] != "0" && f[8] != "1") return "BLOCKS must be 0 or 1";
  op.blocks = f[8] == "1";
  op.site = Unescape(f[9]);
  if (op.index != (*counts)[op.g]) return "INDEX is not the goroutine's next index";
  if (out->ops.size() >= kI32) return "more operations than positions (2147483647)";
  (*counts)[op.g]++;
  out->ops.push_back(std::move(op));
  return "";
}

}  // namespace

// The grammar is docs/schedule-format.md ("Grammar"); the runtime's
// gordianReplayInit must accept and refuse exactly the same files (the
// corpus testdata/grammar/ and schedule_grammar_test.cc hold them to it).
bool ParseSchedule(const std::string& text, Schedule* out, std::string* err) {
  *out = Schedule();
  std::string_view all(text);
  int lineno = 0;
  bool header = false;
  std::vector<uint32_t> counts;
  std::unordered_set<std::string_view> paths;  // views into text
  std::vector<int> arg_lines;  // line of each cmd.arg, for the invocation check
  int mode_line = 0;
  std::unordered_set<std::string_view> once;  // keys that may appear once
  while (!all.empty()) {
    lineno++;
    size_t nl = all.find('\n');
    std::string_view line = all.substr(0, nl);
    all.remove_prefix(nl == std::string_view::npos ? all.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    auto bad = [&](std::string_view what) {
      *err = fmt::format("schedule line {}: {}: {}", lineno, what, Quote(line));
      return false;
    };
    // A NUL is no text: the runtime reads the file with raw reads and
    // would cut a path or site there.
    if (line.find('\0') != std::string_view::npos) return bad("a NUL byte");
    if (line.empty() || line[0] == '#') continue;
    size_t sp = line.find(' ');
    std::string_view key = line.substr(0, sp);
    std::string_view rest = sp == std::string_view::npos ? "" : line.substr(sp + 1);
    if (!header) {
      if (line != "gordian-schedule 1") {
        *err = fmt::format("schedule line {}: not a gordian schedule (the first line must be "
                           "\"gordian-schedule 1\")", lineno);
        return false;
      }
      header = true;
      continue;
    }
    uint64_t n = 0;
    if (key == "origin" || key == "expect" || key == "cmd.mode" || key == "cmd.cwd" ||
        key == "fatal_at" || key == "cmd.gomaxprocs" || key == "cmd.race") {
      if (!once.insert(key).second) return bad("a second line with this key");
    }
    if (key == "origin") out->origin = Unescape(rest);
    else if (key == "expect") out->expect = Unescape(rest);
    else if (key == "cmd.mode") {
      if (rest != "test" && rest != "run") return bad("cmd.mode must be test or run");
      out->cmd.mode = rest;
      mode_line = lineno;
    }
    else if (key == "cmd.cwd") out->cmd.cwd = Unescape(rest);
    else if (key == "cmd.arg") {
      out->cmd.args.push_back(Unescape(rest));
      arg_lines.push_back(lineno);
    }
    else if (key == "fatal_at") {
      if (!Num(rest, kI32, &n)) return bad("bad number (0 to 2147483647)");
      out->fatal_at = static_cast<int64_t>(n);
    } else if (key == "cmd.gomaxprocs") {
      // Go's own largest GOMAXPROCS (runtime._MaxGomaxprocs).
      if (!Num(rest, 1024, &n)) return bad("bad GOMAXPROCS (0 to 1024)");
      out->cmd.gomaxprocs = static_cast<int>(n);
    } else if (key == "cmd.race") {
      // A yes/no that gordian turns into -race itself: never a flag text.
      if (rest != "0" && rest != "1") return bad("cmd.race must be 0 or 1");
      out->cmd.race = rest == "1";
    } else if (key == "g") {
      if (std::string_view why = ParseGoroutineLine(rest, out, &paths, &counts); !why.empty()) {
        return bad(why);
      }
    } else if (key == "p" || key == "r" || key == "e") {
      std::string_view f[3];
      uint64_t g = 0, index = 0, pos = 0;
      if (!Fields(rest, 3, false, f)) return bad("expected G INDEX POS");
      if (!Num(f[0], kU32, &g) || g >= out->goroutines.size()) {
        return bad("bad goroutine (the number of an earlier g line)");
      }
      if (!Num(f[1], kU32, &index)) return bad("bad INDEX (0 to 4294967295)");
      if (!Num(f[2], kI32, &pos)) return bad("bad POS (0 to 2147483647)");
      Gate p{static_cast<uint32_t>(g), static_cast<uint32_t>(index), static_cast<uint32_t>(pos)};
      (key == "p" ? out->panics : key == "r" ? out->relocks : out->test_ends).push_back(p);
    } else if (key == "chain") {
      // An operation of the scheduling chain (fuzzing); nothing to enforce.
      std::string_view f[2];
      uint64_t g = 0, index = 0;
      if (!Fields(rest, 2, false, f)) return bad("expected G INDEX");
      if (!Num(f[0], kU32, &g) || g >= out->goroutines.size()) {
        return bad("bad goroutine (the number of an earlier g line)");
      }
      if (!Num(f[1], kU32, &index)) return bad("bad INDEX (0 to 4294967295)");
      if (out->chain.size() >= kMaxDirectives) return bad("more than 64 chain lines");
      out->chain.push_back(ChainOp{static_cast<uint32_t>(g), static_cast<uint32_t>(index)});
    } else if (key == "after_end") {
      // A testing call held until its test has ended.
      std::string_view f[2];
      uint64_t g = 0, nth = 0;
      if (!Fields(rest, 2, false, f)) return bad("expected G NTH");
      if (!Num(f[0], kU32, &g) || g >= out->goroutines.size()) {
        return bad("bad goroutine (the number of an earlier g line)");
      }
      if (!Num(f[1], kU32, &nth) || nth == 0) return bad("bad NTH (1 to 4294967295)");
      if (out->after_end.size() >= kMaxDirectives) return bad("more than 64 after_end lines");
      out->after_end.push_back(AfterEnd{static_cast<uint32_t>(g), static_cast<uint32_t>(nth)});
    } else if (key == "prefer" || key == "delay") {
      if (std::string_view why = ParseDirectiveLine(key, rest, out); !why.empty()) return bad(why);
    } else if (key == "o") {
      if (std::string_view why = ParseOpLine(rest, out, &counts); !why.empty()) return bad(why);
    } else {
      // A schedule is data that people share: a line this reader does not
      // know is refused, not skipped (the format has a version for change).
      return bad("unknown line");
    }
  }
  if (!header) {
    *err = "not a gordian schedule (no \"gordian-schedule 1\" line)";
    return false;
  }
  if (!arg_lines.empty() && mode_line == 0) {
    *err = fmt::format("schedule line {}: cmd.arg without a cmd.mode line", arg_lines[0]);
    return false;
  }
  // Beyond the grammar: which command lines gordian runs (the runtime never
  // starts a program, so it does not apply this).
  if (mode_line != 0) {
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
  return true;
}

bool WriteSchedule(const std::string& path, const Schedule& s, std::string* err) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  fmt::memory_buffer buf;
  auto flush = [&](const fmt::memory_buffer& b) {
    f.write(b.data(), static_cast<std::streamsize>(b.size()));
  };
  FormatScheduleTo(s, buf, flush);
  flush(buf);
  f.close();
  if (!f) {
    *err = fmt::format("cannot write {}", path);
    return false;
  }
  return true;
}

bool ReadSchedule(const std::string& path, Schedule* out, std::string* err) {
  std::string text;
  if (!util::ReadWholeFile(path, &text)) {
    *err = fmt::format("cannot read {}", path);
    return false;
  }
  if (!ParseSchedule(text, out, err)) {
    *err = path + ": " + *err;
    return false;
  }
  return true;
}

}  // namespace gordian::schedule
