// Lazy initialisation with sync.Once: many goroutines ask for the parsed
// configuration at the same time; the first one parses, the others wait inside
// Once.Do until it is done, and all see the same value. The WaitGroup joins
// all readers. Expected: no findings.
package config

import (
	"strings"
	"sync"
	"testing"
)

type Config struct {
	once   sync.Once
	raw    string
	values map[string]string
	loads  int
}

func (c *Config) Get(key string) string {
	c.once.Do(func() {
		c.loads++
		c.values = map[string]string{}
		for _, line := range strings.Split(c.raw, "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				c.values[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	})
	return c.values[key]
}

func TestConcurrentGet(t *testing.T) {
	c := &Config{raw: "host = db.local\nport = 5432\n"}
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = c.Get("port")
		}()
	}
	wg.Wait()
	for i, v := range got {
		if v != "5432" {
			t.Fatalf("reader %d got %q", i, v)
		}
	}
	if c.loads != 1 {
		t.Fatalf("parsed %d times", c.loads)
	}
}
