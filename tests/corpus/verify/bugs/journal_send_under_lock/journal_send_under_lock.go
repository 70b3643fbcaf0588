// Journal.Append sends each entry to the flusher while holding the journal
// lock; the flusher takes the same lock before it receives the next entry
// (to read the sequence number), so each waits for the other.
package journal

import "sync"

type Journal struct {
	mu      sync.Mutex
	seq     int
	entries chan string
}

func (j *Journal) flush(done chan bool) {
	j.mu.Lock() // want: mixed-deadlock predicted
	j.seq++
	j.mu.Unlock()
	<-j.entries
	done <- true
}

func (j *Journal) Append(e string) {
	j.mu.Lock()
	j.entries <- e // want: mixed-deadlock predicted
	j.mu.Unlock()
}

func Write() {
	j := &Journal{entries: make(chan string)}
	done := make(chan bool)
	go j.flush(done)
	j.Append("x")
	<-done
}
