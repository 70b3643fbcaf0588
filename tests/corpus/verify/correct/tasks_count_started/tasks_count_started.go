// RunTasks' twin: a task is counted into the WaitGroup only when its
// worker is started, so the watcher's Wait returns once they are done.
package tasks

import (
	"sync"
	"time"
)

func RunTasks(tasks []string) bool {
	var wg sync.WaitGroup
	for _, t := range tasks {
		if t == "" {
			continue
		}
		wg.Add(1)
		go func(name string) {
			defer wg.Done()
			_ = name
		}(t)
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-time.After(time.Second):
		return false
	}
}
