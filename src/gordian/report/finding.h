// This file defines a finding: one bug, warning or piece of information that
// an analysis reports about a Go program. Detectors produce findings; the
// renderers (terminal, JSON, SARIF) consume them. The JSON report contract
// (version 1: docs/design.md, "The JSON report") is this struct written out
// field by field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gordian::report {

// The kinds and everything about each (name, severity, title, description,
// rewrite): finding_kinds.def.
enum class FindingKind : uint8_t {
#define GORDIAN_FINDING_KIND(Id, ...) Id,
#include "gordian/report/finding_kinds.def"
#undef GORDIAN_FINDING_KIND
  Count_
};

enum class Status : uint8_t { Occurred, Predicted, Confirmed, Unconfirmed };
enum class Severity : uint8_t { Bug, Warning, Info };

// Step::record of a step made from no trace record (report does not use
// trace/, whose kNoRecord has the same value).
inline constexpr uint32_t kNoTraceRecord = 0xffffffffu;

// How a kind's bug shows when it happens (the "shows" column of
// finding_kinds.def): a panic that stops the program unless recovered, a
// fatal runtime error no recover catches, goroutines that wait forever,
// unordered memory accesses, or a program that goes on doing something else.
enum class Shows : uint8_t { Panics, Fatal, Blocks, Races, Misbehaves };

// What a leaked goroutine is blocked on (JSON "primitive").
enum class Primitive : uint8_t {
  None, ChanSend, ChanRecv, Select, NilChan, Mutex, RWMutex, WaitGroup, Cond
};

// "panic" extends the contract's role list: where a panic finding was raised;
// "read" and "write" too: the two memory accesses of a data-race finding;
// "call": a call of a testing method (Log, Error, Fatal, ...) on a test's T.
enum class Role : uint8_t {
  Send, Recv, Close, Lock, Unlock, Add, Done, Wait, Spawn, Select, Make, Panic, Read, Write, Call
};

struct Location {
  std::string file;        // relative to the module root when possible (absolute
                           // until RelativizePaths runs)
  std::string path;        // not in JSON: the absolute path on disk, for excerpts
                           // (set by RelativizePaths; empty means `file`)
  uint32_t line = 0;
  uint32_t column = 0;     // 0 when unknown
  Role role = Role::Send;
  std::string goroutine;   // stable id (spawn path), e.g. "1.0.2"
  std::string function;    // enclosing function, for the terminal report
  uint32_t tpre = 0;       // trace stamps, to print the interleaving in order
  uint32_t tpost = 0;
  int32_t select_case = -1;  // not in JSON: for a case of the select at `line`, its
                             // runtime index (docs/trace-format.md "Select"); else -1
};

// One operation of the interleaving that leads to a finding (terminal report,
// SARIF threadFlows). Not in the JSON contract.
struct Step {
  Location loc;      // loc.tpre orders the steps
  std::string what;  // e.g. "close(ch)", "send on ch (blocked forever)"
  // The synchronisation object the operation is on, as (class << 32) | the
  // trace's object id (trace/kinds.def; 0 = none or unknown), and for a
  // channel send or receive the value's sequence number on that channel (0 =
  // none): a receive with the same object and seq got that send's value. The
  // HTML timeline draws send->receive, close->affected operation and
  // lock-held spans from these.
  uint64_t object = 0;
  uint32_t seq = 0;
  // In the schedule the finding describes, this operation never completes
  // (it blocks forever): OccurredIndex::StepOf sets it for a blocking record
  // that never completed, the predictive detectors for the operations their
  // other schedule blocks.
  bool blocks = false;
  // Not in any report: the trace record the step was made from (valid for
  // that trace only; kNoTraceRecord when none).
  uint32_t record = kNoTraceRecord;
};

// A goroutine involved in a finding, for the terminal report. Not in the JSON
// contract.
struct GoroutineInfo {
  std::string id;           // stable id (spawn path)
  std::string spawn_file;   // where the go statement is; empty for main/unknown
  uint32_t spawn_line = 0;
  std::string function;     // the goroutine's function, when known
  // How it started when not at a go statement, when its producer knows
  // (gordian verify: "the model's entry point"); else the report says.
  std::string origin;
};

// Where g came from, for people: "spawned at f.go:12", "the main
// goroutine", its origin, or "started outside user code (...)".
std::string GoroutineWhere(const GoroutineInfo& g);

struct Finding {
  FindingKind kind = FindingKind::Panic;
  Status status = Status::Occurred;
  Severity severity = Severity::Bug;
  Primitive primitive = Primitive::None;  // goroutine-leak only
  std::string test;                       // test name, empty for a main program
  std::string message;                    // one sentence
  std::vector<Location> locations;        // the primary location first
  std::string reproduce;                  // command that replays it, when there is one
  std::string reproduce_schedule;         // not in JSON: the schedule file `reproduce` replays
  // Why a predicted bug was not confirmed ("the confirmation budget ran
  // out; ..."): such a finding is a warning, never a bug (SettleUnconfirmed).
  // JSON "note" when set.
  std::string note;
  // gordian fuzz: the schedule of the run that showed the bug, as its
  // campaign names it ("delay 300ms pool.go:41#2", "select pool.go:60 case
  // 1 (timer)"); "" when a run without a schedule showed it, and for the
  // other commands. JSON "found_under" when set.
  std::string found_under;
  // Not in the JSON contract: an identity for de-duplication (the same bug
  // seen by several goroutines or loop iterations is reported once).
  std::string dedup_key;
  // Not in the JSON contract: the trace record indices behind a predicted
  // finding, parallel to `locations` (records[i] is where locations[i] came
  // from); rewrite/rewrite.h turns them into a schedule. Valid only for the
  // trace the finding was computed from; empty for other findings.
  std::vector<uint32_t> records;

  // Not in the JSON contract: what the terminal and SARIF reports add.
  std::vector<GoroutineInfo> goroutines;  // every goroutine involved, merged by Dedup
  std::vector<Step> interleaving;         // in stamp order
  // Not in JSON, SARIF or the terminal report: the exact partners of the
  // interleaving's sends and receives that are not steps themselves (the
  // send whose value a step received), which the HTML timeline draws
  // faded, with their send->receive arrows. Occurred findings only.
  std::vector<Step> context;
  std::vector<std::string> other_tests;   // further tests that hit the same bug
  // Other kinds the same bug was also found as (report::MergeDeadlockKinds:
  // "global-deadlock" for a mixed deadlock that blocked every goroutine).
  // JSON "also" when set.
  std::vector<std::string> also;
  uint32_t occurrences = 1;               // how many raw findings Dedup merged into this one
  // gordian verify only (JSON "score"): of the valuations of the model's
  // parameters that were checked, how many show this bug (Gomela's
  // score is failing / checked: the higher, the likelier a real bug), and
  // whether its counterexample takes a branch on data the model does not
  // track (either way taken, or a choice among possible callees), which
  // makes a false alarm likelier.
  struct Score {
    uint32_t failing = 0;
    uint32_t checked = 0;
    bool untracked_data = false;
  };
  std::optional<Score> score;
};

std::string_view KindName(FindingKind k);   // "send-on-closed", ...
std::string_view KindTitle(FindingKind k);  // "send on closed channel", for people
std::string_view KindDescription(FindingKind k);  // two sentences: what it is, why it matters
// The kind named name ("send-on-closed", ...); false if there is none.
// Likewise the other names below, as the JSON report spells them (a
// primitive is never "").
bool ParseKind(std::string_view name, FindingKind* out);
bool ParseStatus(std::string_view name, Status* out);
bool ParseSeverity(std::string_view name, Severity* out);
bool ParsePrimitive(std::string_view name, Primitive* out);
bool ParseRole(std::string_view name, Role* out);
std::string_view StatusName(Status s);      // "occurred", ...
std::string_view SeverityName(Severity s);  // "bug", ...
std::string_view PrimitiveName(Primitive p);// "chan-send", ...
std::string_view RoleName(Role r);          // "send", ...
Severity DefaultSeverity(FindingKind k);
Shows ShowsOf(FindingKind k);
// True when the kind's bug stops the program (Panics or Fatal).
bool Crashes(FindingKind k);
// True when a deferred recover() can stop the kind's bug (Panics; a Fatal
// runtime error, such as unlock of an unlocked mutex, no recover stops).
bool Recoverable(FindingKind k);
// The messages Go's runtime panics with for the kind (the runtime_panic
// column), none for a kind that is no runtime failure.
std::vector<std::string_view> RuntimePanicTexts(FindingKind k);

// True when a finding makes a command exit 1: a bug that occurred or that a
// replay confirmed. A prediction nobody replayed, or one a replay refuted,
// never decides the exit status.
bool CountsAsBug(const Finding& f);

// Turns each bug that is only predicted (no replay confirmed it, none
// refuted it) into a warning that says so: its note tells why it was not
// confirmed (default_note when the confirmation left none). Every command
// calls it before it reports, so that the terminal, JSON, SARIF and HTML
// reports and the exit status agree.
void SettleUnconfirmed(std::vector<Finding>* findings, const std::string& default_note);

}  // namespace gordian::report
