// A hashing pool: HashAll starts four workers that range over a jobs channel,
// feeds the files, and collects exactly len(files) digests. It never closes
// jobs, so when it returns the four workers are still waiting for work: they
// outlive the test.
//
// Expected: goroutine-leak, occurred, chan-recv, at the workers' range receive
// (all four leaked goroutines block on that line).
package hasher

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

type digest struct {
	name string
	sum  string
}

func HashAll(files map[string][]byte) map[string]string {
	jobs := make(chan string)
	results := make(chan digest)
	for w := 0; w < 4; w++ {
		go func() {
			for name := range jobs { // want: goroutine-leak occurred chan-recv
				s := sha256.Sum256(files[name])
				results <- digest{name, hex.EncodeToString(s[:8])}
			}
		}()
	}
	go func() {
		for name := range files {
			jobs <- name
		}
	}()
	out := make(map[string]string, len(files))
	for range files {
		d := <-results
		out[d.name] = d.sum
	}
	return out
}

func TestHashAll(t *testing.T) {
	files := map[string][]byte{
		"go.mod":  []byte("module example"),
		"main.go": []byte("package main"),
		"README":  []byte("hello"),
	}
	sums := HashAll(files)
	if len(sums) != len(files) {
		t.Fatalf("got %d digests", len(sums))
	}
}
