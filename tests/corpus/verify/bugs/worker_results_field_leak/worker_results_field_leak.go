// A Worker keeps its results channel in a struct field; Collect starts the
// worker through a helper and stops reading after the first error, so the
// worker's next send on the field's channel blocks for ever.
package worker

import "errors"

type Worker struct {
	results chan int
}

func (w *Worker) run(items []int) {
	for _, it := range items {
		w.results <- it // want: goroutine-leak predicted chan-send
	}
	close(w.results)
}

func start(w *Worker, items []int) {
	go w.run(items)
}

func Collect(items []int) (int, error) {
	w := &Worker{results: make(chan int)}
	start(w, items)
	sum := 0
	for v := range w.results {
		if v < 0 {
			return sum, errors.New("negative item")
		}
		sum += v
	}
	return sum, nil
}
