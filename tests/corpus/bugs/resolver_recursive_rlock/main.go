// A DNS resolver cache read-locks its table in Resolve and, for a CNAME, calls
// Lookup, which read-locks the same RWMutex again (a recursive read lock). A
// refresher goroutine write-locks the table 50 ms later to add records.
//
// Expected: double-lock, predicted, at the RLock in Lookup. In the normal run
// the refresher comes long after both read locks are released. Nothing but the
// sleep orders it: if its Lock arrives between Resolve's RLock and Lookup's
// RLock, the writer waits for the reader and Go's RWMutex makes the second
// RLock wait for the pending writer: both block forever.
package main

import (
	"fmt"
	"sync"
	"time"
)

type Resolver struct {
	mu      sync.RWMutex
	a       map[string]string // name -> address
	cname   map[string]string // alias -> name
	refresh int
}

func (r *Resolver) Lookup(name string) string {
	r.mu.RLock() // want: double-lock predicted
	defer r.mu.RUnlock()
	return r.a[name]
}

func (r *Resolver) Resolve(name string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if target, ok := r.cname[name]; ok {
		return r.Lookup(target)
	}
	return r.a[name]
}

func (r *Resolver) Add(name, addr string) {
	r.mu.Lock()
	r.a[name] = addr
	r.refresh++
	r.mu.Unlock()
}

func main() {
	r := &Resolver{
		a:     map[string]string{"web.internal": "10.1.0.4"},
		cname: map[string]string{"www.example.com": "web.internal"},
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond) // periodic refresh
		r.Add("db.internal", "10.1.0.9")
	}()
	fmt.Println("www.example.com ->", r.Resolve("www.example.com"))
	wg.Wait()
}
