// This file defines a finding: one bug, warning or piece of information that
// an analysis reports about a Go program. Detectors produce findings; the
// renderers (terminal, JSON, SARIF) consume them. The JSON report contract of
// ../shared/DESIGN.md ("version 1") is this struct written out field by field.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gordian::report {

enum class FindingKind : uint8_t {
  SendOnClosed,
  CloseOfClosed,
  CloseOfNil,
  NegativeWaitGroup,
  UnlockOfUnlocked,
  GlobalDeadlock,
  GoroutineLeak,
  DoubleLock,
  LockOrderDeadlock,
  MixedDeadlock,
  Panic,
  // warnings
  RecvOnClosed,
  ConcurrentRecv,
  // info (seed 001's analysis scenarios)
  AlternativePartner,
  MessageContention,
  SelectCaseAlternatives,
  Count_
};

enum class Status : uint8_t { Occurred, Predicted, Confirmed, Unconfirmed };
enum class Severity : uint8_t { Bug, Warning, Info };

// What a leaked goroutine is blocked on (JSON "primitive").
enum class Primitive : uint8_t {
  None, ChanSend, ChanRecv, Select, NilChan, Mutex, RWMutex, WaitGroup, Cond
};

enum class Role : uint8_t {
  Send, Recv, Close, Lock, Unlock, Add, Done, Wait, Spawn, Select, Make
};

struct Location {
  std::string file;        // relative to the module root when possible
  uint32_t line = 0;
  uint32_t column = 0;     // 0 when unknown
  Role role = Role::Send;
  std::string goroutine;   // stable id (spawn path), e.g. "1.0.2"
  std::string function;    // enclosing function, for the terminal report
  uint32_t tpre = 0;       // trace stamps, to print the interleaving in order
  uint32_t tpost = 0;
};

struct Finding {
  FindingKind kind = FindingKind::Panic;
  Status status = Status::Occurred;
  Severity severity = Severity::Bug;
  Primitive primitive = Primitive::None;  // goroutine-leak only
  std::string test;                       // test name, empty for a main program
  std::string message;                    // one sentence
  std::vector<Location> locations;        // the primary location first
  std::string reproduce;                  // command that replays it, when there is one
  // Not in the JSON contract: an identity for de-duplication (the same bug
  // seen by several goroutines or loop iterations is reported once).
  std::string dedup_key;
};

std::string_view KindName(FindingKind k);   // "send-on-closed", ...
std::string_view StatusName(Status s);      // "occurred", ...
std::string_view SeverityName(Severity s);  // "bug", ...
std::string_view PrimitiveName(Primitive p);// "chan-send", ...
std::string_view RoleName(Role r);          // "send", ...
Severity DefaultSeverity(FindingKind k);

}  // namespace gordian::report
