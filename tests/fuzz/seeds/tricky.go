package tricky

// Composite literals in control clauses need parentheses.
type T struct{ x int }

func f() {
	if x := (T{}); x.x == 0 {
	}
	for _, t := range []T{{1}, {2}} {
		_ = t
	}
	switch (T{}).x {
	}
	var fn func() func() int
	_ = fn()()
	_ = (*T).String
	_ = [](func())(nil)
	ch := make(chan int)
	x := <-ch
	ch <- <-ch
	_ = x
	var a []int; a = append(a, a...)
	/* no newline */ _ = a
	_ = func() int { return 1 }()
	go func(c <-chan int) {}(ch)
	defer close(ch)
	labels:
	;
	{
		{}
	}
}

func (T) String() string { return "" }
