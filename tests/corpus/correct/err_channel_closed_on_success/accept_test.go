// The success idiom of an error channel: the accepting goroutine sends an
// error only when it fails and closes the channel when it returns
// (deferred), so the caller's `if err := <-errCh; err != nil` receives
// either the error or, on success, the zero value of the closed channel.
// Receiving that zero value is the intended "no error" path, not a value
// mistaken for data: it is information, not a warning.
// Expected: no bugs or warnings.
package err_channel_closed_on_success

import (
	"errors"
	"testing"
)

func accept(fail bool) <-chan error {
	errCh := make(chan error, 1)
	go func() {
		defer close(errCh)
		if fail {
			errCh <- errors.New("refused")
		}
	}()
	return errCh
}

func TestAcceptSucceeds(t *testing.T) {
	if err := <-accept(false); err != nil {
		t.Fatal(err)
	}
}

func TestAcceptFails(t *testing.T) {
	if err := <-accept(true); err == nil {
		t.Fatal("want an error")
	}
}
