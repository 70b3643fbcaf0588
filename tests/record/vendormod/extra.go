//go:build gordian_extra

package main

func extra() chan string {
	ch := make(chan string)
	go func() {
		ch <- "extra" //@extrasend
	}()
	return ch
}
