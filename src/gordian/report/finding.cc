// This file implements the names of finding kinds, statuses and roles as the
// JSON report contract spells them.
#include "gordian/report/finding.h"

namespace gordian::report {

std::string_view KindName(FindingKind k) {
  switch (k) {
    case FindingKind::SendOnClosed: return "send-on-closed";
    case FindingKind::CloseOfClosed: return "close-of-closed";
    case FindingKind::CloseOfNil: return "close-of-nil";
    case FindingKind::NegativeWaitGroup: return "negative-waitgroup";
    case FindingKind::UnlockOfUnlocked: return "unlock-of-unlocked";
    case FindingKind::GlobalDeadlock: return "global-deadlock";
    case FindingKind::GoroutineLeak: return "goroutine-leak";
    case FindingKind::DoubleLock: return "double-lock";
    case FindingKind::LockOrderDeadlock: return "lock-order-deadlock";
    case FindingKind::MixedDeadlock: return "mixed-deadlock";
    case FindingKind::Panic: return "panic";
    case FindingKind::RecvOnClosed: return "recv-on-closed";
    case FindingKind::ConcurrentRecv: return "concurrent-recv";
    case FindingKind::AlternativePartner: return "alternative-partner";
    case FindingKind::MessageContention: return "message-contention";
    case FindingKind::SelectCaseAlternatives: return "select-case-alternatives";
    case FindingKind::Count_: break;
  }
  return "?";
}

std::string_view KindTitle(FindingKind k) {
  switch (k) {
    case FindingKind::SendOnClosed: return "send on closed channel";
    case FindingKind::CloseOfClosed: return "close of closed channel";
    case FindingKind::CloseOfNil: return "close of nil channel";
    case FindingKind::NegativeWaitGroup: return "negative WaitGroup counter";
    case FindingKind::UnlockOfUnlocked: return "unlock of unlocked mutex";
    case FindingKind::GlobalDeadlock: return "deadlock: all goroutines are blocked";
    case FindingKind::GoroutineLeak: return "goroutine leak";
    case FindingKind::DoubleLock: return "double lock";
    case FindingKind::LockOrderDeadlock: return "lock-order deadlock";
    case FindingKind::MixedDeadlock: return "mixed channel/lock deadlock";
    case FindingKind::Panic: return "panic";
    case FindingKind::RecvOnClosed: return "receive on closed channel";
    case FindingKind::ConcurrentRecv: return "concurrent receives on one channel";
    case FindingKind::AlternativePartner: return "alternative communication partner";
    case FindingKind::MessageContention: return "message contention";
    case FindingKind::SelectCaseAlternatives: return "select case alternatives";
    case FindingKind::Count_: break;
  }
  return "?";
}

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
  }
  return "?";
}

Severity DefaultSeverity(FindingKind k) {
  switch (k) {
    case FindingKind::RecvOnClosed:
    case FindingKind::ConcurrentRecv:
      return Severity::Warning;
    case FindingKind::AlternativePartner:
    case FindingKind::MessageContention:
    case FindingKind::SelectCaseAlternatives:
      return Severity::Info;
    default:
      return Severity::Bug;
  }
}

bool CountsAsBug(const Finding& f) {
  return f.severity == Severity::Bug && f.status != Status::Unconfirmed;
}

}  // namespace gordian::report
