// Two goroutines pass a value back and forth forever: the test never ends.
// A fuzzing campaign must not hang on it: its first run is killed at the
// run wall, the test is reported by name as not fuzzed, and nothing else
// (no trace filling the disk, no analysis of minutes). The other test of
// the package is fuzzed as usual.
// Expected: no findings; TestPingPongForever not fuzzed.
package never_ends_ping_pong

import "testing"

func TestPingPongForever(t *testing.T) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
	}()
	for v := 0; ; {
		ping <- v
		v = <-pong
	}
}

func TestPingPongTenTimes(t *testing.T) {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v + 1
		}
		close(pong)
	}()
	v := 0
	for i := 0; i < 10; i++ {
		ping <- v
		v = <-pong
	}
	close(ping)
	if _, ok := <-pong; ok {
		t.Fatal("pong not closed")
	}
}
