// A goroutine of TestExit calls os.Exit(3) while the test waits: no test
// reports a failure, the binary exits 3, and TestExit never ends. gordian
// test must exit 1 and say that TestExit did not finish.
package osexit

import (
	"os"
	"testing"
	"time"
)

func TestExit(t *testing.T) {
	go func() { os.Exit(3) }()
	time.Sleep(10 * time.Second)
}
