// Shutdown closes done again when asked twice.
package shutdown

func Shutdown(twice bool) {
	done := make(chan struct{})
	close(done)
	if twice {
		close(done) // want: close-of-closed predicted
	}
}
