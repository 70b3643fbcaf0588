// Passing tests with subtests and an Example: gordian test exits 0 and
// counts 2 top-level tests.
package passes

import (
	"fmt"
	"sync"
	"testing"
)

func TestSum(t *testing.T) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	for i := 1; i <= 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			sum += i
			mu.Unlock()
		}()
	}
	wg.Wait()
	if sum != 6 {
		t.Fatalf("sum = %d", sum)
	}
}

func TestTable(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {})
	}
}

func Example() {
	fmt.Println("hello")
	// Output: hello
}
