// Serve's twin: quit is closed after the requests.
package serve

func Serve(n int) {
	req := make(chan int)
	quit := make(chan struct{})
	go func() {
		for {
			select {
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
	close(quit)
}
