// This file implements the names of finding kinds (from the table in
// finding_kinds.def), statuses, severities, primitives and roles as the
// JSON report contract spells them, both ways.
#include "gordian/report/finding.h"
#include "gordian/util/enum_names.h"

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
bool Recoverable(FindingKind k) { return ShowsOf(k) == Shows::Panics; }
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

namespace {

constexpr util::EnumName<Status> kStatusNames[] = {
    {Status::Occurred, "occurred"},
    {Status::Predicted, "predicted"},
    {Status::Confirmed, "confirmed"},
    {Status::Unconfirmed, "unconfirmed"},
};
static_assert(util::ListsEveryValue(kStatusNames, Status::Unconfirmed));

constexpr util::EnumName<Severity> kSeverityNames[] = {
    {Severity::Bug, "bug"},
    {Severity::Warning, "warning"},
    {Severity::Info, "info"},
};
static_assert(util::ListsEveryValue(kSeverityNames, Severity::Info));

// None is "" (no primitive), which no report spells: ParsePrimitive
// refuses it.
constexpr util::EnumName<Primitive> kPrimitiveNames[] = {
    {Primitive::None, ""},           {Primitive::ChanSend, "chan-send"},
    {Primitive::ChanRecv, "chan-recv"}, {Primitive::Select, "select"},
    {Primitive::NilChan, "nil-chan"},   {Primitive::Mutex, "mutex"},
    {Primitive::RWMutex, "rwmutex"},    {Primitive::WaitGroup, "waitgroup"},
    {Primitive::Cond, "cond"},
};
static_assert(util::ListsEveryValue(kPrimitiveNames, Primitive::Cond));

constexpr util::EnumName<Role> kRoleNames[] = {
    {Role::Send, "send"},     {Role::Recv, "recv"},   {Role::Close, "close"},
    {Role::Lock, "lock"},     {Role::Unlock, "unlock"}, {Role::Add, "add"},
    {Role::Done, "done"},     {Role::Wait, "wait"},   {Role::Spawn, "spawn"},
    {Role::Select, "select"}, {Role::Make, "make"},   {Role::Panic, "panic"},
    {Role::Read, "read"},     {Role::Write, "write"}, {Role::Call, "call"},
};
static_assert(util::ListsEveryValue(kRoleNames, Role::Call));

}  // namespace

std::string_view StatusName(Status s) { return util::NameOf(kStatusNames, s); }
std::string_view SeverityName(Severity s) { return util::NameOf(kSeverityNames, s); }
std::string_view PrimitiveName(Primitive p) { return util::NameOf(kPrimitiveNames, p); }
std::string_view RoleName(Role r) { return util::NameOf(kRoleNames, r); }

bool ParseStatus(std::string_view name, Status* out) {
  return util::ValueNamed(kStatusNames, name, out);
}
bool ParseSeverity(std::string_view name, Severity* out) {
  return util::ValueNamed(kSeverityNames, name, out);
}
bool ParsePrimitive(std::string_view name, Primitive* out) {
  return !name.empty() && util::ValueNamed(kPrimitiveNames, name, out);
}
bool ParseRole(std::string_view name, Role* out) { return util::ValueNamed(kRoleNames, name, out); }

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
