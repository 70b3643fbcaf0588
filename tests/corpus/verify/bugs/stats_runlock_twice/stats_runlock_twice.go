// Stats.Snapshot releases its read lock in a defer and again before an
// early return on an empty table: the second RUnlock finds no reader.
package stats

import "sync"

type Stats struct {
	mu     sync.RWMutex
	counts []int
}

func (s *Stats) Snapshot() []int {
	s.mu.RLock()
	defer s.mu.RUnlock() // want: unlock-of-unlocked predicted
	if len(s.counts) == 0 {
		s.mu.RUnlock()
		return nil
	}
	return append([]int(nil), s.counts...)
}

func Read() []int {
	s := &Stats{}
	return s.Snapshot()
}
