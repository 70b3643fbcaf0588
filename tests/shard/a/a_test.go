// Package a holds tests for the -shard/merge end-to-end test: leaks that
// occur in every run (one, in leakSender, reached by two tests that land in
// different shards: merge must report it once), a send on a closed channel that only a prediction
// finds, a test that fails and tests that pass. TestShared is also a test
// of package b: a shard runs both or neither.
package a

import (
	"testing"
	"time"
)

// leakSender starts a goroutine that sends on a channel nobody receives from.
func leakSender() {
	ch := make(chan int)
	go func() { ch <- 1 }() // nobody receives
}

func TestLeakSend(t *testing.T) {
	leakSender()
}

func TestLeakRecv(t *testing.T) {
	ch := make(chan int)
	go func() { <-ch }() // nobody sends
}

func TestShared(t *testing.T) {
	ch := make(chan int, 1)
	go func() { ch <- 1 }()
	// Only the sleep puts the send first: another schedule closes first.
	time.Sleep(50 * time.Millisecond)
	close(ch)
}

func TestFails(t *testing.T) {
	leakSender()
	t.Error("this test fails on purpose")
}

func TestPassA(t *testing.T) {
	done := make(chan struct{})
	go func() { close(done) }()
	<-done
}
