// This file implements the terminal report (terminal.h).
#include "gordian/report/terminal.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "gordian/report/paths.h"
#include "gordian/report/source_lines.h"

namespace gordian::report {
namespace {

constexpr size_t kMaxLocationsShown = 6;

struct Style {
  bool on;
  std::string Paint(std::string_view code, std::string_view s) const {
    return on ? fmt::format("\x1b[{}m{}\x1b[0m", code, s) : std::string(s);
  }
  std::string Bold(std::string_view s) const { return Paint("1", s); }
  std::string Dim(std::string_view s) const { return Paint("2", s); }
  std::string Sev(Severity sev, std::string_view s) const {
    switch (sev) {
      case Severity::Bug: return Paint("1;31", s);
      case Severity::Warning: return Paint("1;33", s);
      case Severity::Info: return Paint("1;36", s);
    }
    return std::string(s);
  }
};

// Text from a trace or a source file can hold anything, escape sequences
// included (a crafted sites.txt, a raw string literal): C0 and C1 control
// characters and DEL are shown as \xNN (C1 as \u00NN), never sent to the
// terminal as is; so is every byte that is not part of valid UTF-8 (a lone
// 0x9b is CSI on a terminal with 8-bit controls). Tabs are left to
// ExpandTabs.
std::string EscapeControls(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); i++) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        out += fmt::format("\\x{:02x}", c);
      } else {
        out += static_cast<char>(c);
      }
      continue;
    }
    // A UTF-8 sequence: lead byte, then 1-3 continuation bytes (overlong
    // forms and surrogates are not told apart; they are no control).
    size_t n = c >= 0xc2 && c <= 0xdf   ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
    bool valid = n > 0 && i + n <= s.size();
    for (size_t k = 1; valid && k < n; k++) {
      valid = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    }
    if (!valid) {
      out += fmt::format("\\x{:02x}", c);
    } else if (c == 0xc2 && static_cast<unsigned char>(s[i + 1]) <= 0x9f) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(s[i + 1]));  // C1 control
      i++;
    } else {
      out.append(s.substr(i, n));
      i += n - 1;
    }
  }
  return out;
}

void Escape(Location* l) {
  l->file = EscapeControls(l->file);
  l->function = EscapeControls(l->function);
  l->goroutine = EscapeControls(l->goroutine);
}

// A copy of f whose every text field is safe to print.
Finding Escaped(const Finding& f) {
  Finding e = f;
  e.test = EscapeControls(f.test);
  e.message = EscapeControls(f.message);
  e.reproduce = EscapeControls(f.reproduce);
  e.note = EscapeControls(f.note);
  e.found_under = EscapeControls(f.found_under);
  for (Location& l : e.locations) Escape(&l);
  for (Step& st : e.interleaving) {
    Escape(&st.loc);
    st.what = EscapeControls(st.what);
  }
  for (GoroutineInfo& g : e.goroutines) {
    g.id = EscapeControls(g.id);
    g.spawn_file = EscapeControls(g.spawn_file);
    g.function = EscapeControls(g.function);
  }
  for (std::string& t : e.other_tests) t = EscapeControls(t);
  return e;
}

std::string ExpandTabs(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\t') {
      out += "    ";
    } else {
      out += c;
    }
  }
  return out;
}

std::string Pos(const std::string& file, uint32_t line, uint32_t column) {
  if (file.empty()) return "<unknown position>";
  if (column > 0) return fmt::format("{}:{}:{}", file, line, column);
  return fmt::format("{}:{}", file, line);
}

void Excerpt(const Location& l, int context, const Style& st, SourceCache* cache,
             const std::string& source_root, std::string* out) {
  SourceExcerpt ex = ExcerptOf(l, context, cache, source_root);
  if (ex.lines.empty()) {
    if (!ex.note.empty()) {
      *out += fmt::format("      {}\n", st.Dim(fmt::format("({})", EscapeControls(ex.note))));
    }
    return;
  }
  uint32_t to = ex.first_line + static_cast<uint32_t>(ex.lines.size()) - 1;
  int width = static_cast<int>(fmt::format("{}", to).size());
  for (uint32_t n = ex.first_line; n <= to; n++) {
    std::string text = ExpandTabs(EscapeControls(ex.lines[n - ex.first_line]));
    if (n == l.line) {
      *out += fmt::format("    {} {:>{}} | {}\n", st.Bold(">"), n, width, st.Bold(text));
    } else {
      *out += fmt::format("      {:>{}} | {}\n", n, width, st.Dim(text));
    }
  }
}

std::string Headline(const Finding& f, const Style& st) {
  std::string h = fmt::format("{}: {} ({})", st.Sev(f.severity, SeverityName(f.severity)),
                              st.Bold(KindTitle(f.kind)), StatusName(f.status));
  if (f.kind == FindingKind::GoroutineLeak && f.primitive != Primitive::None) {
    h += fmt::format(" [{}]", PrimitiveName(f.primitive));
  }
  if (!f.test.empty()) h += fmt::format(" in {}", f.test);
  return h;
}

}  // namespace

bool StdoutWantsColor() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return isatty(STDOUT_FILENO) != 0;
}

static std::string RenderFindingWith(const Finding& raw, const TerminalOptions& opt,
                                     SourceCache* cache) {
  const Finding f = Escaped(raw);
  Style st{opt.color};
  std::string out = Headline(f, st) + "\n";
  out += fmt::format("  {}\n", f.message);
  if (!f.note.empty()) out += fmt::format("  {}\n", st.Dim("predicted, not confirmed: " + f.note));
  if (!f.found_under.empty()) {
    out += fmt::format("  {}\n", st.Dim("found by gordian fuzz under the schedule: " + f.found_under +
                                         " (a run without it may never show it)"));
  }
  for (const std::string& a : f.also) {
    FindingKind k;
    if (ParseKind(a, &k)) out += fmt::format("  also: {}\n", KindTitle(k));
  }

  size_t shown = std::min(f.locations.size(), kMaxLocationsShown);
  for (size_t i = 0; i < shown; i++) {
    const Location& l = f.locations[i];
    out += "\n";
    out += fmt::format("  {}: {} (goroutine {}){}\n", st.Bold(Pos(l.file, l.line, l.column)),
                       RoleName(l.role), l.goroutine.empty() ? "?" : l.goroutine,
                       l.function.empty() ? "" : fmt::format(" in {}", l.function));
    Excerpt(raw.locations[i], i == 0 ? opt.context_lines : 0, st, cache, opt.source_root, &out);
  }
  if (f.locations.size() > shown) {
    out += fmt::format("  ... and {} more locations (see --json)\n", f.locations.size() - shown);
  }

  // The goroutines the reader sees above: those of the shown locations and
  // steps. Dedup merges the goroutines of every merged occurrence (a leak
  // in 40 workers), which would list goroutines the text never mentions.
  std::set<std::string> mentioned;
  for (size_t i = 0; i < shown; i++) mentioned.insert(f.locations[i].goroutine);
  for (const Step& s : f.interleaving) mentioned.insert(s.loc.goroutine);
  std::vector<const GoroutineInfo*> listed;
  for (const GoroutineInfo& g : f.goroutines) {
    if (mentioned.count(g.id)) listed.push_back(&g);
  }
  if (!listed.empty()) {
    out += "\n  goroutines:\n";
    size_t w = 0;
    for (const GoroutineInfo* g : listed) w = std::max(w, g->id.size());
    for (const GoroutineInfo* gp : listed) {
      const GoroutineInfo& g = *gp;
      std::string where = GoroutineWhere(g);
      if (!g.function.empty()) where += fmt::format(", runs {}", g.function);
      out += fmt::format("    {:<{}}  {}\n", g.id, w, where);
    }
  }

  if (!f.interleaving.empty()) {
    out += "\n  interleaving:\n";
    size_t n = f.interleaving.size();
    size_t head = n <= opt.max_steps ? n : opt.max_steps / 2;
    size_t tail_from = n <= opt.max_steps ? n : n - (opt.max_steps - head);
    size_t gw = 0, ww = 0;
    for (const Step& s : f.interleaving) {
      gw = std::max(gw, s.loc.goroutine.size());
      ww = std::max(ww, s.what.size());
    }
    for (size_t i = 0; i < n; i++) {
      if (i == head && tail_from > head) {
        out += fmt::format("    ... {} more steps\n", tail_from - head);
        i = tail_from;
      }
      const Step& s = f.interleaving[i];
      out += fmt::format("    {:>2}. goroutine {:<{}}  {:<{}}  {}\n", i + 1, s.loc.goroutine, gw,
                         s.what, ww, Pos(s.loc.file, s.loc.line, s.loc.column));
    }
  }

  if (!f.other_tests.empty()) {
    std::string tests;
    for (const std::string& t : f.other_tests) tests += (tests.empty() ? "" : ", ") + t;
    out += fmt::format("\n  also in: {}\n", tests);
  }
  if (f.occurrences > 1) out += fmt::format("  seen {} times (reported once)\n", f.occurrences);
  if (f.score) {
    out += fmt::format("\n  score: fails for {} of the {} valuations checked{}\n", f.score->failing,
                       f.score->checked,
                       f.score->untracked_data
                           ? "; its path takes a branch on data the model does not track (check that the program can take it)"
                           : "");
  }
  if (!f.reproduce.empty()) out += fmt::format("\n  reproduce: {}\n", f.reproduce);
  return out;
}

std::string RenderFinding(const Finding& f, const TerminalOptions& opt) {
  SourceCache cache;
  return RenderFindingWith(f, opt, &cache);
}

std::string SummaryLine(const std::vector<Finding>& findings, const TerminalOptions& opt) {
  size_t bugs = 0, warnings = 0, infos = 0, unconfirmed = 0;
  for (const Finding& f : findings) {
    // A refuted finding is hidden (RenderTerminal) whatever its severity, so
    // it is counted as such, not as a warning the report does not show.
    if (f.severity != Severity::Info && f.status == Status::Unconfirmed) {
      unconfirmed++;
    } else if (f.severity == Severity::Bug) {
      if (CountsAsBug(f)) {
        bugs++;
      } else {
        unconfirmed++;
      }
    } else if (f.severity == Severity::Warning) {
      warnings++;
    } else {
      infos++;
    }
  }
  std::string s = fmt::format("{} bug{}, {} warning{}", bugs, bugs == 1 ? "" : "s", warnings,
                              warnings == 1 ? "" : "s");
  if (unconfirmed > 0) {
    s += fmt::format(", {} unconfirmed{}", unconfirmed,
                     opt.show_unconfirmed ? "" : " (refuted by replay, not shown; -unconfirmed "
                                                 "shows them)");
  }
  if (infos > 0) {
    s += fmt::format(", {} info{}{}", infos, infos == 1 ? "" : "s",
                     opt.show_info ? "" : " (not shown; --info shows them)");
  }
  if (opt.verdict != nullptr && !opt.verdict->Empty()) {
    std::string v = VerdictLine(*opt.verdict);
    // "FAIL:" as go test says it; a passing run just counts its tests.
    s = fmt::format("{}{}{}{}", opt.verdict->Failed() ? "FAIL: " : "", v, v.empty() ? "" : "; ",
                    s);
  }
  return s;
}

std::string RenderTerminal(const std::vector<Finding>& findings, const TerminalOptions& opt) {
  SourceCache cache;
  std::string out;
  for (const Finding& f : findings) {
    if (f.severity == Severity::Info && !opt.show_info) continue;
    if (f.status == Status::Unconfirmed && !opt.show_unconfirmed) continue;
    out += RenderFindingWith(f, opt, &cache);
    out += "\n";
  }
  Style st{opt.color};
  // Before the summary, so that a count read off the last lines is never
  // taken for that of a complete analysis.
  for (const std::string& d : opt.degraded) out += "note: analysis degraded: " + d + "\n";
  if (opt.verdict != nullptr) {
    for (const TestVerdict& t : opt.verdict->tests) {
      if (!t.passes_without_recording) continue;
      out += fmt::format(
          "note: {} failed under recording and passed when run again without it: it is "
          "timing-sensitive or flaky (the recording slows the program down, and a timeout or "
          "sleep of the test can expire first); the exit status stays 1, as go test's would "
          "in that run\n",
          EscapeControls(t.name));
    }
  }
  out += st.Bold(SummaryLine(findings, opt)) + "\n";
  return out;
}

}  // namespace gordian::report
