// Fill's twin: the buffer holds all n values.
package fill

func Fill(n int) {
	ch := make(chan int, n)
	for i := 0; i < n; i++ {
		ch <- i
	}
	close(ch)
}
