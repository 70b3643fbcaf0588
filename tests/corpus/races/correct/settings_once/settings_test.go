// Lazily loaded settings behind sync.Once: the function given to Do runs
// once, and every Do returns only after it has finished, so the write of
// the global is ordered before every read that follows a Do.
// Expected: no findings.
package settings

import (
	"sync"
	"testing"
)

type Settings struct {
	Region string
}

var (
	once     sync.Once
	settings *Settings
)

func Get() *Settings {
	once.Do(func() {
		settings = &Settings{Region: "eu"}
	})
	return settings
}

func TestSettingsFromTwoHandlers(t *testing.T) {
	var wg sync.WaitGroup
	regions := make([]string, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			regions[i] = Get().Region
		}(i)
	}
	wg.Wait()
	if regions[0] != "eu" || regions[1] != "eu" {
		t.Fatalf("regions = %v", regions)
	}
}
