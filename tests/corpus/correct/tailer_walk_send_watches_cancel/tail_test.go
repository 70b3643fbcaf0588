// The twin of bugs/tailer_walk_send_after_cancel: a follower's send to the
// merged stream is a select on the send and the context, so a cancel
// releases a follower that is waiting to hand a line over. Expected: no
// findings.
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
					select {
					case merged <- f.name + ": " + line:
					case <-ctx.Done():
						return
					}
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
