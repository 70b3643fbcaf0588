// Notify posts n notifications into a mailbox of capacity k and reads back
// only the first: the other n-1 senders fit while n-1 <= k, and from
// n > k+1 on the extra senders block for ever. The smallest failing
// valuation is n = 2, k = 0.
package scatter

func Notify(n, k int) int {
	if n == 0 {
		return 0
	}
	mailbox := make(chan int, k)
	for i := 0; i < n; i++ {
		go func(v int) {
			mailbox <- v // want: goroutine-leak predicted chan-send
		}(i)
	}
	return <-mailbox
}
