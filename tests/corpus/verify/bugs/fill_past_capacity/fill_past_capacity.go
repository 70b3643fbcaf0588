// Fill sends n values into a buffer of 3 with no reader: from n = 4 on it
// blocks for ever.
package fill

func Fill(n int) {
	ch := make(chan int, 3)
	for i := 0; i < n; i++ {
		ch <- i // want: global-deadlock predicted
	}
	close(ch)
}
