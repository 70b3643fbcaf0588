// Command irgen writes the concurrency IR of Go packages (docs/ir-format.md).
//
// It is the only Go in gordian's static path: go/packages loads and type
// checks the packages, go/ssa builds their SSA form and go/callgraph/vta
// resolves interface and function-value calls. Everything after the IR
// (model extraction, model checking, reports) is C++ and reads the text this
// program writes, so this program decides nothing about bugs.
//
//	irgen [-C dir] [-test] [-tags list] [-o file] packages...
//
// Exit status: 0 with the IR on stdout (or -o), 2 with the compiler's
// messages on stderr when a package does not load or type check, 1 on any
// other failure (bad flags, output not writable).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("irgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("C", "", "load the packages as seen from this directory")
	tests := fs.Bool("test", false, "include the packages' _test.go files (tests are entry points)")
	tags := fs.String("tags", "", "comma-separated build tags")
	out := fs.String("o", "", "write the IR to this file instead of stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: irgen [-C dir] [-test] [-tags list] [-o file] packages...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 1
	}
	prog, err := load(loadOptions{dir: *dir, tests: *tests, tags: *tags, patterns: fs.Args()})
	if err != nil {
		if le, ok := err.(*loadErrors); ok {
			for _, m := range le.messages {
				fmt.Fprintln(stderr, m)
			}
			return 2
		}
		fmt.Fprintln(stderr, "irgen:", err)
		return 1
	}
	w := stdout
	var f *os.File
	if *out != "" {
		f, err = os.Create(*out)
		if err != nil {
			fmt.Fprintln(stderr, "irgen:", err)
			return 1
		}
		w = f
	}
	bw := bufio.NewWriter(w)
	writeIR(bw, prog)
	err = bw.Flush()
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "irgen: writing the IR:", err)
		return 1
	}
	return 0
}
