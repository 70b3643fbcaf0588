// A goroutine reads from a pipe (a system call the recorder does not see)
// and reports each line on a channel; the test writes two lines, then
// closes the pipe, which ends the reader. Runs in which the reader sits in
// its read for a while end all the same.
// Expected: no findings.
package pipe_reader_closed_at_end

import (
	"bufio"
	"os"
	"testing"
)

func TestReadUntilClosed(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		s := bufio.NewScanner(r)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	w.WriteString("one\ntwo\n")
	if <-lines != "one" || <-lines != "two" {
		t.Fatal("lines out of order")
	}
	w.Close()
	if _, ok := <-lines; ok {
		t.Fatal("more lines")
	}
	r.Close()
}
