// Watch closes quit only when asked to stop: otherwise the watcher waits
// for ever.
package watch

func Watch(stop bool) {
	quit := make(chan bool)
	go func() {
		<-quit // want: goroutine-leak predicted chan-recv
	}()
	if stop {
		close(quit)
	}
}
