// Batcher groups incoming log lines into batches of three and hands each batch
// to a writer goroutine. When the input channel is drained, run closes the
// output channel and only then flushes the last, partial batch: the flush
// sends on the channel it has just closed.
//
// Expected: send-on-closed, occurred, at the flush in run. Seven lines make two
// full batches and one partial batch, so the flush happens in every run.
package main

import (
	"fmt"
	"strings"
	"sync"
)

type Batcher struct {
	in   chan string
	out  chan []string
	size int
}

func NewBatcher(size int) *Batcher {
	return &Batcher{in: make(chan string), out: make(chan []string), size: size}
}

func (b *Batcher) run() {
	var buf []string
	for line := range b.in {
		buf = append(buf, line)
		if len(buf) == b.size {
			b.out <- buf
			buf = nil
		}
	}
	close(b.out)
	if len(buf) > 0 {
		b.out <- buf // want: send-on-closed occurred
	}
}

func main() {
	b := NewBatcher(3)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		b.run()
		wg.Done()
	}()
	go func() {
		for batch := range b.out {
			fmt.Println("write:", strings.Join(batch, " | "))
		}
		wg.Done()
	}()

	for i := 1; i <= 7; i++ {
		b.in <- fmt.Sprintf("line %d", i)
	}
	close(b.in)
	wg.Wait()
}
