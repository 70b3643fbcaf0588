// FirstError: workers report errors into a buffered channel and stop when
// the context is cancelled; the caller takes the first and cancels.
package first

import "context"

func FirstError(n int) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			select {
			case errc <- nil:
			case <-ctx.Done():
			}
		}()
	}
	if n == 0 {
		return nil
	}
	return <-errc
}
