// This file holds small helpers shared by the report tests: a finding with
// two locations and an interleaving, built by hand.
#pragma once

#include <string>

#include "gordian/report/finding.h"

namespace gordian::report::testing {

inline Location Loc(std::string file, uint32_t line, Role role, std::string g,
                    uint32_t column = 0, uint32_t stamp = 0) {
  Location l;
  l.file = std::move(file);
  l.line = line;
  l.column = column;
  l.role = role;
  l.goroutine = std::move(g);
  l.tpre = stamp;
  return l;
}

// A send-on-closed: goroutine 1.0 sends at hub.go:12, goroutine 1 closed at hub.go:20.
inline Finding SendOnClosed(std::string dir = "pkg/") {
  Finding f;
  f.kind = FindingKind::SendOnClosed;
  f.status = Status::Occurred;
  f.severity = Severity::Bug;
  f.test = "TestPublish";
  f.message = "goroutine 1.0 sent on a channel after it was closed; the send panics";
  f.locations.push_back(Loc(dir + "hub.go", 12, Role::Send, "1.0", 3, 7));
  f.locations.push_back(Loc(dir + "hub.go", 20, Role::Close, "1", 2, 5));
  f.interleaving.push_back({Loc(dir + "hub.go", 20, Role::Close, "1", 2, 5), "close"});
  f.interleaving.push_back({Loc(dir + "hub.go", 12, Role::Send, "1.0", 3, 7), "send: panic"});
  f.goroutines.push_back({"1", "", 0, "example.com/pkg.TestPublish", ""});
  f.goroutines.push_back({"1.0", dir + "hub.go", 9, "example.com/pkg.(*Hub).loop", ""});
  return f;
}

inline Finding Leak(std::string file, uint32_t line, std::string g, Primitive p) {
  Finding f;
  f.kind = FindingKind::GoroutineLeak;
  f.status = Status::Occurred;
  f.severity = Severity::Bug;
  f.primitive = p;
  f.test = "TestLeak";
  f.message = "goroutine " + g + " is blocked forever";
  f.locations.push_back(Loc(file, line, Role::Send, g));
  f.goroutines.push_back({g, file, 3, "", ""});
  return f;
}

}  // namespace gordian::report::testing
