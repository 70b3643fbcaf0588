// Table.Resize's twin: the write lock is released in a defer, so the early
// return lets the reader in.
package table

import "sync"

type Table struct {
	mu   sync.RWMutex
	rows []int
}

func (t *Table) Resize(n int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n < len(t.rows) {
		return false
	}
	t.rows = append(t.rows, make([]int, n-len(t.rows))...)
	return true
}

func (t *Table) Len() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return len(t.rows)
}

func Grow(n int) {
	t := &Table{rows: make([]int, 4)}
	go t.Len()
	t.Resize(n)
}
