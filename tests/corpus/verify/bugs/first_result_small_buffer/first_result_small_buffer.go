// First takes the first of len(jobs) results from a channel of capacity 2:
// from 4 jobs on, a sender has no room and stays blocked.
package first

func First(jobs []int) int {
	if len(jobs) == 0 {
		return 0
	}
	ch := make(chan int, 2)
	for _, j := range jobs {
		go func(x int) { ch <- x * 2 }(j) // want: goroutine-leak predicted chan-send
	}
	return <-ch
}
