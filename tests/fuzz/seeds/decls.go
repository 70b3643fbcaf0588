package decls

import "unsafe"

const Big = 1 << 100 >> 98

var (
	_      = unsafe.Sizeof(0)
	x, y   int
	z      = map[[2]int]*[]chan struct{}{}
	fnv    func(a, b int, c ...string) (d bool)
	iface  interface{ comparable }
)

type Empty struct{}

func init() {}
func init() {}

func external(int) int

func variadic(format string, args ...any) {}

func multi() (int, string, error) { return 0, "", nil }
