// Channel types: the <-chan <-chan association rule and its errors.
package p

var c1 <-chan <-chan int
var c2 chan<- chan int
var c3 <-chan<- int	// ERROR "unexpected name int, expected keyword chan"
var c4 chan = nil	// ERROR "missing channel element type"
var c5 <-int	// ERROR "unexpected name int, expected keyword chan"
var c6 chan (<-chan int)

func f() {
	_ = <-<-chan int(nil)
	_ = <-chan int(nil)
	_ = (<-chan<- int)(nil)	// ERROR "unexpected int, expected chan"
}
