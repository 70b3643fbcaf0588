// Expected with `go test`: PASS, in about 0.3 s whatever GORDIAN_SETTLE is
// (the settle wait ends as soon as every goroutine of a test is finished,
// blocked forever, or waiting on a live ticker or a far timer or deadline).
// Recorded: a BlockedAtTestEnd for exactly the tests named *Leak* (each
// leaks one goroutine; the kind of its blocked operation is in the name:
// Send = ChanSend, Recv = ChanRecv, Select = Select), none for the others,
// whose goroutines all wait on something alive or finish shortly after the
// test returns. The waits on timer and context channels are recorded with
// kTimer. At exit (os.Exit after the tests), ProgramExit has kExitChecked
// and a BlockedAtTestEnd with val 0 names each leaked goroutine again, and
// no other.
package timerleak

import (
	"context"
	"testing"
	"time"
)

// A janitor that ranges over a live ticker is alive.
func TestTickerRange(t *testing.T) {
	tk := time.NewTicker(time.Millisecond)
	go func() {
		for range tk.C {
		}
	}()
}

// A janitor in a select on a live ticker and a stop channel nobody closes.
func TestTickerSelect(t *testing.T) {
	tk := time.NewTicker(5 * time.Millisecond)
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-tk.C:
			case <-stop:
				return
			}
		}
	}()
}

// Waiting on a one-shot timer that fires an hour from now.
func TestFarAfter(t *testing.T) {
	go func() {
		<-time.After(time.Hour)
	}()
}

// Waiting on contexts whose deadline is an hour away: the timeout's own
// Done channel, and a WithCancel below it that is never cancelled.
func TestFarContextDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	_ = cancel
	child, cancelChild := context.WithCancel(ctx)
	_ = cancelChild
	go func() { <-ctx.Done() }()
	go func() {
		select {
		case <-child.Done():
		}
	}()
}

// A timer due within the settle bound: the goroutine proceeds and ends.
func TestNearAfterFinishes(t *testing.T) {
	go func() {
		<-time.After(30 * time.Millisecond)
	}()
}

// A stopped timer never fires: its waiter leaks.
func TestStoppedTimerLeakRecv(t *testing.T) {
	tm := time.NewTimer(time.Hour)
	go func() { <-tm.C }()
	time.Sleep(5 * time.Millisecond)
	tm.Stop()
}

// A stopped ticker and a stop channel nobody closes.
func TestStoppedTickerLeakSelect(t *testing.T) {
	tk := time.NewTicker(time.Hour)
	tk.Stop()
	stop := make(chan struct{})
	go func() {
		select {
		case <-tk.C:
		case <-stop:
		}
	}()
}

// A late leak: asleep when the test returns, blocked forever 50 ms later.
func TestLateSleepLeakSend(t *testing.T) {
	ch := make(chan int)
	go func() {
		time.Sleep(50 * time.Millisecond)
		ch <- 1
	}()
}

// A late leak behind a context timeout that fires after the test returns.
func TestLateTimeoutLeakSend(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
	t.Cleanup(cancel)
	ch := make(chan int)
	go func() {
		<-ctx.Done()
		ch <- 1
	}()
}
