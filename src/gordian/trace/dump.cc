// This file implements the trace dumps (dump.h). The partner of each
// communication is found through hash indexes built once over the trace:
// (channel, value seq) for sends and receives, the first close of each
// channel, and the Cond tickets of signals and broadcasts.
#include "gordian/trace/dump.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gordian/trace/ids.h"

namespace gordian::trace {
namespace {

uint64_t Key(uint32_t obj, uint32_t val) { return (uint64_t{obj} << 32) | val; }

bool IsChosen(const Record& r, uint8_t dir) {
  return r.kind == Kind::SelectCase && (r.flags & dir) && (r.flags & kChosen);
}

// What a record is tied to: the record index of its partner, or a receive
// that saw a closed channel (partner = the close, when recorded).
struct Partner {
  RecordId rec = kNoRecord;
  bool closed = false;
};

class Partners {
 public:
  explicit Partners(const Trace& t) : t_(t) {
    for (uint32_t i = 0; i < t.records.size(); i++) {
      const Record& r = t.records[i];
      switch (r.kind) {
        case Kind::ChanSend:
          if (r.obj != 0 && r.val != 0 && !(r.flags & kClosed)) sends_.emplace(Key(r.obj, r.val), i);
          break;
        case Kind::ChanRecv:
          if (r.obj != 0 && r.val != 0) recvs_.emplace(Key(r.obj, r.val), i);
          break;
        case Kind::SelectCase:
          if (r.obj == 0 || r.val == 0) break;
          if (IsChosen(r, kDirSend)) sends_.emplace(Key(r.obj, r.val), i);
          if (IsChosen(r, kDirRecv)) recvs_.emplace(Key(r.obj, r.val), i);
          break;
        case Kind::ChanClose:
          if (r.obj != 0 && !(r.flags & kClosed)) closes_.emplace(r.obj, i);
          break;
        case Kind::CondWait:
          if (r.val != 0) waits_.emplace(Key(r.obj, r.val), i);
          break;
        case Kind::CondSignal:
          if (r.val != 0) signals_.emplace(Key(r.obj, r.val), i);
          break;
        case Kind::CondBroadcast:
          broadcasts_[r.obj].push_back(i);
          break;
        default:
          break;
      }
    }
  }

  Partner Of(uint32_t i) const {
    const Record& r = t_.records[i];
    bool send = r.kind == Kind::ChanSend || IsChosen(r, kDirSend);
    bool recv = r.kind == Kind::ChanRecv || IsChosen(r, kDirRecv);
    if (recv && r.obj != 0) {
      if (r.val == 0 && (r.flags & kClosed)) return {Find(closes_, r.obj), true};
      if (r.val != 0) return {Find(sends_, Key(r.obj, r.val)), false};
    }
    if (send && r.obj != 0 && r.val != 0 && !(r.flags & kClosed)) {
      return {Find(recvs_, Key(r.obj, r.val)), false};
    }
    if (r.kind == Kind::CondWait && r.val != 0 && r.tpost != 0) {
      RecordId s = Find(signals_, Key(r.obj, r.val));
      if (s != kNoRecord) return {s, false};
      auto it = broadcasts_.find(r.obj);
      if (it != broadcasts_.end()) {
        for (uint32_t b : it->second) {
          const Record& br = t_.records[b];
          if (br.val >= r.val && br.val - br.aux < r.val) return {b, false};
        }
      }
    }
    if (r.kind == Kind::CondSignal && r.val != 0) {
      return {Find(waits_, Key(r.obj, r.val)), false};
    }
    return {};
  }

 private:
  template <typename M, typename K>
  static RecordId Find(const M& m, K k) {
    auto it = m.find(k);
    return it == m.end() ? kNoRecord : it->second;
  }

  const Trace& t_;
  std::unordered_map<uint64_t, RecordId> sends_, recvs_, waits_, signals_;  // by (obj, val)
  std::unordered_map<uint32_t, RecordId> closes_;                           // by obj
  std::unordered_map<uint32_t, std::vector<RecordId>> broadcasts_;          // by obj
};

// Everything a line needs: owners of records, short file names.
class Dumper {
 public:
  explicit Dumper(const Trace& t) : t_(t), partners_(t) {
    owner_.resize(t.records.size(), 0);
    for (const Goroutine& g : t.goroutines) {
      for (uint32_t i = g.begin; i < g.end && i < owner_.size(); i++) owner_[i] = g.gid;
    }
    auto it = t.meta.find("roots");
    if (it != t.meta.end()) {
      std::string_view rest = it->second;
      while (!rest.empty()) {
        size_t c = rest.find(':');
        std::string_view root = rest.substr(0, c);
        while (root.size() > 1 && root.back() == '/') root.remove_suffix(1);
        if (!root.empty()) roots_.emplace_back(root);
        if (c == std::string_view::npos) break;
        rest.remove_prefix(c + 1);
      }
    }
  }

  std::string_view StableId(uint32_t gid) const {
    const auto* g = t_.FindGoroutine(gid);
    return g != nullptr ? std::string_view(g->stable_id) : std::string_view("?");
  }
  uint32_t Owner(uint32_t rec) const { return owner_[rec]; }

  // A user file relative to the root it is under; anything else as is.
  std::string_view File(const Site& s) const {
    std::string_view f = s.file;
    for (const std::string& root : roots_) {
      if (f.size() > root.size() + 1 && f.starts_with(root) && f[root.size()] == '/') {
        return f.substr(root.size() + 1);
      }
    }
    return f;
  }
  // A file name from sites.txt can hold anything (a crafted trace): control
  // characters and bytes that are not UTF-8 are escaped as {:?} escapes
  // them, never sent to the terminal as is.
  std::string Where(const Record& r) const {
    const Site& s = t_.SiteOf(r);
    if (s.file.empty()) return "?";
    std::string q = fmt::format("{:?}", File(s));
    return fmt::format("{}:{}", std::string_view(q).substr(1, q.size() - 2), s.line);
  }
  std::string String(uint32_t id) const {
    return id < t_.strings.size() ? t_.strings[id] : fmt::format("<string {}>", id);
  }

  // The kind-specific middle of a text line.
  std::string Details(const Record& r) const {
    auto flag = [&](uint8_t f, const char* word) {
      return (r.flags & f) ? std::string(" ") + word : std::string();
    };
    switch (r.kind) {
      case Kind::GoSpawn:
        return fmt::format("child={} index={}", StableId(r.obj), r.val);
      case Kind::GoStart:
        if (r.obj == 0 && r.val == kDefaultCase) return "recorder";
        return fmt::format("parent={} index={}", r.obj == 0 ? "?" : StableId(r.obj), r.val);
      case Kind::GoEnd:
        return "";
      case Kind::ChanMake:
        return fmt::format("chan={} cap={}", r.obj, r.val);
      case Kind::ChanSend:
      case Kind::ChanRecv:
        if (r.obj == 0) return "chan=nil";
        if (r.flags & kClosed) return fmt::format("chan={} closed", r.obj);
        if (r.tpost == 0) {  // no value yet
          return fmt::format("chan={}{}{}", r.obj, flag(kTimer, "timer"),
                             flag(kZeroSize, "zero-size"));
        }
        return fmt::format("chan={} seq={}{}{}", r.obj, r.val, flag(kTimer, "timer"),
                           flag(kZeroSize, "zero-size"));
      case Kind::ChanClose:
        if (r.obj == 0) return "chan=nil";
        return fmt::format("chan={} sent={}{}", r.obj, r.val, flag(kClosed, "already-closed"));
      case Kind::Select: {
        std::string chosen = r.tpost == 0                ? "none"
                             : r.val == kDefaultCase ? "default"
                                                     : fmt::format("{}", r.val);
        return fmt::format("cases={} chosen={}{}", r.aux, chosen, flag(kHasDefault, "has-default"));
      }
      case Kind::SelectCase: {
        std::string s = fmt::format("case={} {} chan={}", r.aux,
                                    (r.flags & kDirSend) ? "send" : "recv",
                                    r.obj == 0 ? std::string("nil") : fmt::format("{}", r.obj));
        if (r.flags & kChosen) s += (r.flags & kClosed) ? " chosen closed" : fmt::format(" chosen seq={}", r.val);
        return s + flag(kTimer, "timer") + flag(kZeroSize, "zero-size");
      }
      case Kind::MutexLock: case Kind::MutexUnlock: case Kind::MutexTryLock:
        return fmt::format("mutex={}{}{}", r.obj, flag(kSuccess, "ok"), flag(kFailed, "FAILED"));
      case Kind::RWLock: case Kind::RWUnlock: case Kind::RLock: case Kind::RUnlock:
      case Kind::RWTryLock: case Kind::RWTryRLock:
        return fmt::format("rwmutex={}{}{}", r.obj, flag(kSuccess, "ok"), flag(kFailed, "FAILED"));
      case Kind::WgAdd:
        return fmt::format("wg={} delta={:+} counter={}{}", r.obj, static_cast<int32_t>(r.val),
                           static_cast<int16_t>(r.aux), flag(kFailed, "NEGATIVE"));
      case Kind::WgWait:
        return fmt::format("wg={} counter={}", r.obj, r.val);
      case Kind::OnceDo:
        return fmt::format("once={}{}", r.obj, flag(kSuccess, "ran"));
      case Kind::CondWait: case Kind::CondSignal:
        return fmt::format("cond={} ticket={}", r.obj, r.val);
      case Kind::CondBroadcast:
        return fmt::format("cond={} counter={} woke={}", r.obj, r.val, r.aux);
      case Kind::Panic:
        return fmt::format("{:?}", String(r.val));
      case Kind::TestStart:
        return fmt::format("test={} {:?}", r.obj, String(r.val));
      case Kind::TestEnd:
        return fmt::format("test={}{}", r.obj, flag(kFailed, "FAILED"));
      case Kind::BlockedAtTestEnd:
        return fmt::format("goroutine={} test={} in={}", StableId(r.obj), r.val,
                           KindName(static_cast<Kind>(r.aux)));
      case Kind::GlobalDeadlock:
        return fmt::format("blocked={}", r.obj);
      case Kind::TestCall: {
        static constexpr const char* kCall[] = {"?", "log", "fail", "fail-now", "skip-now"};
        std::string call = r.val < std::size(kCall) ? kCall[r.val] : fmt::format("{}", r.val);
        return fmt::format("test={} call={}", r.obj, call);
      }
      case Kind::ProgramExit: {
        static constexpr const char* kHow[] = {"main-returned", "os.Exit", "panic",
                                               "fatal-error", "deadlock"};
        std::string how = r.aux < std::size(kHow) ? kHow[r.aux] : fmt::format("{}", r.aux);
        return fmt::format("status={} how={}{}", r.val, how, flag(kExitChecked, "checked"));
      }
      default:
        return fmt::format("obj={} val={}", r.obj, r.val);
    }
  }

  std::string TextLine(uint32_t i) const {
    const Record& r = t_.records[i];
    // A select case has a completion only when it was chosen.
    bool single = r.tpre == r.tpost || (r.kind == Kind::SelectCase && !(r.flags & kChosen));
    std::string stamps = single ? fmt::format("{}", r.tpre)
                         : r.tpost == 0    ? fmt::format("{}-never", r.tpre)
                                           : fmt::format("{}-{}", r.tpre, r.tpost);
    std::string line = fmt::format("{:<8} {:<13} {:<16} {}", StableId(Owner(i)), stamps,
                                   KindName(r.kind), Details(r));
    line += "  ";
    line += Where(r);
    Partner p = partners_.Of(i);
    bool recv_side = r.kind == Kind::ChanRecv || IsChosen(r, kDirRecv) || r.kind == Kind::CondWait;
    if (p.closed) {
      line += "  <- closed";
      if (p.rec != kNoRecord) {
        line += fmt::format(" by {} at {}", StableId(Owner(p.rec)), Where(t_.records[p.rec]));
      }
    } else if (p.rec != kNoRecord) {
      const Record& pr = t_.records[p.rec];
      line += fmt::format("  {} {} {} at {}", recv_side ? "<-" : "->", KindName(pr.kind),
                          StableId(Owner(p.rec)), Where(pr));
    }
    return line;
  }

  std::string JsonLine(uint32_t i) const {
    const Record& r = t_.records[i];
    const Site& s = t_.SiteOf(r);
    nlohmann::ordered_json j;
    j["goroutine"] = StableId(Owner(i));
    j["gid"] = Owner(i);
    j["index"] = i - t_.goroutines[Owner(i) - 1].begin;
    j["kind"] = KindName(r.kind);
    j["object"] = r.obj;
    j["val"] = r.val;
    j["flags"] = r.flags;
    j["aux"] = r.aux;
    j["file"] = File(s);
    j["line"] = s.line;
    j["function"] = s.function;
    j["tpre"] = r.tpre;
    j["tpost"] = r.tpost;
    if (r.kind == Kind::Panic || r.kind == Kind::TestStart) j["string"] = String(r.val);
    Partner p = partners_.Of(i);
    if (p.closed || p.rec != kNoRecord) {
      nlohmann::ordered_json pj;
      if (p.closed) pj["closed"] = true;
      if (p.rec != kNoRecord) {
        const Record& pr = t_.records[p.rec];
        const Site& ps = t_.SiteOf(pr);
        pj["goroutine"] = StableId(Owner(p.rec));
        pj["kind"] = KindName(pr.kind);
        pj["file"] = File(ps);
        pj["line"] = ps.line;
        pj["tpre"] = pr.tpre;
        pj["tpost"] = pr.tpost;
      }
      j["partner"] = std::move(pj);
    }
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }

  // Record indexes in the order to print.
  std::vector<uint32_t> Order(const DumpOptions& opts) const {
    std::vector<uint32_t> order;
    for (const auto& g : t_.goroutines) {
      if (!opts.goroutine.empty() && g.stable_id != opts.goroutine) continue;
      for (uint32_t i = g.begin; i < g.end; i++) order.push_back(i);
    }
    if (opts.by_goroutine) return order;
    // Interleaving: by start stamp; a SelectCase stays after its Select.
    std::vector<uint32_t> key(t_.records.size(), 0);
    for (const auto& g : t_.goroutines) {
      uint32_t last = 0;
      for (uint32_t i = g.begin; i < g.end; i++) {
        if (t_.records[i].kind != Kind::SelectCase) last = t_.records[i].tpre;
        key[i] = last;
      }
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
    return order;
  }

 private:
  const Trace& t_;
  Partners partners_;
  std::vector<uint32_t> owner_;
  std::vector<std::string> roots_;
};

}  // namespace

std::string KindName(Kind k) {
  const char* name = InfoOf(k).name;
  return name != nullptr ? name : fmt::format("Kind({})", static_cast<int>(k));
}

size_t DumpTrace(const Trace& t, const DumpOptions& opts, std::FILE* out) {
  Dumper d(t);
  size_t n = 0;
  for (uint32_t i : d.Order(opts)) {
    std::string line = opts.json ? d.JsonLine(i) : d.TextLine(i);
    line += '\n';
    fwrite(line.data(), 1, line.size(), out);
    n++;
  }
  return n;
}

std::string DumpTraceToString(const Trace& t, const DumpOptions& opts) {
  Dumper d(t);
  std::string out;
  for (uint32_t i : d.Order(opts)) {
    out += opts.json ? d.JsonLine(i) : d.TextLine(i);
    out += '\n';
  }
  return out;
}

}  // namespace gordian::trace
