// Stop's twin: one close after counting the listeners.
package stop

func Stop(listeners int) int {
	done := make(chan bool)
	n := 0
	for i := 0; i < listeners; i++ {
		n++
	}
	close(done)
	return n
}
