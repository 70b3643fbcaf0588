// TestCrash crashes the test binary (a nil map write) in every run, so
// the recording run never reaches TestAfter; gordian fuzz lists the tests
// with go test -list and fuzzes TestAfter all the same.
package crashfirst

import "testing"

func TestCrash(t *testing.T) {
	var m map[string]int
	m["x"] = 1
}

func TestAfter(t *testing.T) {
	ch := make(chan int, 1)
	go func() { ch <- 1 }()
	<-ch
}
