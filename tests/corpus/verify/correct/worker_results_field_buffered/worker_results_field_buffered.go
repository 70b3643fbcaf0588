// The worker's twin: the results field has room for every item, so the
// worker finishes even when Collect stops reading at an error.
package worker

import "errors"

type Worker struct {
	results chan int
}

func (w *Worker) run(items []int) {
	for _, it := range items {
		w.results <- it
	}
	close(w.results)
}

func start(w *Worker, items []int) {
	go w.run(items)
}

func Collect(items []int) (int, error) {
	w := &Worker{results: make(chan int, len(items))}
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
