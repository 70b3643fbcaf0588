// A test that runs for a minute while a goroutine waits forever and a
// child process (sleep) runs: scripts/abuse interrupts `gordian test` on it
// (SIGINT, SIGTERM, -wall, kill -9 of the test binary) and expects no
// finding and no process left behind.
package long

import (
	"os/exec"
	"testing"
	"time"
)

func TestLong(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- 1 }()
	cmd := exec.Command("sleep", "97")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(60 * time.Second)
	cmd.Process.Kill()
}
