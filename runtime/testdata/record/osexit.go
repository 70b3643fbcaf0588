// Expected: prints "bye", exits with status 7 through os.Exit. Recorded:
// ProgramExit val 7 aux 1; meta.txt exit_status=7, exit_reason=os.Exit.
package main

import (
	"fmt"
	"os"
)

func main() {
	ch := make(chan int, 1)
	ch <- 1
	fmt.Println("bye")
	os.Exit(7)
}
