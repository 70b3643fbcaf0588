// A lazily initialised global without sync.Once: two request handlers both
// check `cfg == nil` and may both load it. The check (a read) and the
// assignment (a write) of the other handler are unordered.
// Expected: data-race occurred at the assignment (every race here has that
// write as one side).
package config

import (
	"sync"
	"testing"
)

type Config struct {
	Name string
}

var cfg *Config

func get() *Config {
	if cfg == nil {
		cfg = &Config{Name: "default"} // want: data-race occurred
	}
	return cfg
}

func TestHandlersReadConfig(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = get()
		}()
	}
	wg.Wait()
}
