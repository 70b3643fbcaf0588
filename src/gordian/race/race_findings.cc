// This file implements RaceFindings and AddRaceFindings (race_findings.h).
#include "gordian/race/race_findings.h"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "gordian/race/gorace.h"

namespace gordian::race {
namespace {

// Which files are the user's: those under GORDIAN_ROOTS (the trace's
// "roots", the module roots the driver gave the recorder), as for the
// recorder's sites. Without roots: not the standard library's runtime,
// sync, testing and internal packages, not the module cache, not the test
// main go test generates.
class UserCode {
 public:
  explicit UserCode(const trace::Trace& t) {
    auto it = t.meta.find("roots");
    if (it == t.meta.end()) return;
    std::string_view r = it->second;
    while (!r.empty()) {
      size_t c = r.find(':');
      std::string_view d = r.substr(0, c);
      if (!d.empty()) roots_.emplace_back(d);
      r.remove_prefix(c == std::string_view::npos ? r.size() : c + 1);
    }
  }

  bool Is(const Frame& f) const {
    if (f.file.empty() || f.line == 0 || f.file.ends_with("_testmain.go")) return false;
    if (!roots_.empty()) {
      for (const std::string& r : roots_) {
        if (f.file.size() > r.size() && f.file.starts_with(r) && f.file[r.size()] == '/') {
          return true;
        }
      }
      return false;
    }
    for (const char* p : {"runtime.", "sync.", "sync/atomic.", "internal/", "testing."}) {
      if (f.function.starts_with(p)) return false;
    }
    return f.file.find("/pkg/mod/") == std::string::npos &&
           f.file.find("/src/runtime/") == std::string::npos &&
           f.file.find("/src/internal/") == std::string::npos;
  }

  // The innermost frame of user code: where the user's code made the
  // access (a map write inside runtime.mapassign is the user's m[k] = v).
  const Frame* Innermost(const std::vector<Frame>& stack) const {
    for (const Frame& f : stack) {
      if (Is(f)) return &f;
    }
    return nullptr;
  }

 private:
  std::vector<std::string> roots_;
};

// "pkg.TestX" / "pkg.TestX.func1" / "pkg.TestX.gowrap2" -> "TestX".
std::string TestOfFunction(const std::string& fn) {
  size_t slash = fn.rfind('/');
  size_t dot = fn.find('.', slash == std::string::npos ? 0 : slash);
  if (dot == std::string::npos) return "";
  std::string_view rest = std::string_view(fn).substr(dot + 1);
  if (!rest.starts_with("Test")) return "";
  std::string_view name = rest.substr(0, rest.find('.'));
  if (name.size() > 4 && !(name[4] >= 'a' && name[4] <= 'z')) return std::string(name);
  return name == "Test" ? "Test" : "";
}

// Matches the race detector's goroutines to the trace's. The reports name
// goroutines by the detector's own thread ids ("by goroutine 10"), which
// are neither Go's goids nor the trace's gids, so a goroutine is recognised
// by what the report says about it:
//   - "main goroutine" (id 1) is gid 1;
//   - a test function that testing.tRunner called is on its stack: the
//     goroutine whose TestStart names that test (or one of its subtests);
//   - otherwise its "created at" stack: the goroutines whose GoSpawn site is
//     that stack's innermost frame of user code, within the report's test.
// One candidate is a match; several (goroutines of one go statement in a
// loop) are left to the caller.
class Goroutines {
 public:
  Goroutines(const trace::Trace& t, const UserCode& user) : t_(t), user_(user) {
    spawn_site_.assign(t.goroutines.size() + 1, nullptr);
    for (const trace::Goroutine& g : t.goroutines) {
      for (const trace::Record& r : t.RecordsOf(g)) {
        if (r.kind == trace::Kind::GoSpawn && r.obj < spawn_site_.size() && r.site != 0 &&
            r.site < t.sites.size()) {
          spawn_site_[r.obj] = &t.sites[r.site];
        }
        if (r.kind == trace::Kind::TestStart && r.val < t.strings.size()) {
          test_start_[g.gid] = t.strings[r.val];
        }
      }
    }
  }

  // The innermost test that (transitively) spawned g: the goroutine that
  // recorded TestStart, or an ancestor of it.
  std::string TestOf(const trace::Goroutine* g) const {
    for (int depth = 0; g != nullptr && depth < 10000; depth++) {
      if (auto it = test_start_.find(g->gid); it != test_start_.end()) return it->second;
      g = g->parent == 0 || g->parent == g->gid ? nullptr : t_.FindGoroutine(g->parent);
    }
    return "";
  }

  std::vector<const trace::Goroutine*> Candidates(const Access& a, const RaceReport& rep,
                                                  const std::string& test) const {
    std::vector<const trace::Goroutine*> out;
    if (a.race_id == 1) {
      if (const trace::Goroutine* g = t_.FindGoroutine(1)) out.push_back(g);
      return out;
    }
    auto in_test = [&](const std::string& name) {
      return test.empty() || name == test || name.starts_with(test + "/");
    };
    for (size_t i = 0; i + 1 < a.stack.size(); i++) {
      if (a.stack[i + 1].function != "testing.tRunner") continue;
      std::string name = TestOfFunction(a.stack[i].function);
      if (name.empty()) break;
      for (const auto& [gid, started] : test_start_) {
        if (started == name || started.starts_with(name + "/")) {
          out.push_back(t_.FindGoroutine(gid));
        }
      }
      return out;
    }
    for (const Creation& c : rep.created) {
      if (c.race_id != a.race_id || a.race_id == 0) continue;
      const Frame* f = user_.Innermost(c.stack);
      if (f == nullptr) break;
      for (const trace::Goroutine& g : t_.goroutines) {
        const trace::Site* s = spawn_site_[g.gid];
        if (s != nullptr && s->line == f->line && s->file == f->file && in_test(TestOf(&g))) {
          out.push_back(&g);
        }
      }
      break;
    }
    return out;
  }

 private:
  const trace::Trace& t_;
  const UserCode& user_;
  std::vector<const trace::Site*> spawn_site_;  // by child gid
  std::map<uint32_t, std::string> test_start_;  // gid -> test it ran
};

struct Side {
  const Access* access = nullptr;
  const Frame* frame = nullptr;  // innermost user frame
  const trace::Goroutine* g = nullptr;
  std::string id;                // stable id, "" when the trace does not know the goroutine
};

std::string Who(const Side& s) {
  if (!s.id.empty()) return fmt::format("goroutine {}", s.id);
  if (s.access->race_id != 0) return fmt::format("race-detector goroutine {}", s.access->race_id);
  return "a goroutine";
}

// The goroutine's name in the terminal and SARIF reports (not in the JSON,
// whose ids are stable spawn paths or empty): the spawn path, else the race
// detector's number as "race:N" (another name space than the trace's).
std::string DisplayId(const Side& s) {
  if (!s.id.empty()) return s.id;
  return s.access->race_id != 0 ? fmt::format("race:{}", s.access->race_id) : "?";
}

std::string Base(const std::string& file) {
  size_t slash = file.rfind('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

std::string Verb(const Access& a) {
  return std::string(a.atomic ? "atomically " : "") + (a.write ? "writes" : "reads");
}

report::Location Loc(const Side& s) {
  report::Location l;
  l.file = s.frame->file;
  l.line = s.frame->line;
  l.role = s.access->write ? report::Role::Write : report::Role::Read;
  l.goroutine = s.id;
  l.function = s.frame->function;
  return l;
}

}  // namespace

std::vector<report::Finding> RaceFindings(const std::vector<RaceReport>& reports,
                                          const trace::Trace& t) {
  UserCode user(t);
  Goroutines gs(t, user);
  std::vector<report::Finding> out;
  for (const RaceReport& rep : reports) {
    Side cur, prev;
    cur.access = &rep.current;
    cur.frame = user.Innermost(rep.current.stack);
    prev.access = &rep.previous;
    prev.frame = user.Innermost(rep.previous.stack);
    if (cur.frame == nullptr && prev.frame == nullptr) continue;  // nothing of the user's to show
    // The test, from the stacks: a test function's frame, or the frame
    // that spawned the goroutine (the trace may refine it to a subtest).
    std::string test;
    auto test_in = [&](const std::vector<Frame>& stack) {
      for (auto it = stack.rbegin(); it != stack.rend() && test.empty(); ++it) {
        test = TestOfFunction(it->function);
      }
    };
    test_in(rep.current.stack);
    test_in(rep.previous.stack);
    for (const Creation& c : rep.created) test_in(c.stack);

    auto cc = gs.Candidates(rep.current, rep, test);
    auto pc = gs.Candidates(rep.previous, rep, test);
    if (cc.size() == 1) cur.g = cc[0];
    if (pc.size() == 1) prev.g = pc[0];
    // Two goroutines of one go statement (a loop's two workers racing): the
    // detector numbers goroutines in creation order, as the trace's gids
    // are, so the lower number is the goroutine created first. (Were the
    // detector to reuse the number of a finished goroutine, the two could
    // be swapped, never confused with a goroutine of another go statement.)
    if (cc.size() == 2 && cc == pc && rep.current.race_id != 0 && rep.previous.race_id != 0 &&
        rep.current.race_id != rep.previous.race_id) {
      bool cur_first = rep.current.race_id < rep.previous.race_id;
      bool gid_first = cc[0]->gid < cc[1]->gid;
      cur.g = cur_first == gid_first ? cc[0] : cc[1];
      prev.g = cur.g == cc[0] ? cc[1] : cc[0];
    }
    for (Side* s : {&cur, &prev}) {
      if (s->g != nullptr) s->id = s->g->stable_id;
    }
    // One order for a pair of sites, whichever access the detector saw
    // first: the write first (a write/write race: the earlier position),
    // so that the same race seen in two runs or two tests has one primary
    // location (where a corpus `// want:` goes) and one de-duplication key.
    auto rank = [](const Side& s) {
      return std::tuple(s.frame == nullptr, !s.access->write,
                        s.frame ? s.frame->file : std::string(), s.frame ? s.frame->line : 0u);
    };
    Side first = cur, second = prev;
    if (rank(second) < rank(first)) std::swap(first, second);

    report::Finding f;
    f.kind = report::FindingKind::DataRace;
    f.status = report::Status::Occurred;
    f.severity = report::DefaultSeverity(f.kind);
    f.locations.push_back(Loc(first));
    if (second.frame != nullptr) f.locations.push_back(Loc(second));
    std::string where2 = second.frame != nullptr
                             ? fmt::format(" at {}:{}", Base(second.frame->file), second.frame->line)
                             : second.access->stack.empty()
                                   ? " (the race detector lost its stack)"
                                   : fmt::format(" in {} (no frame of the program's own code)",
                                                 second.access->stack.front().function);
    f.message = fmt::format("{} {} at {}:{} and {} {} the same memory{}, with nothing ordering "
                            "the two accesses",
                            Who(first), Verb(*first.access), Base(first.frame->file),
                            first.frame->line, Who(second), Verb(*second.access), where2);
    // The test: the trace's (a subtest's full name), else the stacks'.
    for (const Side* s : {&cur, &prev}) {
      if (f.test.empty() && s->g != nullptr) f.test = gs.TestOf(s->g);
    }
    if (f.test.empty()) f.test = test;

    // The goroutines and their spawn sites, for the terminal report.
    for (const Side* s : {&first, &second}) {
      report::GoroutineInfo gi;
      gi.id = DisplayId(*s);
      for (const Creation& c : rep.created) {
        if (c.race_id != s->access->race_id) continue;
        if (const Frame* sp = user.Innermost(c.stack)) {
          gi.spawn_file = sp->file;
          gi.spawn_line = sp->line;
        }
      }
      if (!s->access->stack.empty()) {
        // The goroutine's function: the outermost user frame of its stack.
        for (auto it = s->access->stack.rbegin(); it != s->access->stack.rend(); ++it) {
          if (user.Is(*it)) {
            gi.function = it->function;
            break;
          }
        }
      }
      f.goroutines.push_back(std::move(gi));
    }
    // The race detector says which access came first. An access without
    // a frame of the program's own code is still a step of the timeline:
    // at its innermost frame (a library's), or at no position when the
    // detector lost its stack.
    for (const Side* s : {&prev, &cur}) {
      report::Step st;
      st.what = fmt::format("{}{}", s->access->atomic ? "atomic " : "",
                            s->access->write ? "write" : "read");
      if (s->frame != nullptr) {
        st.loc = Loc(*s);
      } else {
        st.loc.role = s->access->write ? report::Role::Write : report::Role::Read;
        if (!s->access->stack.empty()) {
          const Frame& inner = s->access->stack.front();
          st.loc.file = inner.file;
          st.loc.line = inner.line;
          st.loc.function = inner.function;
          st.what += fmt::format(" in {} (no frame of the program's own code)", inner.function);
        } else {
          st.what += " (the race detector lost its stack)";
        }
      }
      st.loc.goroutine = DisplayId(*s);  // steps are not in the JSON
      st.loc.tpre = s == &prev ? 1 : 2;
      if (s == &cur) {
        st.what += prev.frame != nullptr ? ": races with the access before"
                   : prev.access->stack.empty()
                       ? ": races with an earlier access (its stack is lost)"
                       : fmt::format(": races with an earlier {} in {}",
                                     prev.access->write ? "write" : "read",
                                     prev.access->stack.front().function);
      }
      f.interleaving.push_back(std::move(st));
    }
    f.dedup_key = "data-race";
    for (const report::Location& l : f.locations) {
      f.dedup_key += fmt::format("|{}@{}:{}", report::RoleName(l.role), l.file, l.line);
    }
    out.push_back(std::move(f));
  }
  return out;
}

size_t AddRaceFindings(const std::string& trace_dir, const trace::Trace& t,
                       std::vector<report::Finding>* out) {
  auto pid = t.meta.find("pid");
  if (pid == t.meta.end()) return 0;
  std::string text = ReadRaceLog(trace_dir, pid->second);
  if (text.empty()) return 0;
  size_t skipped = 0;
  std::vector<RaceReport> reports = ParseRaceLog(text, &skipped);
  std::vector<report::Finding> found = RaceFindings(reports, t);
  skipped += reports.size() - found.size();
  for (report::Finding& f : found) out->push_back(std::move(f));
  return skipped;
}

}  // namespace gordian::race
