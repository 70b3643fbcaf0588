// This file implements Dedup and SortFindings (dedup.h).
#include "gordian/report/dedup.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

namespace gordian::report {
namespace {

std::string Site(const Location& l) {
  return fmt::format("{}:{}:{}", l.file, l.line, l.column);
}

std::string PrimaryKey(const Finding& f) {
  std::string k(KindName(f.kind));
  if (f.kind == FindingKind::GoroutineLeak) k += fmt::format("|{}", PrimitiveName(f.primitive));
  k += "|";
  if (!f.locations.empty()) k += Site(f.locations[0]);
  return k;
}

int Rank(Status s) {
  switch (s) {
    case Status::Occurred: return 4;
    case Status::Confirmed: return 3;
    case Status::Predicted: return 2;
    case Status::Unconfirmed: return 1;
  }
  return 0;
}

// Merges b into a (a has the stronger status).
void Merge(Finding* a, Finding&& b) {
  // A refuted finding's tests are where a replay did not show the bug, and
  // its goroutines and partners are those of the refuted schedule: none of
  // them may describe a finding that stands (a verify warning no test
  // reaches would read "in TestX" after TestX refuted the same bug).
  if (b.status == Status::Unconfirmed && a->status != Status::Unconfirmed) {
    a->occurrences += b.occurrences;
    return;
  }
  std::set<std::string> ids;
  for (const GoroutineInfo& g : a->goroutines) ids.insert(g.id);
  for (GoroutineInfo& g : b.goroutines) {
    if (ids.insert(g.id).second) a->goroutines.push_back(std::move(g));
  }
  std::set<std::tuple<int, std::string>> sites;
  for (const Location& l : a->locations) sites.insert({static_cast<int>(l.role), Site(l)});
  // records stays parallel to locations when both sides have it (and the
  // two findings come from one trace); otherwise it no longer means anything.
  bool parallel = a->records.size() == a->locations.size() &&
                  b.records.size() == b.locations.size();
  for (size_t i = 0; i < b.locations.size(); i++) {
    Location& l = b.locations[i];
    if (sites.insert({static_cast<int>(l.role), Site(l)}).second) {
      a->locations.push_back(std::move(l));
      if (parallel) a->records.push_back(b.records[i]);
    }
  }
  if (a->records.size() != a->locations.size()) a->records.clear();
  if (a->reproduce.empty() && !b.reproduce.empty()) {
    a->reproduce = std::move(b.reproduce);
    a->reproduce_schedule = std::move(b.reproduce_schedule);
    // The finding is named by the test its reproduce command replays (one
    // test alone); the other becomes one of "also in".
    if (!b.test.empty()) std::swap(a->test, b.test);
  }
  if (a->note.empty()) a->note = std::move(b.note);
  if (a->test.empty()) a->test = b.test;
  if (!b.test.empty() && b.test != a->test &&
      std::find(a->other_tests.begin(), a->other_tests.end(), b.test) == a->other_tests.end()) {
    a->other_tests.push_back(b.test);
  }
  for (std::string& t : b.other_tests) {
    if (t != a->test && std::find(a->other_tests.begin(), a->other_tests.end(), t) ==
                            a->other_tests.end()) {
      a->other_tests.push_back(std::move(t));
    }
  }
  std::erase(a->other_tests, a->test);
  for (std::string& k : b.also) {
    if (std::find(a->also.begin(), a->also.end(), k) == a->also.end()) a->also.push_back(std::move(k));
  }
  a->occurrences += b.occurrences;
}

}  // namespace

std::string DedupKey(const Finding& f) {
  std::string k = PrimaryKey(f);
  if (f.kind == FindingKind::GoroutineLeak) return k;
  std::set<std::string> others;
  for (size_t i = 1; i < f.locations.size(); i++) {
    others.insert(fmt::format("{}@{}", RoleName(f.locations[i].role), Site(f.locations[i])));
  }
  for (const std::string& o : others) k += "|" + o;
  return k;
}

void SortFindings(std::vector<Finding>* findings) {
  auto key = [](const Finding& f) {
    static const Location kNone;
    const Location& l = f.locations.empty() ? kNone : f.locations[0];
    return std::tuple(l.file, l.line, static_cast<int>(f.kind), l.column, f.message, f.test);
  };
  std::stable_sort(findings->begin(), findings->end(),
                   [&](const Finding& a, const Finding& b) { return key(a) < key(b); });
}

void Dedup(std::vector<Finding>* findings) {
  // Strongest status first, so the survivor of each group is the strongest;
  // ties keep the input order (deterministic for a deterministic input).
  std::stable_sort(findings->begin(), findings->end(), [](const Finding& a, const Finding& b) {
    return Rank(a.status) > Rank(b.status);
  });
  std::vector<Finding> out;
  std::map<std::string, size_t> by_key;
  std::map<std::string, size_t> proven_primary;  // occurred/confirmed, by primary key
  for (Finding& f : *findings) {
    std::string key = DedupKey(f);
    auto it = by_key.find(key);
    if (it != by_key.end()) {
      Merge(&out[it->second], std::move(f));
      continue;
    }
    std::string pk = PrimaryKey(f);
    if (f.status == Status::Predicted || f.status == Status::Unconfirmed) {
      auto p = proven_primary.find(pk);
      if (p != proven_primary.end()) {
        Merge(&out[p->second], std::move(f));
        continue;
      }
    }
    by_key.emplace(key, out.size());
    if (f.status == Status::Occurred || f.status == Status::Confirmed) {
      proven_primary.emplace(pk, out.size());
    }
    out.push_back(std::move(f));
  }
  *findings = std::move(out);
  MergeDeadlockKinds(findings);
  SortFindings(findings);
}

namespace {

// The blocked operations of a finding: (goroutine, site) of its steps that
// never complete.
std::set<std::pair<std::string, std::string>> BlockedSet(const Finding& f) {
  std::set<std::pair<std::string, std::string>> out;
  for (const Step& s : f.interleaving) {
    if (s.blocks) out.insert({s.loc.goroutine, Site(s.loc)});
  }
  return out;
}

bool Specific(FindingKind k) {
  return k == FindingKind::MixedDeadlock || k == FindingKind::LockOrderDeadlock ||
         k == FindingKind::DoubleLock;
}

}  // namespace

void MergeDeadlockKinds(std::vector<Finding>* findings) {
  std::vector<bool> gone(findings->size(), false);
  for (size_t g = 0; g < findings->size(); g++) {
    Finding& global = (*findings)[g];
    if (global.kind != FindingKind::GlobalDeadlock || global.status == Status::Unconfirmed) continue;
    std::set<std::pair<std::string, std::string>> blocked = BlockedSet(global);
    for (size_t s = 0; s < findings->size(); s++) {
      Finding& spec = (*findings)[s];
      if (gone[s] || !Specific(spec.kind) || spec.test != global.test ||
          spec.status == Status::Unconfirmed) {
        continue;
      }
      // One blocked set: the same replay showed both, or both block the
      // very same operations.
      bool same_replay = !spec.reproduce.empty() && spec.reproduce == global.reproduce;
      std::set<std::pair<std::string, std::string>> mine = BlockedSet(spec);
      if (!same_replay && (mine.empty() || mine != blocked)) continue;
      if (std::find(spec.also.begin(), spec.also.end(), KindName(global.kind)) == spec.also.end()) {
        spec.also.push_back(std::string(KindName(global.kind)));
      }
      if (spec.reproduce.empty()) spec.reproduce = global.reproduce;
      if (Rank(global.status) > Rank(spec.status)) spec.status = global.status;
      gone[g] = true;
      break;
    }
  }
  size_t k = 0;
  for (size_t i = 0; i < findings->size(); i++) {
    if (gone[i]) continue;
    if (k != i) (*findings)[k] = std::move((*findings)[i]);  // no self-move: it empties
    k++;
  }
  findings->resize(k);
}

}  // namespace gordian::report
