// A key-value client sends two commands and reads two replies with plain
// receives. The server goroutine answers the first command and then treats the
// second (a QUIT it does not know) as the end of the session: it closes the
// reply channel instead of answering. The client's second receive gets the
// zero value from the closed channel, and the test checks it too weakly to
// notice.
//
// Expected: recv-on-closed (a warning), occurred, at the second reply receive.
// No bug-severity finding: the program neither crashes nor blocks.
package kv

import (
	"strings"
	"testing"
)

func serve(cmds <-chan string, replies chan<- string, store map[string]string) {
	for cmd := range cmds {
		f := strings.Fields(cmd)
		if len(f) == 2 && f[0] == "GET" {
			replies <- store[f[1]]
			continue
		}
		close(replies)
		return
	}
}

func TestGetThenQuit(t *testing.T) {
	cmds := make(chan string, 2)
	replies := make(chan string)
	go serve(cmds, replies, map[string]string{"user:1": "alice"})

	cmds <- "GET user:1"
	cmds <- "QUIT"
	first := <-replies
	second := <-replies // want: recv-on-closed occurred
	close(cmds)
	if first != "alice" {
		t.Fatalf("first reply %q", first)
	}
	if strings.Contains(second, "ERR") {
		t.Fatalf("second reply %q", second)
	}
}
