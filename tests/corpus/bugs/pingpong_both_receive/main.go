// Two players pass a ball back and forth over two unbuffered channels, and
// main waits for the match to end. Both players start by waiting to receive
// the ball and nobody serves it.
//
// Expected: global-deadlock, occurred: both players block on the receive in
// play (one line for both goroutines) and main blocks on its receive from done.
package main

import "fmt"

type Ball struct{ hits int }

func play(name string, in <-chan *Ball, out chan<- *Ball, done chan<- string) {
	for {
		ball := <-in // want: global-deadlock occurred
		ball.hits++
		if ball.hits == 10 {
			done <- name
			return
		}
		out <- ball
	}
}

func main() {
	ping, pong := make(chan *Ball), make(chan *Ball)
	done := make(chan string)
	go play("alice", ping, pong, done)
	go play("bob", pong, ping, done)
	// Missing: ping <- new(Ball)
	winner := <-done // want: global-deadlock occurred
	fmt.Println("last hit by", winner)
}
