// Stop tells the worker to quit with a non-blocking send: when the worker
// is not yet waiting, the select takes its default and the request is
// dropped, and the worker waits on stop for ever.
package cancel

func Stop() {
	stop := make(chan struct{})
	go func() {
		<-stop // want: goroutine-leak predicted chan-recv
	}()
	select {
	case stop <- struct{}{}:
	default:
	}
}
