// Channel operations, one per line, each annotated with the IR op the
// generator must write at that line (see irgen_test.go).
package prims

func Pipeline(n int, items []string) int {
	out := make(chan int, n*2) // ir: make-chan cap="(* p0 2)"
	done := make(chan struct{}) // ir: make-chan cap=0
	sized := make(chan string, len(items)) // ir: make-chan cap="(len p1)"
	go func() { // ir: go mode=closure
		for v := range out { // ir: recv range=1 commaok=1
			_ = v
		}
		close(done) // ir: close
	}()
	for i := 0; i < n; i++ {
		out <- i // ir: send
	}
	close(out) // ir: close
	<-done // ir: recv
	v, ok := <-sized // ir: recv commaok=1
	_, _ = v, ok
	return n
}

func Choose(a, b chan int, quit <-chan struct{}) int {
	select { // ir: select blocking=1 cases=3
	case v := <-a:
		return v
	case b <- 1:
		return 1
	case <-quit:
		return 0
	}
}

func TryOrDefault(a chan int) bool {
	select { // ir: select blocking=0 cases=1
	case a <- 2:
		return true
	default:
		return false
	}
}
