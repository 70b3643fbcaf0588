// Package b holds the other half of the -shard/merge end-to-end test's
// tests (see package a), an example and a fuzz target.
package b

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// ran appends name to the file $SHARD_RUNS names (when set): go test's -run
// selects examples and fuzz targets' seed corpora too, and the test checks
// that each ran in exactly one shard.
func ran(name string) {
	if path := os.Getenv("SHARD_RUNS"); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			panic(err)
		}
		fmt.Fprintln(f, name)
		f.Close()
	}
}

func Example() {
	ran("Example")
	fmt.Println("hello")
	// Output: hello
}

func FuzzSeed(f *testing.F) {
	f.Add(1)
	f.Fuzz(func(t *testing.T, n int) {
		ran("FuzzSeed")
	})
}

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
