// A template registry reloads templates in a background goroutine whenever a
// file changes. It parses with a Must-style helper that panics on a malformed
// template instead of returning the error. The test feeds one good and one
// malformed template; the panic in the reloader goroutine crashes the test
// binary.
//
// Expected: panic, occurred, at the panic in mustParse. The test waits for the
// reloader to finish (a non-deferred close), which it never does.
package reload

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

type Template struct {
	Name   string
	Fields []string
}

func mustParse(name, src string) Template {
	if strings.Count(src, "{{") != strings.Count(src, "}}") {
		panic(fmt.Sprintf("template %s: unbalanced braces", name)) // want: panic occurred
	}
	var fields []string
	for _, part := range strings.Split(src, "{{")[1:] {
		fields = append(fields, strings.TrimSpace(strings.SplitN(part, "}}", 2)[0]))
	}
	return Template{Name: name, Fields: fields}
}

type Registry struct {
	mu        sync.RWMutex
	templates map[string]Template
}

func (r *Registry) reloader(changes <-chan [2]string, done chan<- struct{}) {
	for c := range changes {
		t := mustParse(c[0], c[1])
		r.mu.Lock()
		r.templates[t.Name] = t
		r.mu.Unlock()
	}
	close(done)
}

func TestReload(t *testing.T) {
	r := &Registry{templates: map[string]Template{}}
	changes := make(chan [2]string)
	done := make(chan struct{})
	go r.reloader(changes, done)
	changes <- [2]string{"welcome", "Hello {{ .Name }}!"}
	changes <- [2]string{"invoice", "Total: {{ .Total }"}
	close(changes)
	<-done
	if len(r.templates) != 1 {
		t.Fatalf("got %d templates", len(r.templates))
	}
}
