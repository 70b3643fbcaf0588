// This file makes the whole-run timeline of the HTML report
// (report/run_timeline.h) from a trace: one lane per goroutine, named by
// its stable id, its function and where it was spawned; one operation per
// record of a synchronisation, goroutine or panic kind, in start-stamp order.
#pragma once

#include <string>

#include "gordian/report/run_timeline.h"
#include "gordian/trace/trace.h"

namespace gordian::pipeline {

// At most max_ops operations are kept (the first in stamp order); the rest
// are counted in dropped.
report::RunTimeline RunTimelineOf(const trace::Trace& t, const std::string& name,
                                  size_t max_ops = 1'000'000);

}  // namespace gordian::pipeline
