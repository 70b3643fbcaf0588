// This file runs the golden detector tests, in the style of Go's `// ERROR`
// tests and the corpus: each testdata/golden/*.trace is a text trace
// (trace/text.h) whose comments say what the analysis must find. The
// happens-before engine, the occurred detectors (with the engine, as `gordian
// analyze` runs them) and the predicted detectors run on it, and
//
//   // want: KIND STATUS [PRIMITIVE] [KEY=VALUE...] [ ; another want ]
//
// on a record's line wants one finding of that kind and status (and, for a
// goroutine-leak, primitive: docs/corpus.md) whose primary location is that
// record. Findings and wants pair one to one: a finding no want accounts
// for fails the file, whatever its severity, and so does a want no finding
// meets. KEY=VALUE pins more of the finding: severity=, locations=N,
// occurrences=N, test=NAME, and comma lists over its locations: roles=,
// lines= (a location at another file is FILE:LINE), goroutines=; steps= are
// the roles of its interleaving; spawns= the goroutines it involves, each
// ID@LINE of its go statement (ID alone for main); message~"TEXT" (message!~"TEXT") says that
// its message holds TEXT (does not), a Go-quoted string.
//
//   // hb: A < B | A !< B | A || B | A !|| B | partner A B | partner A none
//   // hb: forced N | parked N | possible A = B...
//
// checks the happens-before relation of labelled records (A: ... on a
// record line: A happens before B, or not; they are concurrent, or not; the
// exact partner of A), the engine's counts of events replayed without
// their dependency and parked until it came, or the records that could
// have completed A in another schedule (FindPossiblePartners), in trace
// order. A file may restrict what runs:
//
//   // detect: [occurred] [plain] [bugs] [warnings] [info]
//
// (occurred: the occurred detectors; plain: without the engine, so that a
// receive's concurrency is whether it waited at the same time; bugs,
// warnings, info: the predicted families).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "gordian/detect/occurred.h"
#include "gordian/detect/predict.h"
#include "gordian/trace/side_files.h"
#include "gordian/trace/text.h"

namespace gordian::detect {
namespace {

namespace fs = std::filesystem;
using report::Finding;

struct Want {
  uint32_t line = 0;
  std::string kind_status;  // "send-on-closed predicted" (+ " chan-send" for a leak)
  std::vector<std::pair<std::string, std::string>> pins;  // KEY=VALUE
  bool met = false;
};

struct Golden {
  std::vector<Want> wants;
  std::vector<std::pair<uint32_t, std::vector<std::string>>> hb;  // line, words
  bool occurred = true;
  bool plain = false;  // the occurred detectors without the engine
  PredictOptions predict;
};

std::vector<std::string> Words(std::string_view s) {
  std::istringstream in{std::string(s)};
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string Join(const std::vector<std::string>& v, const char* sep = ",") {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// The comments of the file that speak to this runner.
bool ParseGolden(const std::string& text, Golden* g, std::string* err) {
  std::istringstream in(text);
  std::string line;
  for (uint32_t n = 1; std::getline(in, line); n++) {
    size_t at = line.find("// want:");
    if (at != std::string::npos) {
      std::string rest = line.substr(at + 8);
      for (size_t start = 0; start <= rest.size();) {
        size_t semi = rest.find(" ; ", start);
        std::string item = rest.substr(start, semi - start);
        start = semi == std::string::npos ? rest.size() + 1 : semi + 3;
        Want w;
        w.line = n;
        // message~"TEXT" and message!~"TEXT": Go-quoted, may hold blanks.
        for (size_t m; (m = std::min(item.find("message~"), item.find("message!~"))) !=
                       std::string::npos;) {
          size_t q = item.find('"', m);
          size_t e = q;
          while (e != std::string::npos && ++e < item.size() && item[e] != '"') e += item[e] == '\\';
          std::string op = q == std::string::npos ? "" : item.substr(m + 7, q - m - 7);
          std::string value;
          if ((op != "~" && op != "!~") || e >= item.size() ||
              !trace::Unquote(item.substr(q, e + 1 - q), &value)) {
            *err = fmt::format("line {}: malformed message pin (message~\"TEXT\" or "
                               "message!~\"TEXT\")", n);
            return false;
          }
          w.pins.emplace_back("message" + op, value);
          item.erase(m, e + 1 - m);
        }
        std::vector<std::string> f = Words(item);
        report::FindingKind kind;
        report::Status status;
        report::Primitive prim;
        size_t i = 2;
        if (f.size() < 2 || !report::ParseKind(f[0], &kind) || !report::ParseStatus(f[1], &status)) {
          *err = fmt::format("line {}: malformed want {:?}", n, rest);
          return false;
        }
        w.kind_status = f[0] + " " + f[1];
        if (f.size() > 2 && report::ParsePrimitive(f[2], &prim)) w.kind_status += " " + f[i++];
        for (; i < f.size(); i++) {
          size_t eq = f[i].find('=');
          if (eq == std::string::npos) {
            *err = fmt::format("line {}: {:?} in a want is not KEY=VALUE", n, f[i]);
            return false;
          }
          w.pins.emplace_back(f[i].substr(0, eq), f[i].substr(eq + 1));
        }
        g->wants.push_back(std::move(w));
      }
    }
    if ((at = line.find("// hb:")) != std::string::npos) {
      g->hb.emplace_back(n, Words(line.substr(at + 6)));
    }
    if ((at = line.find("// detect:")) != std::string::npos) {
      std::vector<std::string> f = Words(line.substr(at + 10));
      auto has = [&](const char* w) { return std::find(f.begin(), f.end(), w) != f.end(); };
      g->occurred = has("occurred");
      g->plain = has("plain");
      g->predict.bugs = has("bugs");
      g->predict.warnings = has("warnings");
      g->predict.info = has("info");
    }
  }
  return true;
}

// A finding as a want would say it, every pin included.
class Described {
 public:
  Described(const Finding& f, const std::string& file) : f_(f), file_(file) {}

  std::string KindStatus() const {
    std::string s = fmt::format("{} {}", report::KindName(f_.kind), report::StatusName(f_.status));
    if (f_.kind == report::FindingKind::GoroutineLeak) {
      s += fmt::format(" {}", report::PrimitiveName(f_.primitive));
    }
    return s;
  }
  // The line of the primary location when it is in this file, else 0.
  uint32_t Line() const {
    if (f_.locations.empty() || f_.locations[0].file != file_) return 0;
    return f_.locations[0].line;
  }
  // The value of a pin, or nullopt for an unknown key.
  std::optional<std::string> Pin(const std::string& key) const {
    std::vector<std::string> v;
    if (key == "severity") return std::string(report::SeverityName(f_.severity));
    if (key == "locations") return std::to_string(f_.locations.size());
    if (key == "occurrences") return std::to_string(f_.occurrences);
    if (key == "test") return f_.test;
    // message~TEXT holds when the message contains TEXT, message!~TEXT when not.
    if (key == "message~" || key == "message!~") return f_.message;
    if (key == "roles") {
      for (const auto& l : f_.locations) v.emplace_back(report::RoleName(l.role));
    } else if (key == "lines") {
      for (const auto& l : f_.locations) {
        v.push_back(l.file == file_ ? std::to_string(l.line) : fmt::format("{}:{}", l.file, l.line));
      }
    } else if (key == "goroutines") {
      for (const auto& l : f_.locations) v.push_back(l.goroutine);
    } else if (key == "spawns") {  // the goroutines involved: ID, or ID@LINE of its go statement
      for (const auto& g : f_.goroutines) {
        v.push_back(g.spawn_line == 0 ? g.id : fmt::format("{}@{}", g.id, g.spawn_line));
      }
    } else if (key == "steps") {
      for (const auto& s : f_.interleaving) v.emplace_back(report::RoleName(s.loc.role));
    } else {
      return std::nullopt;
    }
    return Join(v);
  }
  std::string String() const {
    std::string where = f_.locations.empty()       ? "nowhere"
                        : Line() != 0              ? fmt::format("line {}", Line())
                                                   : fmt::format("{}:{}", f_.locations[0].file,
                                                                 f_.locations[0].line);
    std::string s = fmt::format("{}: {}", where, KindStatus());
    for (const char* k : {"severity", "roles", "lines", "goroutines", "steps", "occurrences"}) {
      s += fmt::format(" {}={}", k, *Pin(k));
    }
    return s;
  }
  bool Meets(const Want& w, std::string* err) const {
    if (w.line != Line() || w.kind_status != KindStatus()) return false;
    for (const auto& [k, v] : w.pins) {
      std::optional<std::string> got = Pin(k);
      if (!got) {
        *err = fmt::format("line {}: unknown want key {:?}", w.line, k);
        return false;
      }
      bool has = got->find(v) != std::string::npos;
      if (k == "message~" ? !has : k == "message!~" ? has : *got != v) return false;
    }
    return true;
  }

 private:
  const Finding& f_;
  const std::string& file_;
};

// One `// hb:` check (the file comment).
bool CheckHb(const hb::HappensBefore& hb, const trace::TextTraceInfo& info, uint32_t line,
             const std::vector<std::string>& w, std::string* err) {
  auto rec = [&](const std::string& label, uint32_t* out) {
    auto it = info.labels.find(label);
    if (it == info.labels.end()) {
      *err += fmt::format("line {}: no record is labelled {:?}\n", line, label);
      return false;
    }
    *out = it->second;
    return true;
  };
  uint32_t a = 0, b = 0;
  bool ok;
  if (w.size() == 2 && (w[0] == "forced" || w[0] == "parked")) {
    ok = std::to_string(w[0] == "forced" ? hb.stats().forced : hb.stats().parked) == w[1];
  } else if (w.size() >= 3 && w[0] == "possible" && w[2] == "=") {
    if (!rec(w[1], &a)) return false;
    std::vector<uint32_t> want, got;
    for (size_t i = 3; i < w.size(); i++) {
      if (!rec(w[i], &b)) return false;
      want.push_back(b);
    }
    FindPossiblePartners(hb, a, &got);
    ok = got == want;
  } else if (w.size() == 3 && w[0] == "partner") {
    if (!rec(w[1], &a) || (w[2] != "none" && !rec(w[2], &b))) return false;
    ok = hb.Partner(a) == (w[2] == "none" ? hb::kNoRecord : b);
  } else if (w.size() == 3 && (w[1] == "<" || w[1] == "!<" || w[1] == "||" || w[1] == "!||")) {
    if (!rec(w[0], &a) || !rec(w[2], &b)) return false;
    ok = w[1] == "<"    ? hb.Before(a, b)
         : w[1] == "!<" ? !hb.Before(a, b)
         : w[1] == "||" ? hb.Concurrent(a, b)
                        : !hb.Concurrent(a, b);
  } else {
    *err += fmt::format("line {}: malformed hb check (A < B, A !< B, A || B, A !|| B, "
                        "partner A B|none, forced N, parked N, possible A = B...)\n", line);
    return false;
  }
  if (!ok) *err += fmt::format("line {}: hb: {} does not hold\n", line, Join(w, " "));
  return ok;
}

// Runs the analysis on one golden file; returns what is wrong, or "".
std::string RunGolden(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const std::string name = path.filename().string();
  Golden g;
  std::string err;
  if (!ParseGolden(text, &g, &err)) return err;
  trace::Trace t;
  trace::TextTraceInfo info;
  if (!trace::ParseTextTrace(text, name, &t, &err, &info)) return err;
  // Every golden trace also round-trips: its full text form reads back to
  // the same text (trace/text_test.cc compares the traces field by field).
  std::string full = trace::FormatTextTrace(t);
  trace::Trace back;
  if (!trace::ParseTextTrace(full, name, &back, &err)) return "its text form: " + err;
  if (trace::FormatTextTrace(back) != full) return "its text form does not read back the same";
  hb::HappensBefore hb;
  if (!hb.Build(t, &err)) return "happens-before: " + err;
  for (const auto& [line, words] : g.hb) CheckHb(hb, info, line, words, &err);

  std::vector<Finding> found;
  if (g.occurred) {
    OccurredOptions oo;
    if (!g.plain) {
      oo.hb = &hb;
      oo.partners = [&hb](uint32_t rec, std::vector<uint32_t>* p) { FindPossiblePartners(hb, rec, p); };
    }
    found = DetectOccurred(t, oo);
  }
  PredictBugs(t, hb, &found, g.predict);

  for (const Finding& f : found) {
    Described d(f, name);
    if (f.message.empty() || f.locations.empty()) err += d.String() + ": no message or location\n";
    bool met = false;
    for (Want& w : g.wants) {
      if (!w.met && d.Meets(w, &err)) {
        w.met = met = true;
        break;
      }
    }
    if (!met) err += "unexpected finding: " + d.String() + "\n";
  }
  for (const Want& w : g.wants) {
    if (w.met) continue;
    err += fmt::format("line {}: no finding meets want: {}", w.line, w.kind_status);
    for (const auto& [k, v] : w.pins) {
      err += k.starts_with("message") ? fmt::format(" {}{}", k, trace::Quote(v))
                                      : fmt::format(" {}={}", k, v);
    }
    err += "\n";
  }
  return err;
}

std::vector<fs::path> GoldenFiles() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(GORDIAN_GOLDEN_DIR)) {
    if (e.path().extension() == ".trace") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class GoldenTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(GoldenTest, FindingsMatchWants) {
  std::string problems = RunGolden(GetParam());
  EXPECT_EQ(problems, "") << GetParam().string() << ":\n" << problems;
}

INSTANTIATE_TEST_SUITE_P(Golden, GoldenTest, ::testing::ValuesIn(GoldenFiles()),
                         [](const ::testing::TestParamInfo<fs::path>& p) {
                           std::string n = p.param.stem().string();
                           for (char& c : n) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return n;
                         });

// The runner must be able to fail: a want nothing meets, and a finding no
// want accounts for.
TEST(GoldenRunner, MissingAndUnexpectedFindingsFail) {
  fs::path dir = fs::temp_directory_path() / fmt::format("gordian-golden-{}", getpid());
  fs::create_directories(dir);
  fs::path p = dir / "x.trace";
  std::ofstream(p) << "1 ChanMake obj=1 val=1\n"
                      "1 go 2\n"
                      "2 ChanSend obj=1 val=1   // want: send-on-closed predicted roles=close\n"
                      "1 ChanClose obj=1 val=1  // want: close-of-closed occurred\n";
  std::string got = RunGolden(p);
  fs::remove_all(dir);
  EXPECT_NE(got.find("unexpected finding: line 3: send-on-closed predicted severity=bug "
                     "roles=send,close lines=3,4"),
            std::string::npos)
      << got;
  EXPECT_NE(got.find("line 3: no finding meets want: send-on-closed predicted roles=close"),
            std::string::npos)
      << got;
  EXPECT_NE(got.find("line 4: no finding meets want: close-of-closed occurred"), std::string::npos)
      << got;
}

}  // namespace
}  // namespace gordian::detect
