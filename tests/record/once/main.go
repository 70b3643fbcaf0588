// sync.Once called from three goroutines.
//
// The trace must contain: three OnceDo at @do on one object, exactly one of
// them with kSuccess (the call that ran f); all three complete, and the
// completion of each non-running call comes after the running call's
// start. The program prints "init" exactly once.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var once sync.Once
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { fmt.Println("init") }) //@do
		}()
	}
	wg.Wait()
	fmt.Println("done")
}
