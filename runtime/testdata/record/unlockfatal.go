// Expected: "fatal error: sync: unlock of unlocked mutex", exit status 2.
// Recorded: MutexLock, MutexUnlock, then a MutexUnlock with kFailed;
// meta.txt exit_reason=fatal-error, exit_status=2.
package main

import "sync"

func main() {
	var mu sync.Mutex
	mu.Lock()
	mu.Unlock()
	mu.Unlock()
}
