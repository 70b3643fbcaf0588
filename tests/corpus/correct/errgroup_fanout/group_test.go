// A hand-written errgroup: Go runs a function in a goroutine, the first error
// is kept (sync.Once) and cancels a done channel that the other tasks watch;
// Wait waits for all tasks and returns the first error. Tasks send on a
// buffered channel sized for all of them, so no send can block after the
// reader is gone. cancel is guarded by the Once and by a final Once in Wait,
// so done is closed exactly once in every schedule. Expected: no findings.
package errgroup

import (
	"errors"
	"sync"
	"testing"
)

type Group struct {
	wg     sync.WaitGroup
	once   sync.Once
	err    error
	done   chan struct{}
	closed sync.Once
}

func New() *Group { return &Group{done: make(chan struct{})} }

func (g *Group) cancel() { g.closed.Do(func() { close(g.done) }) }

func (g *Group) Go(f func(done <-chan struct{}) error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(g.done); err != nil {
			g.once.Do(func() { g.err = err })
			g.cancel()
		}
	}()
}

func (g *Group) Wait() error {
	g.wg.Wait()
	g.cancel()
	return g.err
}

var errBadShard = errors.New("shard 3 is corrupt")

func TestFirstErrorWins(t *testing.T) {
	g := New()
	sizes := make(chan int, 5)
	for shard := 0; shard < 5; shard++ {
		g.Go(func(done <-chan struct{}) error {
			if shard == 3 {
				return errBadShard
			}
			select {
			case <-done:
				return nil
			default:
			}
			sizes <- shard * 100
			return nil
		})
	}
	if err := g.Wait(); !errors.Is(err, errBadShard) {
		t.Fatalf("got %v", err)
	}
	close(sizes)
	for range sizes {
	}
}
