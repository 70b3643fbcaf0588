// The relay of relay_spawned_by_callback with its send to the outbox in a
// select on the context too: a message the reader no longer wants is
// dropped on cancel, and the relay returns.
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
				select {
				case r.out <- m:
				case <-ctx.Done():
					return
				}
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
