// A package with one passing and one failing test: gordian test must exit 1
// as go test does, and its summary and JSON must name TestFatal as failed.
package fails

import "testing"

func TestPass(t *testing.T) {}

func TestFatal(t *testing.T) {
	done := make(chan struct{})
	go func() { close(done) }()
	<-done
	t.Fatal("this test fails on purpose")
}
