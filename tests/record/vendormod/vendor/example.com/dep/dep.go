// Package dep is a vendored dependency that uses a channel internally.
package dep

// Double sends v*2 on a channel from a goroutine and returns what it got.
func Double(v int) int {
	ch := make(chan int) //@depmake
	go func() { ch <- v * 2 }()
	return <-ch
}
