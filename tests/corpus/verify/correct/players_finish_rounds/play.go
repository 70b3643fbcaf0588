// Play's twin: the first player plays three rounds, then tells the other
// to stop and closes done.
package play

func Play() {
	ping, pong := make(chan int), make(chan int)
	done := make(chan struct{})
	go func() {
		for i := 0; i < 3; i++ {
			ping <- 1
			<-pong
		}
		close(ping)
		close(done)
	}()
	go func() {
		for range ping {
			pong <- 1
		}
	}()
	<-done
}
