// Table.Resize write-locks the table and returns early when the new size
// is too small, without unlocking; the reader started before it then waits
// in RLock for ever.
package table

import "sync"

type Table struct {
	mu   sync.RWMutex
	rows []int
}

func (t *Table) Resize(n int) bool {
	t.mu.Lock()
	if n < len(t.rows) {
		return false
	}
	t.rows = append(t.rows, make([]int, n-len(t.rows))...)
	t.mu.Unlock()
	return true
}

func (t *Table) Len() int {
	t.mu.RLock() // want: goroutine-leak predicted rwmutex
	defer t.mu.RUnlock()
	return len(t.rows)
}

func Grow(n int) {
	t := &Table{rows: make([]int, 4)}
	go t.Len()
	t.Resize(n)
}
