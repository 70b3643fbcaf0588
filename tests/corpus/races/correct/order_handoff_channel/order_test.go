// A channel hand-off: the producer fills an order and then sends the
// pointer; the consumer only touches the order after receiving it. The send
// happens before the receive completes, so every write of the producer is
// ordered before every read of the consumer.
// Expected: no findings.
package order

import "testing"

type Order struct {
	ID    int
	Items []string
}

func TestOrderHandOff(t *testing.T) {
	ch := make(chan *Order)
	go func() {
		o := &Order{ID: 7}
		o.Items = append(o.Items, "book", "pen")
		ch <- o
	}()
	o := <-ch
	if o.ID != 7 || len(o.Items) != 2 {
		t.Fatalf("got %+v", o)
	}
}
