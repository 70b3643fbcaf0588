//go:build !gordian_extra

package main

func extra() chan string {
	ch := make(chan string, 1)
	ch <- "plain"
	return ch
}
