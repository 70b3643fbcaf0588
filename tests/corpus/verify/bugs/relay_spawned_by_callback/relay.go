// A relay forwards messages from its inbox to its outbox on a goroutine
// that the caller starts (a spawn callback, as a pool or supervisor
// would). The relay stops on its context, but its send to the outbox is
// plain: once the reader gives up on the same context, a message taken
// just before the cancel is never delivered, and the relay blocks in its
// send forever.
package relay

import "context"

type Relay struct {
	out chan string
}

// Run starts the forwarding loop through spawn.
func (r *Relay) Run(ctx context.Context, in <-chan string, spawn func(func())) {
	spawn(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case m := <-in:
				r.out <- m // want: goroutine-leak predicted chan-send
			}
		}
	})
}

// Deliver sends one message through a relay and reads it unless a
// shutdown, on another goroutine, cancels first.
func Deliver() {
	ctx, cancel := context.WithCancel(context.Background())
	r := &Relay{out: make(chan string)}
	in := make(chan string, 1)
	in <- "hello"
	r.Run(ctx, in, func(f func()) { go f() })
	go func() { cancel() }()
	select {
	case <-r.out:
	case <-ctx.Done():
	}
}
