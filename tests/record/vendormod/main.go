// A module with a vendor directory and a build-tagged file.
//
// Built with -tags gordian_extra. The trace must contain: the ChanSend at
// @extrasend in extra.go (which only exists under the tag) and its
// ChanRecv partner at @extrarecv here; operations of the vendored package
// example.com/dep (its channel is made at a site in vendor/.../dep.go). The
// program prints 42 and "extra".
package main

import (
	"fmt"

	"example.com/dep"
)

func main() {
	fmt.Println(dep.Double(21))
	fmt.Println(<-extra()) //@extrarecv
}
