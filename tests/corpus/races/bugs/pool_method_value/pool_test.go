// A method value bound to a pointer receiver: grow := p.grow carries p, so
// the two goroutines that call grow() share *p. Nothing in grow locks.
// Expected: data-race occurred at the field update inside grow.
package pool

import (
	"sync"
	"testing"
)

type Pool struct {
	size int
}

func (p *Pool) grow() {
	p.size += 2 // want: data-race occurred
}

func TestGrowFromTwoGoroutines(t *testing.T) {
	p := &Pool{}
	grow := p.grow
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); grow() }()
	go func() { defer wg.Done(); grow() }()
	wg.Wait()
}
