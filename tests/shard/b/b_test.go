// Package b holds the other half of the -shard/merge end-to-end test's
// tests (see package a).
package b

import (
	"sync"
	"testing"
)

func TestLeakMutex(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	go func() { mu.Lock() }() // never unlocked
}

func TestShared(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { wg.Done(); wg.Wait() }() // one Done is missing
}

func TestPassB(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { wg.Done() }()
	wg.Wait()
}
