// Gordian recorder: runtime internals whose shape differs between Go
// releases, as Go 1.23 to 1.25 have them (gordian_release_go126.go says
// what each is).

//go:build !go1.26

package runtime

func gordianSudogChan(sg *sudog) *hchan { return sg.c }
