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

class Goroutines {
 public:
  explicit Goroutines(const trace::Trace& t) : t_(t) {
    for (const trace::Goroutine& g : t.goroutines) {
      if (g.goid != 0) by_goid_[g.goid] = &g;
    }
  }

  const trace::Goroutine* Find(uint64_t goid) const {
    auto it = by_goid_.find(goid);
    return it == by_goid_.end() ? nullptr : it->second;
  }

  // The innermost test that (transitively) spawned g: the goroutine that
  // recorded TestStart, or an ancestor of it.
  std::string TestOf(const trace::Goroutine* g) const {
    for (int depth = 0; g != nullptr && depth < 10000; depth++) {
      for (const trace::Record& r : t_.RecordsOf(*g)) {
        if (r.kind == trace::Kind::TestStart && r.val < t_.strings.size()) {
          return t_.strings[r.val];
        }
      }
      g = g->parent == 0 || g->parent == g->gid ? nullptr : t_.FindGoroutine(g->parent);
    }
    return "";
  }

 private:
  const trace::Trace& t_;
  std::map<uint64_t, const trace::Goroutine*> by_goid_;
};

struct Side {
  const Access* access = nullptr;
  const Frame* frame = nullptr;  // innermost user frame
  const trace::Goroutine* g = nullptr;
  std::string id;                // stable id, "" when the trace does not know the goroutine
};

std::string Who(const Side& s) {
  if (!s.id.empty()) return fmt::format("goroutine {}", s.id);
  if (s.access->goid != 0) return fmt::format("Go goroutine {}", s.access->goid);
  return "a goroutine";
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
  Goroutines gs(t);
  std::vector<report::Finding> out;
  for (const RaceReport& rep : reports) {
    Side cur, prev;
    cur.access = &rep.current;
    cur.frame = user.Innermost(rep.current.stack);
    prev.access = &rep.previous;
    prev.frame = user.Innermost(rep.previous.stack);
    if (cur.frame == nullptr && prev.frame == nullptr) continue;  // nothing of the user's to show
    for (Side* s : {&cur, &prev}) {
      s->g = s->access->goid != 0 ? gs.Find(s->access->goid) : nullptr;
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
    // The test: from the trace (the goroutine's test), else from the
    // stacks (a test function's frame, or the frame that spawned the goroutine).
    for (const Side* s : {&cur, &prev}) {
      if (f.test.empty() && s->g != nullptr) f.test = gs.TestOf(s->g);
    }
    auto test_in = [&](const std::vector<Frame>& stack) {
      for (auto it = stack.rbegin(); it != stack.rend() && f.test.empty(); ++it) {
        f.test = TestOfFunction(it->function);
      }
    };
    test_in(rep.current.stack);
    test_in(rep.previous.stack);
    for (const Creation& c : rep.created) test_in(c.stack);

    // The goroutines and their spawn sites, for the terminal report.
    for (const Side* s : {&first, &second}) {
      report::GoroutineInfo gi;
      gi.id = s->id.empty() ? (s->access->goid ? fmt::format("go{}", s->access->goid) : "?")
                            : s->id;
      for (const Creation& c : rep.created) {
        if (c.goid != s->access->goid) continue;
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
    // The race detector says which access came first.
    for (const Side* s : {&prev, &cur}) {
      if (s->frame == nullptr) continue;
      report::Step st;
      st.loc = Loc(*s);
      st.loc.tpre = s == &prev ? 1 : 2;
      st.what = fmt::format("{}{}", s->access->atomic ? "atomic " : "",
                            s->access->write ? "write" : "read") +
                (s == &prev ? "" : ": races with the access before");
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
