// grammarprobe is the program schedule_grammar_replay_test.cc hands every
// schedule of testdata/grammar/ to, to get the runtime's verdict: it does
// nothing, so the run ends at once whether the schedule is followed or not,
// and the runtime's reading of GORDIAN_SCHEDULE (exit 2 on a refused
// file) is all that happens. Built once with the recording overlay through
// driver::Record, which removes its build directory afterwards; so with
// GORDIAN_PROBE_COPY_TO set it copies its own executable there.
package main

import (
	"fmt"
	"os"
)

func main() {
	dst := os.Getenv("GORDIAN_PROBE_COPY_TO")
	if dst == "" {
		return
	}
	exe, err := os.Executable()
	if err == nil {
		var data []byte
		if data, err = os.ReadFile(exe); err == nil {
			err = os.WriteFile(dst, data, 0o755)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "grammarprobe:", err)
		os.Exit(1)
	}
}
