// Gordian recorder: what the trace says about Go's race detector. See
// gordian.go and docs/trace-format.md (meta.txt "race").
//
// A program built with -race records race=1 in meta.txt, so that a replay
// of its schedule is built with -race too (src/gordian/schedule: cmd.race)
// and can show the same data race again. The race detector's own reports
// go to a file beside the trace (GORACE log_path, set by gordian).

package runtime

// gordianRaceMeta runs in gordianInit, after meta.txt is open.
func gordianRaceMeta() {
	if raceenabled {
		gordianMeta("race", "1")
	}
}
