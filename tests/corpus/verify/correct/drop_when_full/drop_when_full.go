// Offer sends without blocking: a full buffer drops the value.
package drop

func Offer(n int) int {
	ch := make(chan int, 2)
	dropped := 0
	for i := 0; i < n; i++ {
		select {
		case ch <- i:
		default:
			dropped++
		}
	}
	return dropped
}
