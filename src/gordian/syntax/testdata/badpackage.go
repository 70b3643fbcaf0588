// A broken package clause: nothing after it is reported (as in gc).
package 1	// ERROR "unexpected literal 1, expected name"

func f() {
	this is not reported
}
