// RunTasks counts every task into the WaitGroup but starts a worker only
// for the non-empty ones: with an empty task the counter never reaches
// zero, and the watcher that closes done waits on it for ever after
// RunTasks gave up waiting.
package tasks

import (
	"sync"
	"time"
)

func RunTasks(tasks []string) bool {
	var wg sync.WaitGroup
	wg.Add(len(tasks))
	for _, t := range tasks {
		if t == "" {
			continue
		}
		go func(name string) {
			defer wg.Done()
			_ = name
		}(t)
	}
	done := make(chan struct{})
	go func() {
		wg.Wait() // want: goroutine-leak predicted waitgroup
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(time.Second):
		return false
	}
}
