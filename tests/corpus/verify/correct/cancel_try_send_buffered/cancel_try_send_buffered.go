// Stop's twin: the stop channel has one slot, so the non-blocking send
// always finds room and the worker gets the request when it gets there.
package cancel

func Stop() {
	stop := make(chan struct{}, 1)
	go func() {
		<-stop
	}()
	select {
	case stop <- struct{}{}:
	default:
	}
}
