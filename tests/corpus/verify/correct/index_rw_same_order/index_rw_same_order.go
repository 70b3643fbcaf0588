// The index's twin: both maintenance steps take the index lock before the
// store lock, so neither can hold what the other waits for.
package index

import "sync"

type Index struct {
	mu   sync.RWMutex
	keys []string
}

type Store struct {
	mu   sync.RWMutex
	rows []string
}

func reindex(ix *Index, st *Store) {
	ix.mu.Lock()
	st.mu.RLock()
	ix.keys = append(ix.keys[:0], st.rows...)
	st.mu.RUnlock()
	ix.mu.Unlock()
}

func compact(ix *Index, st *Store) {
	ix.mu.RLock()
	st.mu.Lock()
	st.rows = st.rows[:len(ix.keys)]
	st.mu.Unlock()
	ix.mu.RUnlock()
}

func Maintain() {
	ix, st := &Index{}, &Store{}
	done := make(chan bool)
	go func() {
		reindex(ix, st)
		done <- true
	}()
	compact(ix, st)
	<-done
}
