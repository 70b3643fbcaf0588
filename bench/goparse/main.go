// Command goparse is the reference side of bench/run-parse-bench: it measures
// go/parser exactly as bench/parse_perftest.cc measures Gordian's parser.
// The files are loaded into memory first; then each run parses all of them
// one after the other, with parser.ParseFile(fset, name, src,
// parser.ParseComments) (one token.FileSet per run, each AST dropped after its
// file). The best of -runs runs is reported in MB/s and files/s, with the
// process's peak RSS (getrusage ru_maxrss).
//
// Parsing is sequential. -procs sets GOMAXPROCS (default 1: strictly one
// thread of Go code, the garbage collector included; with more, the parse is
// still sequential but the collector runs on other cores).
//
//	goparse [-files LIST] [-runs N] [-procs P]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
)

func peakRSSMB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Maxrss) / 1024 // KiB on Linux
}

func walkGoroot() ([]string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	var paths []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".go") {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	return paths, err
}

func readList(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var paths []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			paths = append(paths, line)
		}
	}
	return paths, sc.Err()
}

func main() {
	list := flag.String("files", "", "file with one path per line (default: GOROOT/src outside testdata)")
	runs := flag.Int("runs", 5, "number of runs; the best is reported")
	procs := flag.Int("procs", 1, "GOMAXPROCS")
	flag.Parse()
	if *runs < 1 || *procs < 1 {
		fmt.Fprintln(os.Stderr, "goparse: -runs and -procs must be at least 1")
		os.Exit(2)
	}
	runtime.GOMAXPROCS(*procs)

	var paths []string
	var err error
	if *list != "" {
		paths, err = readList(*list)
	} else {
		paths, err = walkGoroot()
	}
	if err == nil && len(paths) == 0 {
		err = fmt.Errorf("no files to parse")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "goparse:", err)
		os.Exit(2)
	}

	srcs := make([][]byte, len(paths))
	bytes := 0
	for i, p := range paths {
		srcs[i], err = os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "goparse:", err)
			os.Exit(2)
		}
		bytes += len(srcs[i])
	}
	runtime.GC()
	loadRSS := peakRSSMB()

	best := time.Duration(1<<63 - 1)
	errors := 0
	for r := 0; r < *runs; r++ {
		errors = 0
		t0 := time.Now()
		fset := token.NewFileSet()
		for i, src := range srcs {
			if _, err := parser.ParseFile(fset, paths[i], src, parser.ParseComments); err != nil {
				errors++
			}
		}
		if d := time.Since(t0); d < best {
			best = d
		}
	}
	if errors != 0 {
		fmt.Fprintf(os.Stderr, "goparse: warning: %d files with errors\n", errors)
	}
	secs := best.Seconds()
	fmt.Printf("mode=parse files=%d bytes=%d runs=%d best_s=%.4f mb_s=%.1f files_s=%.0f "+
		"errors=%d load_rss_mb=%.1f peak_rss_mb=%.1f procs=%d\n",
		len(paths), bytes, *runs, secs, float64(bytes)/1e6/secs, float64(len(paths))/secs,
		errors, loadRSS, peakRSSMB(), *procs)
}
