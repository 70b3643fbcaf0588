// First's twin: the channel has room for every result.
package first

func First(jobs []int) int {
	if len(jobs) == 0 {
		return 0
	}
	ch := make(chan int, len(jobs))
	for _, j := range jobs {
		go func(x int) { ch <- x * 2 }(j)
	}
	return <-ch
}
