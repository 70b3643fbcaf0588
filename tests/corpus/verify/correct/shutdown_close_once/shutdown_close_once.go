// Shutdown's twin: a Once guards the close.
package shutdown

import "sync"

func Shutdown(twice bool) {
	done := make(chan struct{})
	var once sync.Once
	once.Do(func() { close(done) })
	if twice {
		once.Do(func() { close(done) })
	}
}
