// An HTTP router keeps its route table under an RWMutex and its hit counters
// under a Mutex. Match read-locks the table and then locks the stats to count
// the hit; Rebuild locks the stats (to reset them) and then write-locks the
// table. Requests are matched while a rebuild runs 50 ms later.
//
// Expected: lock-order-deadlock, predicted, at the stats Lock in Match and the
// table Lock in Rebuild. Normal runs finish the matches long before the
// rebuild; with only a sleep between them, a match holding the read lock and
// a rebuild holding the stats lock wait for each other.
package main

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

type Router struct {
	tableMu sync.RWMutex
	routes  map[string]string
	statsMu sync.Mutex
	hits    map[string]int
}

func (rt *Router) Match(path string) string {
	rt.tableMu.RLock()
	defer rt.tableMu.RUnlock()
	for prefix, handler := range rt.routes {
		if strings.HasPrefix(path, prefix) {
			rt.statsMu.Lock() // want: lock-order-deadlock predicted
			rt.hits[handler]++
			rt.statsMu.Unlock()
			return handler
		}
	}
	return "notFound"
}

func (rt *Router) Rebuild(routes map[string]string) {
	rt.statsMu.Lock()
	defer rt.statsMu.Unlock()
	rt.hits = map[string]int{}
	rt.tableMu.Lock() // want: lock-order-deadlock predicted
	rt.routes = routes
	rt.tableMu.Unlock()
}

func main() {
	rt := &Router{routes: map[string]string{"/api/": "api", "/static/": "files"}, hits: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for _, p := range []string{"/api/users", "/static/app.js", "/api/orders"} {
			fmt.Println(p, "->", rt.Match(p))
		}
	}()
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond) // config reload
		rt.Rebuild(map[string]string{"/api/v2/": "apiV2"})
	}()
	wg.Wait()
}
