// Index and Store each have an RWMutex. Reindex write-locks the index and
// then reads the store; Compact write-locks the store and then reads the
// index. Run together, each holds the lock the other waits for.
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
	st.mu.RLock() // want: lock-order-deadlock predicted
	ix.keys = append(ix.keys[:0], st.rows...)
	st.mu.RUnlock()
	ix.mu.Unlock()
}

func compact(ix *Index, st *Store) {
	st.mu.Lock()
	ix.mu.RLock() // want: lock-order-deadlock predicted
	st.rows = st.rows[:len(ix.keys)]
	ix.mu.RUnlock()
	st.mu.Unlock()
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
