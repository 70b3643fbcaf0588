// This file implements MergeReports (merge.h).
#include "gordian/report/merge.h"

#include <algorithm>

namespace gordian::report {
namespace {

int Badness(TestResult r) {
  switch (r) {
    case TestResult::Pass: return 0;
    case TestResult::Unfinished: return 1;
    case TestResult::Fail: return 2;
  }
  return 0;
}

template <typename T>
void AddOnce(std::vector<T>* to, const T& v) {
  if (std::find(to->begin(), to->end(), v) == to->end()) to->push_back(v);
}

}  // namespace

JsonReport MergeReports(const std::vector<JsonReport>& reports) {
  JsonReport m;
  bool first_fuzz = true;
  for (const JsonReport& r : reports) {
    m.findings.insert(m.findings.end(), r.findings.begin(), r.findings.end());
    for (const std::string& d : r.degraded) AddOnce(&m.degraded, d);
    if (r.has_verdict) {
      m.has_verdict = true;
      for (const TestVerdict& t : r.verdict.tests) {
        auto it = std::find_if(m.verdict.tests.begin(), m.verdict.tests.end(),
                               [&](const TestVerdict& o) {
                                 return o.package == t.package && o.name == t.name;
                               });
        if (it == m.verdict.tests.end()) {
          m.verdict.tests.push_back(t);
        } else if (Badness(t.result) > Badness(it->result)) {
          it->result = t.result;
        }
      }
      for (const PackageVerdict& p : r.verdict.packages) {
        auto it = std::find_if(m.verdict.packages.begin(), m.verdict.packages.end(),
                               [&](const PackageVerdict& o) { return o.package == p.package; });
        if (it == m.verdict.packages.end()) {
          m.verdict.packages.push_back(p);
        } else if (it->ok && !p.ok) {
          *it = p;  // how the failing run ended says more
        }
      }
      m.verdict.build_failed = m.verdict.build_failed || r.verdict.build_failed;
      if (!r.verdict.go_failure.empty() &&
          m.verdict.go_failure.find(r.verdict.go_failure) == std::string::npos) {
        m.verdict.go_failure += (m.verdict.go_failure.empty() ? "" : "; ") + r.verdict.go_failure;
      }
    }
    if (r.has_fuzz) {
      m.has_fuzz = true;
      if (first_fuzz) m.fuzz.seed = r.fuzz.seed;
      first_fuzz = false;
      for (const FuzzTestFailure& tf : r.fuzz.test_failures) {
        bool seen = std::any_of(m.fuzz.test_failures.begin(), m.fuzz.test_failures.end(),
                                [&](const FuzzTestFailure& o) {
                                  return o.package == tf.package && o.test == tf.test;
                                });
        if (!seen) m.fuzz.test_failures.push_back(tf);
      }
    }
  }
  return m;
}

}  // namespace gordian::report
