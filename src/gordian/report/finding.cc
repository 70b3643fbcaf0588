// This file implements the names of finding kinds, statuses and roles as the
// JSON report contract spells them.
#include "gordian/report/finding.h"

namespace gordian::report {

std::string_view KindName(FindingKind k) {
  switch (k) {
    case FindingKind::DataRace: return "data-race";
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
    case FindingKind::DataRace: return "data race";
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

std::string_view KindDescription(FindingKind k) {
  switch (k) {
    case FindingKind::DataRace:
      return "Two goroutines access the same memory concurrently and at least one access is "
             "a write, with nothing ordering them (Go's race detector saw it happen). The "
             "result depends on the schedule, and the program may read torn or stale values.";
    case FindingKind::SendOnClosed:
      return "A goroutine sends on a channel that another goroutine has closed. "
             "The send panics and takes the program down.";
    case FindingKind::CloseOfClosed:
      return "A channel is closed twice. The second close panics.";
    case FindingKind::CloseOfNil:
      return "A nil channel is closed, usually one that was never made. The close panics.";
    case FindingKind::NegativeWaitGroup:
      return "WaitGroup.Done or Add drives the counter below zero, typically because Add "
             "runs after the goroutine it counts has finished. The call panics.";
    case FindingKind::UnlockOfUnlocked:
      return "Unlock or RUnlock of a lock that is not held. This is a fatal error that "
             "cannot be recovered.";
    case FindingKind::GlobalDeadlock:
      return "Every goroutine of the program is blocked on a channel or lock, so none can "
             "ever proceed. The program hangs.";
    case FindingKind::GoroutineLeak:
      return "A goroutine is blocked forever on a channel, select, lock, WaitGroup or Cond "
             "after its test or program ended. It keeps its stack and everything it "
             "references alive.";
    case FindingKind::DoubleLock:
      return "A goroutine acquires a lock it already holds. Go's locks are not reentrant, so "
             "it blocks forever.";
    case FindingKind::LockOrderDeadlock:
      return "Goroutines acquire the same locks in different orders. In some schedule each "
             "holds a lock the other waits for, and both block forever.";
    case FindingKind::MixedDeadlock:
      return "A goroutine waits on a channel while holding a lock that its communication "
             "partner needs first. Both block forever.";
    case FindingKind::Panic:
      return "The program panicked and the panic was not recovered.";
    case FindingKind::RecvOnClosed:
      return "A receive got the zero value of a closed channel, and the code uses the value "
             "without checking `ok`. It may take the zero value for real data.";
    case FindingKind::ConcurrentRecv:
      return "Several goroutines wait to receive from the same channel at different places "
             "in the code. Which of them gets a value depends on the schedule.";
    case FindingKind::AlternativePartner:
      return "A communication could have paired with another partner in a different "
             "schedule.";
    case FindingKind::MessageContention:
      return "Several senders compete for the same receiver; the order of their messages "
             "depends on the schedule.";
    case FindingKind::SelectCaseAlternatives:
      return "A select could have chosen another case in a different schedule.";
    case FindingKind::Count_:
      break;
  }
  return "";
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
    case Role::Read: return "read";
    case Role::Write: return "write";
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
