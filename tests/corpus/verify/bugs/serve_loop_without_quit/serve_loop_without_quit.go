// Serve feeds n requests to a server goroutine and never tells it to
// quit: it stays in its select.
package serve

func Serve(n int) {
	req := make(chan int)
	quit := make(chan struct{})
	go func() {
		for {
			select { // want: goroutine-leak predicted select
			case v := <-req:
				_ = v
			case <-quit:
				return
			}
		}
	}()
	for i := 0; i < n; i++ {
		req <- i
	}
}
