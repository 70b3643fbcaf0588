// Notify's twin: the mailbox has a slot per notification, so no sender
// waits for a reader, whatever n is.
package scatter

func Notify(n int) int {
	if n == 0 {
		return 0
	}
	mailbox := make(chan int, n)
	for i := 0; i < n; i++ {
		go func(v int) {
			mailbox <- v
		}(i)
	}
	return <-mailbox
}
