// Stop closes done once per listener: from two listeners on it closes a
// closed channel.
package stop

func Stop(listeners int) {
	done := make(chan bool)
	for i := 0; i < listeners; i++ {
		close(done) // want: close-of-closed predicted
	}
}
