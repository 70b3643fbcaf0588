// End-to-end tests of `gordian record` on the Go programs beside this file:
// each program states in its top comment what its trace must contain, and
// the test of the same name checks exactly that on the decoded trace
// (kinds, counts, exact partners, stable ids, source lines found through
// the //@name markers in the program). Every program must also behave as
// without gordian: same stdout, same exit status (the one intended
// difference, a global deadlock, is checked explicitly).
//
// Needs the go command and the gordian binary; labelled "record" so that
// the sanitizer run skips it. The first run builds std with the hooks
// (cached in GOCACHE afterwards).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "../e2e_env.h"
#include "gordian/driver/process.h"
#include "gordian/driver/record.h"
#include "gordian/driver/trace_dirs.h"
#include "gordian/trace/summary.h"
#include "gordian/trace/trace.h"

namespace gordian {
namespace {

namespace fs = std::filesystem;
using trace::Kind;
using trace::Record;
using trace::Trace;

using e2e::Env;
using e2e::Gordian;
using e2e::SourceDir;
std::string RecordDir() { return SourceDir() + "/tests/record"; }

// Lines of file (relative to tests/record) that carry the marker //@name.
std::vector<uint32_t> Marked(const std::string& file, const std::string& name) {
  std::ifstream in(RecordDir() + "/" + file);
  std::vector<uint32_t> out;
  uint32_t n = 0;
  const std::string tag = "//@" + name;
  for (std::string line; std::getline(in, line);) {
    n++;
    size_t at = line.find(tag);
    if (at != std::string::npos &&
        (at + tag.size() == line.size() || line[at + tag.size()] == ' ')) {
      out.push_back(n);
    }
  }
  EXPECT_FALSE(out.empty()) << "no //@" << name << " in " << file;
  return out;
}
uint32_t Line(const std::string& file, const std::string& name) {
  std::vector<uint32_t> l = Marked(file, name);
  return l.empty() ? 0 : l[0];
}

driver::ProcessResult Exec(std::vector<std::string> argv, const std::string& cwd,
                          double timeout = 300) {
  driver::ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = cwd;
  spec.pass_through = false;
  spec.timeout_seconds = timeout;
  spec.set_env["GORDIAN_RUNTIME_DIR"] = SourceDir() + "/runtime/std";
  driver::ProcessResult r;
  std::string err;
  EXPECT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
  return r;
}

// A recorded trace with helpers to find records by kind and source line.
struct Recorded {
  driver::ProcessResult gordian;  // the gordian record command
  Trace t;
  bool ok = false;

  // Records of kind k at file:line (file is a suffix of the site's path).
  std::vector<const Record*> At(Kind k, const std::string& file, uint32_t line) const {
    std::vector<const Record*> out;
    for (const Record& r : t.records) {
      const trace::Site& s = t.SiteOf(r);
      if (r.kind == k && s.line == line && s.file.ends_with("/" + file)) out.push_back(&r);
    }
    return out;
  }
  std::vector<const Record*> All(Kind k) const {
    std::vector<const Record*> out;
    for (const Record& r : t.records) {
      if (r.kind == k) out.push_back(&r);
    }
    return out;
  }
  // The stable id of the goroutine that wrote r.
  std::string G(const Record* r) const {
    uint32_t i = static_cast<uint32_t>(r - t.records.data());
    for (const trace::Goroutine& g : t.goroutines) {
      if (i >= g.begin && i < g.end) return g.stable_id;
    }
    return "?";
  }
  const trace::Goroutine* ById(const std::string& id) const {
    for (const trace::Goroutine& g : t.goroutines) {
      if (g.stable_id == id) return &g;
    }
    return nullptr;
  }
  trace::TraceSummary Summary() const { return trace::Summarize(t); }
};

class RecordTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string tmpl = (fs::temp_directory_path() / "gordian-record-test-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) return;
    tmp_ = new std::string(tmpl);
  }
  static void TearDownTestSuite() {
    if (tmp_ != nullptr) fs::remove_all(*tmp_);
    delete tmp_;
    tmp_ = nullptr;
  }
  void SetUp() override {
    if (driver::LookPath("go").empty()) GTEST_SKIP() << "no go command in PATH";
    ASSERT_TRUE(fs::exists(Gordian())) << Gordian() << " is missing: build the gordian target";
    ASSERT_NE(tmp_, nullptr);
  }

  // gordian record -o TMP/<name> <flags> run <args>, in dir (default tests/record).
  Recorded RecordRun(const std::string& name, std::vector<std::string> run_args,
                     std::vector<std::string> flags = {}, std::string dir = "") {
    Recorded rec;
    std::vector<std::string> argv = {Gordian(), "record", "-o", *tmp_ + "/" + name};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back("run");
    argv.insert(argv.end(), run_args.begin(), run_args.end());
    rec.gordian = Exec(argv, dir.empty() ? RecordDir() : dir);
    std::string err;
    rec.ok = trace::ReadTrace(*tmp_ + "/" + name, &rec.t, &err);
    EXPECT_TRUE(rec.ok) << err << "\n" << rec.gordian.err;
    if (rec.ok) {
      EXPECT_TRUE(rec.t.warnings.empty()) << rec.t.warnings[0];
    }
    return rec;
  }

  // Builds prog without gordian and runs it.
  driver::ProcessResult Plain(const std::string& prog) {
    std::string bin = *tmp_ + "/plain-" + prog;
    driver::ProcessResult b = Exec({"go", "build", "-o", bin, "./" + prog}, RecordDir());
    EXPECT_TRUE(b.Succeeded()) << b.err;
    return Exec({bin}, RecordDir());
  }

  // The instrumented run printed what the plain one prints and ended with
  // the same status.
  void ExpectSameBehaviour(const std::string& prog, const Recorded& rec) {
    driver::ProcessResult plain = Plain(prog);
    EXPECT_EQ(rec.gordian.exit_code, 0) << rec.gordian.err;
    EXPECT_EQ(rec.gordian.out, plain.out) << prog;
    trace::TraceSummary s = rec.Summary();
    EXPECT_TRUE(s.exited) << prog;
    EXPECT_EQ(static_cast<int>(s.exit_status), plain.exit_code) << prog;
  }

  // Options for driver::Record called in this process (the keep_binary
  // tests), in tests/record, into tmp_ + out, the output not passed on.
  static driver::RecordOptions InProcess(driver::RecordMode mode, std::vector<std::string> args,
                                         const std::string& out, bool keep_binary) {
    driver::RecordOptions o;
    o.mode = mode;
    o.args = std::move(args);
    o.cwd = RecordDir();
    o.out_dir = *tmp_ + out;
    o.pass_through = false;
    o.keep_binary = keep_binary;
    o.self_exe = Gordian();
    return o;
  }
  static std::string* tmp_;
};

std::string* RecordTest::tmp_ = nullptr;

// Every receive with a value has the send with its seq as partner, in
// another record of the same channel; returns the number of pairs.
size_t CheckPairs(const Recorded& rec, uint32_t chan, const std::string& send_g,
                  const std::string& recv_g) {
  std::map<uint32_t, const Record*> sends, recvs;
  for (const Record& r : rec.t.records) {
    if (r.obj != chan || r.tpost == 0) continue;
    if (r.kind == Kind::ChanSend) {
      EXPECT_TRUE(sends.emplace(r.val, &r).second) << "dup seq";
    }
    if (r.kind == Kind::ChanRecv && r.val != 0) {
      EXPECT_TRUE(recvs.emplace(r.val, &r).second) << "dup seq";
    }
  }
  EXPECT_EQ(sends.size(), recvs.size());
  for (const auto& [seq, s] : sends) {
    auto it = recvs.find(seq);
    if (it == recvs.end()) {
      ADD_FAILURE() << "send seq " << seq << " has no receive";
      continue;
    }
    // Channel completions are stamped in the channel's lock order: the
    // value's send completes no later than its receive.
    EXPECT_LT(s->tpost, it->second->tpost);
    if (!send_g.empty()) {
      EXPECT_EQ(rec.G(s), send_g);
    }
    if (!recv_g.empty()) {
      EXPECT_EQ(rec.G(it->second), recv_g);
    }
  }
  return sends.size();
}

TEST_F(RecordTest, Unbuffered) {
  Recorded rec = RecordRun("unbuffered", {"./unbuffered"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("unbuffered", rec);
  const std::string f = "unbuffered/main.go";
  auto make = rec.At(Kind::ChanMake, f, Line(f, "make"));
  ASSERT_EQ(make.size(), 1u);
  EXPECT_EQ(make[0]->val, 0u);
  auto spawn = rec.At(Kind::GoSpawn, f, Line(f, "go"));
  ASSERT_EQ(spawn.size(), 1u);
  EXPECT_EQ(rec.t.FindGoroutine(spawn[0]->obj)->stable_id, "1.0");
  auto sends = rec.At(Kind::ChanSend, f, Line(f, "send"));
  auto recvs = rec.At(Kind::ChanRecv, f, Line(f, "recv"));
  ASSERT_EQ(sends.size(), 3u);
  ASSERT_EQ(recvs.size(), 3u);
  for (uint32_t i = 0; i < 3; i++) {
    EXPECT_EQ(sends[i]->val, i + 1);
    EXPECT_EQ(recvs[i]->val, i + 1);
    EXPECT_EQ(sends[i]->obj, make[0]->obj);
    EXPECT_NE(recvs[i]->tpost, 0u);
  }
  EXPECT_EQ(CheckPairs(rec, make[0]->obj, "1.0", "1"), 3u);
  EXPECT_TRUE(rec.t.SiteOf(*sends[0]).user);
  EXPECT_EQ(rec.t.SiteOf(*sends[0]).function, "main.main.func1");
}

TEST_F(RecordTest, Buffered) {
  Recorded rec = RecordRun("buffered", {"./buffered"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("buffered", rec);
  const std::string f = "buffered/main.go";
  auto make = rec.At(Kind::ChanMake, f, Line(f, "make"));
  ASSERT_EQ(make.size(), 1u);
  EXPECT_EQ(make[0]->val, 2u);
  std::vector<uint32_t> send_lines = Marked(f, "send");
  ASSERT_EQ(send_lines.size(), 2u);
  auto s1 = rec.At(Kind::ChanSend, f, send_lines[0]);
  auto s2 = rec.At(Kind::ChanSend, f, send_lines[1]);
  ASSERT_EQ(s1.size(), 1u);
  ASSERT_EQ(s2.size(), 1u);
  EXPECT_EQ(s1[0]->val, 1u);
  EXPECT_EQ(s2[0]->val, 2u);
  auto close = rec.At(Kind::ChanClose, f, Line(f, "close"));
  ASSERT_EQ(close.size(), 1u);
  EXPECT_EQ(close[0]->val, 2u);
  EXPECT_EQ(close[0]->flags & trace::kClosed, 0);
  auto recvs = rec.At(Kind::ChanRecv, f, Line(f, "range"));
  ASSERT_EQ(recvs.size(), 3u);
  EXPECT_EQ(recvs[0]->val, 1u);
  EXPECT_EQ(recvs[1]->val, 2u);
  EXPECT_EQ(recvs[2]->val, 0u);
  EXPECT_NE(recvs[2]->flags & trace::kClosed, 0);
  EXPECT_LT(s2[0]->tpost, recvs[0]->tpre);  // both sends completed alone
  EXPECT_LT(close[0]->tpost, recvs[2]->tpost);
  EXPECT_EQ(CheckPairs(rec, make[0]->obj, "1", "1"), 2u);
}

TEST_F(RecordTest, SelectDefault) {
  Recorded rec = RecordRun("selectdefault", {"./selectdefault"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("selectdefault", rec);
  const std::string f = "selectdefault/main.go";
  auto sel1 = rec.At(Kind::Select, f, Line(f, "sel1"));
  ASSERT_EQ(sel1.size(), 1u);
  EXPECT_EQ(sel1[0]->aux, 1u);
  EXPECT_NE(sel1[0]->flags & trace::kHasDefault, 0);
  EXPECT_EQ(sel1[0]->val, trace::kDefaultCase);
  auto sel2 = rec.At(Kind::Select, f, Line(f, "sel2"));
  ASSERT_EQ(sel2.size(), 1u);
  EXPECT_EQ(sel2[0]->aux, 2u);
  EXPECT_EQ(sel2[0]->flags & trace::kHasDefault, 0);
  // Its cases follow it: a send on the nil channel, the chosen receive.
  const Record* c0 = sel2[0] + 1;
  const Record* c1 = sel2[0] + 2;
  ASSERT_EQ(c0->kind, Kind::SelectCase);
  ASSERT_EQ(c1->kind, Kind::SelectCase);
  const Record* chosen = (c0->flags & trace::kChosen) ? c0 : c1;
  const Record* other = chosen == c0 ? c1 : c0;
  EXPECT_EQ(sel2[0]->val, chosen->aux);
  EXPECT_NE(chosen->flags & trace::kDirRecv, 0);
  EXPECT_EQ(chosen->val, 1u);
  EXPECT_EQ(other->obj, 0u);  // the nil channel
  EXPECT_NE(other->flags & trace::kDirSend, 0);
  auto send = rec.At(Kind::ChanSend, f, Line(f, "send"));
  ASSERT_EQ(send.size(), 1u);
  EXPECT_EQ(send[0]->obj, chosen->obj);
  EXPECT_EQ(send[0]->val, chosen->val);
  EXPECT_EQ(rec.G(send[0]), "1.0");
}

TEST_F(RecordTest, Mutex) {
  Recorded rec = RecordRun("mutex", {"./mutex"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("mutex", rec);
  const std::string f = "mutex/main.go";
  auto locks = rec.At(Kind::MutexLock, f, Line(f, "lock"));
  auto unlocks = rec.At(Kind::MutexUnlock, f, Line(f, "unlock"));
  ASSERT_EQ(locks.size(), 400u);
  ASSERT_EQ(unlocks.size(), 400u);
  // Critical sections, ordered by lock completion, never overlap.
  std::vector<std::pair<uint32_t, uint32_t>> cs;  // (lock tpost, unlock stamp)
  for (const trace::Goroutine& g : rec.t.goroutines) {
    const Record* open = nullptr;
    for (const Record& r : rec.t.RecordsOf(g)) {
      if (r.kind == Kind::MutexLock) {
        EXPECT_EQ(open, nullptr) << "two locks in a row in " << g.stable_id;
        open = &r;
      } else if (r.kind == Kind::MutexUnlock) {
        ASSERT_NE(open, nullptr) << "unlock without lock in " << g.stable_id;
        EXPECT_EQ(r.obj, open->obj);
        cs.emplace_back(open->tpost, r.tpre);
        open = nullptr;
      }
    }
  }
  ASSERT_EQ(cs.size(), 400u);
  std::sort(cs.begin(), cs.end());
  for (size_t i = 1; i < cs.size(); i++) {
    EXPECT_GT(cs[i].first, cs[i - 1].second) << "overlapping critical sections";
  }
  auto add = rec.At(Kind::WgAdd, f, Line(f, "add"));
  ASSERT_EQ(add.size(), 1u);
  EXPECT_EQ(static_cast<int32_t>(add[0]->val), 4);
  auto dones = rec.At(Kind::WgAdd, f, Line(f, "done"));
  ASSERT_EQ(dones.size(), 4u);
  auto wait = rec.At(Kind::WgWait, f, Line(f, "wait"));
  ASSERT_EQ(wait.size(), 1u);
  for (const Record* d : dones) {
    EXPECT_EQ(static_cast<int32_t>(d->val), -1);
    EXPECT_LT(d->tpre, wait[0]->tpost);
  }
}

TEST_F(RecordTest, RWMutex) {
  Recorded rec = RecordRun("rwmutex", {"./rwmutex"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("rwmutex", rec);
  const std::string f = "rwmutex/main.go";
  auto wl = rec.At(Kind::RWLock, f, Line(f, "wlock"));
  auto wu = rec.At(Kind::RWUnlock, f, Line(f, "wunlock"));
  auto rl = rec.At(Kind::RLock, f, Line(f, "rlock"));
  auto ru = rec.At(Kind::RUnlock, f, Line(f, "runlock"));
  auto tl = rec.At(Kind::RWTryLock, f, Line(f, "try"));
  ASSERT_EQ(wl.size(), 1u);
  ASSERT_EQ(wu.size(), 1u);
  ASSERT_EQ(rl.size(), 2u);
  ASSERT_EQ(ru.size(), 2u);
  ASSERT_EQ(tl.size(), 1u);
  uint32_t obj = wl[0]->obj;
  for (auto* r : {wu[0], rl[0], rl[1], ru[0], ru[1], tl[0]}) EXPECT_EQ(r->obj, obj);
  EXPECT_NE(tl[0]->flags & trace::kSuccess, 0);
  EXPECT_NE(rec.G(rl[0]), rec.G(rl[1]));
}

TEST_F(RecordTest, WaitGroup) {
  Recorded rec = RecordRun("waitgroup", {"./waitgroup"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("waitgroup", rec);
  const std::string f = "waitgroup/main.go";
  auto adds = rec.At(Kind::WgAdd, f, Line(f, "add"));
  ASSERT_EQ(adds.size(), 3u);
  for (uint16_t i = 0; i < 3; i++) {
    EXPECT_EQ(static_cast<int32_t>(adds[i]->val), 1);
    EXPECT_EQ(static_cast<int16_t>(adds[i]->aux), i + 1);
  }
  auto dones = rec.At(Kind::WgAdd, f, Line(f, "done"));
  ASSERT_EQ(dones.size(), 3u);
  std::vector<std::string> gs;
  for (const Record* d : dones) gs.push_back(rec.G(d));
  std::sort(gs.begin(), gs.end());
  EXPECT_EQ(gs, (std::vector<std::string>{"1.0", "1.1", "1.2"}));
  auto wait = rec.At(Kind::WgWait, f, Line(f, "wait"));
  ASSERT_EQ(wait.size(), 1u);
  EXPECT_EQ(rec.G(wait[0]), "1");
  for (const Record* d : dones) EXPECT_LT(d->tpre, wait[0]->tpost);
}

TEST_F(RecordTest, Once) {
  Recorded rec = RecordRun("once", {"./once"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("once", rec);
  const std::string f = "once/main.go";
  auto dos = rec.At(Kind::OnceDo, f, Line(f, "do"));
  ASSERT_EQ(dos.size(), 3u);
  const Record* ran = nullptr;
  for (const Record* d : dos) {
    EXPECT_EQ(d->obj, dos[0]->obj);
    EXPECT_NE(d->tpost, 0u);
    if (d->flags & trace::kSuccess) {
      EXPECT_EQ(ran, nullptr) << "two calls ran f";
      ran = d;
    }
  }
  ASSERT_NE(ran, nullptr);
  for (const Record* d : dos) EXPECT_GT(d->tpost, ran->tpre);
  EXPECT_EQ(rec.gordian.out, "init\ndone\n");  // f ran once
}

TEST_F(RecordTest, Cond) {
  Recorded rec = RecordRun("cond", {"./cond"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("cond", rec);
  const std::string f = "cond/main.go";
  auto waits = rec.At(Kind::CondWait, f, Line(f, "wait"));
  auto sigs = rec.At(Kind::CondSignal, f, Line(f, "signal"));
  ASSERT_GE(waits.size(), 1u);
  ASSERT_EQ(sigs.size(), 1u);
  const Record* w = waits.back();
  EXPECT_EQ(rec.G(w), "1.0");
  EXPECT_NE(w->tpost, 0u);
  EXPECT_EQ(sigs[0]->obj, w->obj);
  EXPECT_EQ(sigs[0]->val, w->val);  // the ticket it woke: the exact partner
  EXPECT_LT(sigs[0]->tpre, w->tpost);
  EXPECT_FALSE(rec.All(Kind::MutexLock).empty());
}

TEST_F(RecordTest, Panic) {
  Recorded rec = RecordRun("panicking", {"./panicking"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("panicking", rec);
  const std::string f = "panicking/main.go";
  auto send = rec.At(Kind::ChanSend, f, Line(f, "send"));
  ASSERT_EQ(send.size(), 1u);
  EXPECT_NE(send[0]->tpost, 0u);
  auto recv = rec.At(Kind::ChanRecv, f, Line(f, "panic"));
  ASSERT_EQ(recv.size(), 1u);
  EXPECT_EQ(recv[0]->val, send[0]->val);
  auto panics = rec.All(Kind::Panic);
  ASSERT_EQ(panics.size(), 1u);
  ASSERT_LT(panics[0]->val, rec.t.strings.size());
  EXPECT_EQ(rec.t.strings[panics[0]->val], "boom: 42");
  trace::TraceSummary s = rec.Summary();
  EXPECT_EQ(s.exit_how, 2);
  EXPECT_EQ(s.exit_status, 2u);
  EXPECT_NE(rec.gordian.err.find("panicked (status 2): boom: 42"), std::string::npos)
      << rec.gordian.err;
}

TEST_F(RecordTest, OsExit) {
  Recorded rec = RecordRun("osexit", {"./osexit"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("osexit", rec);
  const std::string f = "osexit/main.go";
  auto blocked = rec.At(Kind::ChanRecv, f, Line(f, "blocked"));
  ASSERT_EQ(blocked.size(), 1u);
  EXPECT_EQ(blocked[0]->tpost, 0u);
  EXPECT_EQ(rec.G(blocked[0]), "1.0");
  auto close = rec.At(Kind::ChanClose, f, Line(f, "close"));
  ASSERT_EQ(close.size(), 1u);
  EXPECT_LT(close[0]->tpost, blocked[0]->tpre);
  trace::TraceSummary s = rec.Summary();
  EXPECT_EQ(s.exit_how, 1);
  EXPECT_EQ(s.exit_status, 3u);
}

TEST_F(RecordTest, GlobalDeadlock) {
  Recorded rec = RecordRun("deadlock", {"./deadlock"});
  ASSERT_TRUE(rec.ok);
  const std::string f = "deadlock/main.go";
  auto recv = rec.At(Kind::ChanRecv, f, Line(f, "recv"));
  auto lock = rec.At(Kind::MutexLock, f, Line(f, "lock"));
  ASSERT_EQ(recv.size(), 1u);
  ASSERT_EQ(lock.size(), 1u);
  EXPECT_EQ(recv[0]->tpost, 0u);
  EXPECT_EQ(lock[0]->tpost, 0u);
  EXPECT_EQ(rec.G(recv[0]), "1");
  EXPECT_EQ(rec.G(lock[0]), "1.0");
  auto dl = rec.All(Kind::GlobalDeadlock);
  ASSERT_EQ(dl.size(), 1u);
  EXPECT_EQ(dl[0]->obj, 2u);
  EXPECT_EQ(rec.G(dl[0]), "recorder");
  trace::TraceSummary s = rec.Summary();
  EXPECT_TRUE(s.global_deadlock);
  EXPECT_EQ(s.exit_how, 4);
  EXPECT_EQ(s.exit_status, 3u);
  // The intended difference from Go's own detector: same stdout, status 3
  // from gordian instead of Go's fatal error with status 2.
  driver::ProcessResult plain = Plain("deadlock");
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_NE(plain.err.find("all goroutines are asleep"), std::string::npos);
  EXPECT_EQ(rec.gordian.out, plain.out);
  EXPECT_EQ(rec.gordian.exit_code, 0);
}

TEST_F(RecordTest, SpawnsLoopsClosuresMethodsGenerics) {
  Recorded rec = RecordRun("spawns", {"./spawns"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("spawns", rec);
  const std::string f = "spawns/main.go";
  auto loop = rec.At(Kind::GoSpawn, f, Line(f, "loop"));
  ASSERT_EQ(loop.size(), 5u);
  for (uint32_t i = 0; i < 5; i++) {
    EXPECT_EQ(loop[i]->val, i);
    EXPECT_EQ(rec.t.FindGoroutine(loop[i]->obj)->stable_id, "1." + std::to_string(i));
  }
  auto loopsend = rec.At(Kind::ChanSend, f, Line(f, "loopsend"));
  ASSERT_EQ(loopsend.size(), 5u);
  std::vector<std::string> senders;
  for (const Record* s : loopsend) senders.push_back(rec.G(s));
  std::sort(senders.begin(), senders.end());
  EXPECT_EQ(senders, (std::vector<std::string>{"1.0", "1.1", "1.2", "1.3", "1.4"}));

  auto method = rec.At(Kind::GoSpawn, f, Line(f, "method"));
  ASSERT_EQ(method.size(), 1u);
  EXPECT_EQ(rec.t.FindGoroutine(method[0]->obj)->stable_id, "1.5");
  auto msend = rec.At(Kind::ChanSend, f, Line(f, "methodsend"));
  ASSERT_EQ(msend.size(), 1u);
  EXPECT_EQ(rec.G(msend[0]), "1.5");
  EXPECT_EQ(rec.t.SiteOf(*msend[0]).function, "main.(*server).run");
  auto nested = rec.At(Kind::GoSpawn, f, Line(f, "nested"));
  ASSERT_EQ(nested.size(), 1u);
  EXPECT_EQ(rec.G(nested[0]), "1.5");
  EXPECT_EQ(rec.t.FindGoroutine(nested[0]->obj)->stable_id, "1.5.0");

  auto generic = rec.At(Kind::GoSpawn, f, Line(f, "generic"));
  ASSERT_EQ(generic.size(), 1u);
  EXPECT_EQ(rec.t.FindGoroutine(generic[0]->obj)->stable_id, "1.6");
  auto gsend = rec.At(Kind::ChanSend, f, Line(f, "genericsend"));
  ASSERT_EQ(gsend.size(), 1u);
  EXPECT_EQ(rec.G(gsend[0]), "1.6");
  EXPECT_TRUE(rec.t.SiteOf(*gsend[0]).function.starts_with("main.send["))
      << rec.t.SiteOf(*gsend[0]).function;
}

TEST_F(RecordTest, Cgo) {
  Recorded rec = RecordRun("cgocall", {"./cgocall"});
  ASSERT_TRUE(rec.ok);
  ExpectSameBehaviour("cgocall", rec);
  const std::string f = "cgocall/main.go";
  auto sends = rec.At(Kind::ChanSend, f, Line(f, "send"));
  auto recvs = rec.At(Kind::ChanRecv, f, Line(f, "recv"));
  ASSERT_EQ(sends.size(), 2u);
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(CheckPairs(rec, sends[0]->obj, "", "1"), 2u);
  EXPECT_EQ(rec.gordian.out, "5 9\n");
}

TEST_F(RecordTest, VendorAndBuildTags) {
  std::string dir = RecordDir() + "/vendormod";
  Recorded rec = RecordRun("vendormod", {"-tags", "gordian_extra", "."}, {}, dir);
  ASSERT_TRUE(rec.ok);
  driver::ProcessResult build =
      Exec({"go", "build", "-tags", "gordian_extra", "-o", *tmp_ + "/vendorplain", "."}, dir);
  ASSERT_TRUE(build.Succeeded()) << build.err;
  driver::ProcessResult plain = Exec({*tmp_ + "/vendorplain"}, dir);
  EXPECT_EQ(rec.gordian.out, plain.out);
  EXPECT_EQ(rec.gordian.out, "42\nextra\n");
  EXPECT_EQ(rec.Summary().exit_status, 0u);
  auto send = rec.At(Kind::ChanSend, "vendormod/extra.go", Line("vendormod/extra.go", "extrasend"));
  auto recv = rec.At(Kind::ChanRecv, "vendormod/main.go", Line("vendormod/main.go", "extrarecv"));
  ASSERT_EQ(send.size(), 1u);
  ASSERT_EQ(recv.size(), 1u);
  EXPECT_EQ(send[0]->obj, recv[0]->obj);
  EXPECT_EQ(send[0]->val, recv[0]->val);
  const std::string dep = "vendormod/vendor/example.com/dep/dep.go";
  auto depmake = rec.At(Kind::ChanMake, dep, Line(dep, "depmake"));
  ASSERT_EQ(depmake.size(), 1u);
  EXPECT_EQ(rec.t.SiteOf(*depmake[0]).function, "example.com/dep.Double");
}

// A mutex whose object the GC found dead gives up its id even when its
// memory span holds an object with a finalizer (only that object can come
// back): the second test's sessions, allocated where the first test's
// were, take new ids, so no mutex id is used by both tests' goroutines.
TEST_F(RecordTest, AnObjectNextToAFinalizerGivesUpItsIdWhenDead) {
  std::string out = *tmp_ + "/finalizerspan";
  // The corpus program (tests/corpus/correct), recorded where it lives.
  driver::ProcessResult g =
      Exec({Gordian(), "record", "-o", out, "test", "-count=1",
            "./correct/sessions_next_to_a_finalizer"},
           SourceDir() + "/tests/corpus");
  ASSERT_EQ(g.exit_code, 0) << g.err;
  std::vector<driver::PackageTrace> traces;
  std::string err;
  ASSERT_TRUE(driver::ListTraces(out, &traces, &err)) << err;
  ASSERT_EQ(traces.size(), 1u);
  Recorded rec;
  ASSERT_TRUE(trace::ReadTrace(traces[0].trace_dir, &rec.t, &err)) << err;
  std::map<std::string, std::string> test_g;  // test name -> its goroutine
  for (const Record* r : rec.All(Kind::TestStart)) test_g[rec.t.strings.at(r->val)] = rec.G(r);
  ASSERT_EQ(test_g.size(), 2u);
  auto in = [](const std::string& g, const std::string& test) {
    return g.size() > test.size() && g.compare(0, test.size(), test) == 0 && g[test.size()] == '.';
  };
  std::set<uint32_t> first, second;
  for (const Record& r : rec.t.records) {
    if (r.kind != Kind::MutexLock) continue;
    const std::string gr = rec.G(&r);
    if (in(gr, test_g["TestSessionsTakeAThenB"])) first.insert(r.obj);
    if (in(gr, test_g["TestSessionsTakeBThenA"])) second.insert(r.obj);
  }
  EXPECT_EQ(first.size(), 128u);
  EXPECT_EQ(second.size(), 128u);
  for (uint32_t m : second) EXPECT_EQ(first.count(m), 0u) << "mutex id " << m << " in both tests";
}

TEST_F(RecordTest, TestsAndLeaksOnePerPackage) {
  std::string out = *tmp_ + "/tests";
  driver::ProcessResult g =
      Exec({Gordian(), "record", "-o", out, "test", "./leaktest", "./multi"}, RecordDir());
  EXPECT_EQ(g.exit_code, 0) << g.err;
  driver::ProcessResult plain =
      Exec({"go", "test", "-count=1", "./leaktest", "./multi"}, RecordDir());
  EXPECT_EQ(plain.exit_code, 0);
  // Same package result lines, timings aside.
  auto strip = [](const std::string& s) {
    std::string r;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);) {
      if (size_t t = line.rfind('\t'); line.starts_with("ok") && t != std::string::npos) {
        line.resize(t);
      }
      r += line + "\n";
    }
    return r;
  };
  EXPECT_EQ(strip(g.out), strip(plain.out));

  std::vector<driver::PackageTrace> traces;
  std::string err;
  ASSERT_TRUE(driver::ListTraces(out, &traces, &err)) << err;
  ASSERT_EQ(traces.size(), 2u);
  std::sort(traces.begin(), traces.end(),
            [](const auto& a, const auto& b) { return a.import_path < b.import_path; });
  EXPECT_EQ(traces[0].import_path, "gordian.test/record/leaktest");
  EXPECT_EQ(traces[1].import_path, "gordian.test/record/multi");
  EXPECT_EQ(fs::path(traces[0].trace_dir).filename(), "gordian.test_record_leaktest");

  Recorded rec;
  ASSERT_TRUE(trace::ReadTrace(traces[0].trace_dir, &rec.t, &err)) << err;
  std::map<std::string, const Record*> starts;
  for (const Record* r : rec.All(Kind::TestStart)) starts[rec.t.strings.at(r->val)] = r;
  ASSERT_EQ(starts.size(), 2u);
  ASSERT_TRUE(starts.count("TestLeaks"));
  ASSERT_TRUE(starts.count("TestFine"));
  const std::string f = "leaktest/leak_test.go";
  auto spawn = rec.At(Kind::GoSpawn, f, Line(f, "leakgo"));
  ASSERT_EQ(spawn.size(), 1u);
  std::string test_g = rec.G(starts["TestLeaks"]);
  EXPECT_EQ(rec.G(spawn[0]), test_g);
  std::string leaked = rec.t.FindGoroutine(spawn[0]->obj)->stable_id;
  EXPECT_EQ(leaked, test_g + ".0");
  auto blocked = rec.All(Kind::BlockedAtTestEnd);
  // One at TestLeaks' end, and the same goroutine again at program exit
  // (val 0, written by the exiting goroutine), after the tests.
  ASSERT_EQ(blocked.size(), 2u);
  std::sort(blocked.begin(), blocked.end(),
            [](const Record* a, const Record* b) { return a->tpre < b->tpre; });
  EXPECT_EQ(blocked[1]->val, 0u);
  EXPECT_EQ(blocked[1]->obj, blocked[0]->obj);
  EXPECT_EQ(rec.t.FindGoroutine(blocked[0]->obj)->stable_id, leaked);
  EXPECT_EQ(blocked[0]->val, starts["TestLeaks"]->obj);
  EXPECT_EQ(rec.G(blocked[0]), test_g);
  auto leakrecv = rec.At(Kind::ChanRecv, f, Line(f, "leakrecv"));
  ASSERT_EQ(leakrecv.size(), 1u);
  EXPECT_EQ(leakrecv[0]->tpost, 0u);
  EXPECT_EQ(rec.G(leakrecv[0]), leaked);
  EXPECT_NE(g.err.find("1 goroutine blocked at test end"), std::string::npos) << g.err;

  Recorded multi;
  ASSERT_TRUE(trace::ReadTrace(traces[1].trace_dir, &multi.t, &err)) << err;
  EXPECT_EQ(multi.All(Kind::TestStart).size(), 1u);
  auto wait = multi.At(Kind::WgWait, "multi/multi_test.go", Line("multi/multi_test.go", "wait"));
  ASSERT_EQ(wait.size(), 1u);
  EXPECT_NE(wait[0]->tpost, 0u);
}

// The exec wrapper keeps go test's binary in the package's trace directory
// when asked (driver::RecordOptions::keep_binary), for the replays
// that confirm the package's findings, and not otherwise; the request is
// not passed on to the binary.
TEST_F(RecordTest, ExecWrapperKeepsTheTestBinaryWhenAsked) {
  std::string script = *tmp_ + "/fake.test";
  std::ofstream(script) << "#!/bin/sh\necho \"keep=${GORDIAN_KEEP_BINARY:-unset} "
                           "dir=$GORDIAN_TRACE_DIR\"\n";
  fs::permissions(script, fs::perms::owner_all);
  for (bool keep : {true, false}) {
    SCOPED_TRACE(keep ? "asked" : "not asked");
    std::string out = *tmp_ + (keep ? "/kept" : "/notkept");
    fs::create_directories(out);
    driver::ProcessSpec spec;
    spec.argv = {Gordian(), "record", "--exec-wrapper", script, "-test.v"};
    spec.cwd = RecordDir() + "/multi";
    spec.pass_through = false;
    spec.set_env["GORDIAN_RECORD_OUT"] = out;
    if (keep) spec.set_env["GORDIAN_KEEP_BINARY"] = "1";
    driver::ProcessResult r;
    std::string err;
    ASSERT_TRUE(driver::RunProcess(spec, &r, &err)) << err;
    ASSERT_EQ(r.exit_code, 0) << r.err;
    fs::path dir = out + "/gordian.test_record_multi";
    EXPECT_EQ(r.out, "keep=unset dir=" + dir.string() + "\n");
    fs::path kept = dir / driver::kKeptBinaryFile;
    EXPECT_EQ(fs::exists(kept), keep);
    if (keep) {
      std::ifstream a(script), b(kept);
      std::stringstream sa, sb;
      sa << a.rdbuf();
      sb << b.rdbuf();
      EXPECT_EQ(sb.str(), sa.str());
      EXPECT_EQ(access(kept.c_str(), X_OK), 0);
    }
  }
}

// Run mode with keep_binary: the program is moved beside its trace
// (driver::ProgramBinary says how it ran), and RecordProgramBinary runs it
// again, without go build, as the recording did: same arguments, a trace
// of the same run. Without keep_binary nothing is kept.
TEST_F(RecordTest, RunModeKeepsTheProgramToRunAgain) {
  setenv("GORDIAN_RUNTIME_DIR", (SourceDir() + "/runtime/std").c_str(), 1);
  for (bool keep : {true, false}) {
    SCOPED_TRACE(keep ? "kept" : "not kept");
    driver::RecordOptions o = InProcess(driver::RecordMode::kRun, {"./unbuffered", "one", "two"},
                                        keep ? "/keptrun" : "/notkeptrun", keep);
    driver::RecordResult r;
    std::string err;
    ASSERT_TRUE(driver::Record(o, &r, &err)) << err;
    ASSERT_EQ(r.traces.size(), 1u) << r.run.err;
    if (!keep) {
      EXPECT_TRUE(r.program.path.empty());
      EXPECT_FALSE(fs::exists(r.out_dir + "/" + driver::kKeptBinaryFile));
      continue;
    }
    EXPECT_EQ(r.program.path, r.out_dir + "/" + driver::kKeptBinaryFile);
    EXPECT_EQ(access(r.program.path.c_str(), X_OK), 0);
    EXPECT_EQ(r.program.program_args, (std::vector<std::string>{"one", "two"}));
    EXPECT_EQ(r.program.record_args, o.args);
    EXPECT_EQ(r.program.cwd, RecordDir());
    Trace first;
    ASSERT_TRUE(trace::ReadTrace(r.traces[0].trace_dir, &first, &err)) << err;

    driver::BinaryRun run;
    run.args = r.program.program_args;
    run.out_dir = *tmp_ + "/rerun";
    run.pass_through = false;
    driver::RecordResult again;
    ASSERT_TRUE(driver::RecordProgramBinary(r.program, run, &again, &err)) << err;
    ASSERT_EQ(again.traces.size(), 1u) << again.run.err;
    EXPECT_EQ(again.run.exit_code, 0) << again.run.err;
    Trace second;
    ASSERT_TRUE(trace::ReadTrace(again.traces[0].trace_dir, &second, &err)) << err;
    EXPECT_EQ(second.meta["argc"], "3");
    EXPECT_EQ(second.meta["arg.1"], "one");
    EXPECT_EQ(second.meta["arg.2"], "two");
    EXPECT_EQ(second.records.size(), first.records.size());
  }
}

// Test mode through go test: each package's test binary is kept beside its
// trace when Record is asked (keep_binary), and not when it is not, even
// with the wrapper's switch in gordian's own environment.
TEST_F(RecordTest, TestModeKeepsTheTestBinaryOnlyWhenAsked) {
  setenv("GORDIAN_RUNTIME_DIR", (SourceDir() + "/runtime/std").c_str(), 1);
  setenv("GORDIAN_KEEP_BINARY", "1", 1);
  for (bool keep : {true, false}) {
    SCOPED_TRACE(keep ? "asked" : "not asked");
    driver::RecordOptions o =
        InProcess(driver::RecordMode::kTest, {"./multi"}, keep ? "/keptbin" : "/notkeptbin", keep);
    driver::RecordResult r;
    std::string err;
    ASSERT_TRUE(driver::Record(o, &r, &err)) << err;
    ASSERT_EQ(r.traces.size(), 1u) << r.run.err;
    std::string kept = r.traces[0].trace_dir + "/" + driver::kKeptBinaryFile;
    EXPECT_EQ(access(kept.c_str(), X_OK) == 0, keep);
  }
  unsetenv("GORDIAN_KEEP_BINARY");
}

TEST_F(RecordTest, WallClockLimitKillsAHangingProgram) {
  auto start = std::chrono::steady_clock::now();
  Recorded rec = RecordRun("hang", {"./hang"}, {"-wall", "2s"});
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(rec.ok);
  EXPECT_LT(secs, 60);
  EXPECT_EQ(rec.gordian.exit_code, 0);
  EXPECT_NE(rec.gordian.err.find("wall-clock limit"), std::string::npos) << rec.gordian.err;
  EXPECT_EQ(rec.gordian.out, "looping\n");
  const std::string f = "hang/main.go";
  EXPECT_EQ(rec.At(Kind::ChanSend, f, Line(f, "send")).size(), 1u);
  EXPECT_EQ(rec.At(Kind::ChanRecv, f, Line(f, "recv")).size(), 1u);
  EXPECT_FALSE(rec.Summary().exited);
}

TEST_F(RecordTest, BuildFailureNamesTheLine) {
  driver::ProcessResult g = Exec(
      {Gordian(), "record", "-o", *tmp_ + "/broken", "run", "./testdata/broken"}, RecordDir());
  EXPECT_EQ(g.exit_code, 2);
  std::string want = "gordian record: build failed: testdata/broken/main.go:" +
                     std::to_string(Line("testdata/broken/main.go", "error")) +
                     ":2: undefined: undefinedThing";
  EXPECT_NE(g.err.find(want), std::string::npos) << g.err;
  // A test package that does not build.
  g = Exec({Gordian(), "record", "-o", *tmp_ + "/broken2", "test", "./testdata/broken"},
          RecordDir());
  EXPECT_EQ(g.exit_code, 2);
  EXPECT_NE(g.err.find("build failed: testdata/broken/main.go:"), std::string::npos) << g.err;
}

TEST_F(RecordTest, UsageErrors) {
  struct Case {
    std::vector<std::string> args;
    std::string want;
  } cases[] = {
      {{"record"}, "missing 'test' or 'run'"},
      {{"record", "frob"}, "expected 'test' or 'run'"},
      {{"record", "-wall", "soon", "run"}, "-wall \"soon\""},
      {{"record", "-o", *tmp_ + "/x", "test", "-exec", "foo", "./multi"}, "-exec cannot be used"},
      {{"record", "-o", RecordDir() + "/unbuffered", "run", "./unbuffered"},
       "holds no gordian trace"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> argv = {Gordian()};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    driver::ProcessResult g = Exec(argv, RecordDir());
    EXPECT_EQ(g.exit_code, 2) << c.want;
    EXPECT_NE(g.err.find(c.want), std::string::npos) << g.err;
  }
  EXPECT_TRUE(fs::exists(RecordDir() + "/unbuffered/main.go"));
}

// Under a memory budget too small for the trace, analyze still reports the
// panic that occurred, exits 1 for it, and says what it dropped; a size it
// cannot use is a usage error.
TEST_F(RecordTest, AnalyzeUnderATinyMemoryBudget) {
  Recorded rec = RecordRun("tinymem", {"./panicking"});
  ASSERT_TRUE(rec.ok);
  driver::ProcessResult a =
      Exec({Gordian(), "analyze", "-mem", "1K", "--json", "-", *tmp_ + "/tinymem"}, RecordDir());
  EXPECT_EQ(a.exit_code, 1) << a.err;
  EXPECT_NE(a.out.find("\"degraded\": ["), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("fill the memory budget (1.0 KB)"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("\"kind\": \"panic\""), std::string::npos) << a.out;
  EXPECT_NE(a.err.find("note: analysis degraded: "), std::string::npos) << a.err;
  for (const char* bad : {"0", "1e99", "abc"}) {
    driver::ProcessResult u =
        Exec({Gordian(), "analyze", "-mem", bad, *tmp_ + "/tinymem"}, RecordDir());
    EXPECT_EQ(u.exit_code, 2) << bad;
    EXPECT_NE(u.err.find(std::string("gordian analyze: -mem \"") + bad + "\": "),
              std::string::npos) << u.err;
    EXPECT_EQ(std::count(u.err.begin(), u.err.end(), '\n'), 1) << u.err;
  }
}

TEST_F(RecordTest, DumpOfARecordedTrace) {
  Recorded rec = RecordRun("dumped", {"./unbuffered"});
  ASSERT_TRUE(rec.ok);
  driver::ProcessResult d = Exec({Gordian(), "trace", "dump", *tmp_ + "/dumped"}, RecordDir());
  ASSERT_EQ(d.exit_code, 0) << d.err;
  std::string send_line = std::to_string(Line("unbuffered/main.go", "send"));
  EXPECT_NE(d.out.find("<- ChanSend 1.0 at unbuffered/main.go:" + send_line), std::string::npos)
      << d.out;
  driver::ProcessResult j =
      Exec({Gordian(), "trace", "dump", "--json", *tmp_ + "/dumped"}, RecordDir());
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(std::count(j.out.begin(), j.out.end(), '\n'),
            static_cast<long>(rec.t.records.size()));
}

}  // namespace
}  // namespace gordian
