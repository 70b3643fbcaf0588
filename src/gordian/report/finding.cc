// This file implements the names of finding kinds (from the table in
// finding_kinds.def), statuses and roles as the JSON report contract spells
// them.
#include "gordian/report/finding.h"

#include <fmt/format.h>

#include <iterator>

namespace gordian::report {

namespace {

struct KindInfo {
  std::string_view name;
  std::string_view title;
  std::string_view description;
  Severity severity;
  Shows shows;
  std::string_view runtime_panic;
};

constexpr KindInfo kKinds[] = {
#define GORDIAN_FINDING_KIND(Id, name, severity, shows, runtime_panic, rewrite, title, \
                             description)                                             \
  {name, title, description, Severity::severity, Shows::shows, runtime_panic},
#include "gordian/report/finding_kinds.def"
#undef GORDIAN_FINDING_KIND
};
static_assert(std::size(kKinds) == static_cast<size_t>(FindingKind::Count_));

constexpr KindInfo kUnknown{"?", "?", "", Severity::Bug, Shows::Misbehaves, ""};

constexpr const KindInfo& InfoOf(FindingKind k) {
  size_t i = static_cast<size_t>(k);
  return i < std::size(kKinds) ? kKinds[i] : kUnknown;
}

}  // namespace

std::string_view KindName(FindingKind k) { return InfoOf(k).name; }
std::string_view KindTitle(FindingKind k) { return InfoOf(k).title; }
std::string_view KindDescription(FindingKind k) { return InfoOf(k).description; }
Shows ShowsOf(FindingKind k) { return InfoOf(k).shows; }
bool Crashes(FindingKind k) {
  Shows s = ShowsOf(k);
  return s == Shows::Panics || s == Shows::Fatal;
}
std::vector<std::string_view> RuntimePanicTexts(FindingKind k) {
  std::vector<std::string_view> out;
  std::string_view all = InfoOf(k).runtime_panic;
  while (!all.empty()) {
    size_t bar = all.find('|');
    out.push_back(all.substr(0, bar));
    all = bar == std::string_view::npos ? std::string_view() : all.substr(bar + 1);
  }
  return out;
}
Severity DefaultSeverity(FindingKind k) { return InfoOf(k).severity; }

bool ParseKind(std::string_view name, FindingKind* out) {
  for (int i = 0; i < static_cast<int>(FindingKind::Count_); i++) {
    auto k = static_cast<FindingKind>(i);
    if (KindName(k) == name) {
      *out = k;
      return true;
    }
  }
  return false;
}

bool ParseStatus(std::string_view name, Status* out) {
  for (Status s : {Status::Occurred, Status::Predicted, Status::Confirmed, Status::Unconfirmed}) {
    if (StatusName(s) == name) {
      *out = s;
      return true;
    }
  }
  return false;
}

bool ParsePrimitive(std::string_view name, Primitive* out) {
  for (int i = 1; i <= static_cast<int>(Primitive::Cond); i++) {
    auto p = static_cast<Primitive>(i);
    if (PrimitiveName(p) == name) {
      *out = p;
      return true;
    }
  }
  return false;
}

std::string_view StatusName(Status s) {
  switch (s) {
    case Status::Occurred: return "occurred";
    case Status::Predicted: return "predicted";
    case Status::Confirmed: return "confirmed";
    case Status::Unconfirmed: return "unconfirmed";
  }
  return "?";
}

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::Bug: return "bug";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
  }
  return "?";
}

std::string_view PrimitiveName(Primitive p) {
  switch (p) {
    case Primitive::None: return "";
    case Primitive::ChanSend: return "chan-send";
    case Primitive::ChanRecv: return "chan-recv";
    case Primitive::Select: return "select";
    case Primitive::NilChan: return "nil-chan";
    case Primitive::Mutex: return "mutex";
    case Primitive::RWMutex: return "rwmutex";
    case Primitive::WaitGroup: return "waitgroup";
    case Primitive::Cond: return "cond";
  }
  return "?";
}

std::string_view RoleName(Role r) {
  switch (r) {
    case Role::Send: return "send";
    case Role::Recv: return "recv";
    case Role::Close: return "close";
    case Role::Lock: return "lock";
    case Role::Unlock: return "unlock";
    case Role::Add: return "add";
    case Role::Done: return "done";
    case Role::Wait: return "wait";
    case Role::Spawn: return "spawn";
    case Role::Select: return "select";
    case Role::Make: return "make";
    case Role::Panic: return "panic";
    case Role::Read: return "read";
    case Role::Write: return "write";
  }
  return "?";
}

bool CountsAsBug(const Finding& f) {
  return f.severity == Severity::Bug &&
         (f.status == Status::Occurred || f.status == Status::Confirmed);
}

void SettleUnconfirmed(std::vector<Finding>* findings, const std::string& default_note) {
  for (Finding& f : *findings) {
    if (f.severity != Severity::Bug || f.status != Status::Predicted) continue;
    f.severity = Severity::Warning;
    if (f.note.empty()) f.note = default_note;
  }
}

std::string GoroutineWhere(const GoroutineInfo& g) {
  if (!g.spawn_file.empty()) return fmt::format("spawned at {}:{}", g.spawn_file, g.spawn_line);
  if (g.id == "1") return "the main goroutine";
  if (!g.origin.empty()) return g.origin;
  return "started outside user code (testing package or runtime)";
}

}  // namespace gordian::report
