// A select with a default takes the default only when none of its cases is
// ready. Each test here reaches a select whose case is ready in every
// schedule, and panics if the default is taken: a receive from a closed
// channel, from the Done channel of a cancelled context, from a timer
// channel after its timer fired, and from a buffered channel that holds a
// value. A goroutine hands a value over beside it, so that the strategies
// have operations to reorder. No strategy may propose the default, and a
// replay must refuse to force it (the replay runtime takes the ready case,
// as Go does). Expected: no findings, under gordian test and gordian fuzz.
package ready_case_beats_default

import (
	"context"
	"testing"
	"time"
)

func handOver(t *testing.T) chan int {
	done := make(chan int)
	go func() { done <- 1 }()
	return done
}

func TestClosedChannel(t *testing.T) {
	done := handOver(t)
	stop := make(chan struct{})
	close(stop)
	select {
	case <-stop:
	default:
		panic("a closed channel is always ready")
	}
	<-done
}

func TestCancelledContext(t *testing.T) {
	done := handOver(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	select {
	case <-ctx.Done():
	default:
		panic("a cancelled context's Done channel is closed")
	}
	<-done
}

func TestFiredTimer(t *testing.T) {
	done := handOver(t)
	timer := time.NewTimer(time.Millisecond)
	time.Sleep(5 * time.Millisecond)
	select {
	case <-timer.C:
	default:
		panic("the timer fired before the select")
	}
	<-done
}

func TestBufferedValue(t *testing.T) {
	done := handOver(t)
	results := make(chan int, 1)
	results <- <-done
	select {
	case v := <-results:
		if v != 1 {
			t.Errorf("got %d", v)
		}
	default:
		panic("the buffer holds a value")
	}
}

func TestClosedAmongOthers(t *testing.T) {
	stop := make(chan struct{})
	other := make(chan int, 1)
	close(stop)
	go func() { other <- 1 }()
	select {
	case <-stop:
	case <-other:
	default:
		panic("one case is closed: the select never takes its default")
	}
}
