// A snapshot copies a struct (*p, a read of every field) while another
// goroutine renames the profile (a write of one field). The copy is not
// atomic and nothing orders it against the rename.
// Expected: data-race occurred between the field write and the copy.
package profile

import (
	"sync"
	"testing"
)

type Profile struct {
	Name  string
	Email string
}

func TestSnapshotDuringRename(t *testing.T) {
	p := &Profile{Name: "ann", Email: "ann@example.com"}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.Name = "anne" // want: data-race occurred
	}()
	snap := *p
	wg.Wait()
	if snap.Email == "" {
		t.Fatal("empty snapshot")
	}
}
