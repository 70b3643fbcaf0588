// A log tailer follows every file of a directory: walk calls a function
// for each file, and that callback starts a follower goroutine for it. A
// follower loops on a select of the context and its file's appended lines,
// and sends each line it took to the merged stream with a plain send; the
// reader of the stream loops on a select of the context and the stream.
// When the context is cancelled after a follower took a line but before
// the reader took it, the reader leaves on the cancel and the follower
// blocks in its send forever (goroutine leak).
//
// A plain run merges both lines long before the test cancels (it settles
// for 20 ms first). Only a sleep orders the reader's receives before the
// cancel: the other schedule, where the reader's select takes the cancel
// first, leaves a follower's send with no partner.
// Expected: goroutine-leak, predicted (and confirmed by replay), at the
// followers' send.
package tailer

import (
	"context"
	"testing"
	"time"
)

type file struct {
	name     string
	appended chan string
}

func walk(dir []*file, fn func(f *file)) {
	for _, f := range dir {
		fn(f)
	}
}

func follow(ctx context.Context, dir []*file, merged chan<- string) {
	walk(dir, func(f *file) {
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case line := <-f.appended:
					merged <- f.name + ": " + line // want: goroutine-leak predicted chan-send
				}
			}
		}()
	})
}

func TestTailMergesFiles(t *testing.T) {
	dir := []*file{
		{name: "app.log", appended: make(chan string, 1)},
		{name: "db.log", appended: make(chan string, 1)},
	}
	dir[0].appended <- "started"
	dir[1].appended <- "connected"
	ctx, cancel := context.WithCancel(context.Background())
	merged := make(chan string)
	follow(ctx, dir, merged)
	lines := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-merged:
				lines++
			}
		}
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	<-done
	t.Logf("merged %d lines", lines)
}
