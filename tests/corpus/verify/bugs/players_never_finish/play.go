// Play starts two players that pass the ball back and forth and waits for
// them to finish, but their loop has lost its round limit: they play
// forever and Play waits forever. Nothing is ever stuck.
package play

func Play() {
	ping, pong := make(chan int), make(chan int)
	done := make(chan struct{})
	go func() {
		for {
			ping <- 1
			<-pong
		}
	}()
	go func() {
		for {
			<-ping
			pong <- 1
		}
	}()
	<-done // want: partial-deadlock predicted
}
