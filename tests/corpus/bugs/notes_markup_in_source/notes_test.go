// A notes board whose notes are HTML: a collector goroutine receives them
// from an unbuffered channel and keeps them under a lock. Close closes the
// channel and waits for the collector; a Post after Close sends on the
// closed channel.
//
// This program is also the escaping fixture of the HTML report
// (docs/reports.md): its comments and strings hold markup and script, which
// a report must show as text. </script><script>document.title = "injected by
// the package comment"</script> <!-- <img src=x onerror="document.title='injected'"> -->
//
// Expected: send-on-closed, occurred, at the send in Post. The test is
// single-threaded up to that send, so it panics in every run.
package notes

import (
	"sync"
	"testing"
)

type Board struct {
	mu   sync.Mutex
	in   chan string
	done chan struct{}
	seen []string // "<b>bold</b>" notes are kept as they came
}

func NewBoard() *Board {
	b := &Board{in: make(chan string), done: make(chan struct{})}
	go b.collect()
	return b
}

func (b *Board) collect() {
	for n := range b.in {
		b.mu.Lock() // </script><script>document.title = "injected by a lock comment"</script>
		b.seen = append(b.seen, n)
		b.mu.Unlock()
	}
	close(b.done)
}

func (b *Board) Post(note string) {
	// </script><script>document.title = "injected by a comment"</script>
	b.in <- note // want: send-on-closed occurred
	_ = "<img src=x onerror=\"document.title='injected by a string'\">"
}

func (b *Board) Close() {
	close(b.in) // <!-- an HTML comment opener, then --> and a "</script>"
	<-b.done
}

func TestNotesWithMarkup(t *testing.T) {
	b := NewBoard()
	b.Post("</script><script>document.title='injected by a note'</script>")
	b.Post(`<img src=x onerror="document.title='injected by a note'">`)
	b.Close()
	b.Post("<!-- after close -->")
}
