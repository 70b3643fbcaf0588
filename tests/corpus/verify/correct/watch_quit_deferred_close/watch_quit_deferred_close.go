// Watch's twin: quit is closed on every path.
package watch

func Watch(stop bool) {
	quit := make(chan bool)
	defer close(quit)
	go func() {
		<-quit
	}()
	if stop {
		return
	}
}
