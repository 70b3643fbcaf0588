// Loops with bounds the IR states.
package prims

func Spawn(n int, ch chan int) {
	for i := 0; i < n; i++ { // ir: loop init=0 cond="(< VAR p0)" step="(+ VAR 1)"
		go func(v int) { ch <- v }(i) // ir: go mode=closure; send
	}
	for range 3 { // ir: loop init=0 cond="(< (+ VAR 1) 3)"
		<-ch // ir: recv
	}
}
