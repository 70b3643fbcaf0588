// Command plaincheck runs the corpus programs with the plain Go toolchain (no
// gordian) and checks what plain Go can observe of their annotations:
//
//   - the annotation syntax (docs/corpus.md): kinds, statuses, primitives;
//   - occurred wants: the program really crashes with the matching runtime
//     message at the annotated line, deadlocks (Go's detector, or a hang that
//     is ended with SIGQUIT) with a goroutine blocked at the line, or leaves a
//     goroutine blocked at the line when the test or main returns;
//   - predicted wants: the normal run does NOT show the bug (no crash, no
//     goroutine blocked at the line);
//   - correct programs: exit 0 (tests pass) and no goroutine of the program is
//     still blocked at the end.
//
// It does not check what gordian reports, and it cannot observe the warnings
// (recv-on-closed, concurrent-recv) of occurred wants: those are listed as
// unchecked.
//
// To see the goroutines that are left when the program ends, it builds each
// program with an -overlay: a test package gets an extra file with a TestMain
// that dumps all stacks after m.Run; a main package gets its main renamed and
// a wrapper main that calls it and then dumps all stacks. Line numbers of the
// program's own files are unchanged.
//
// Usage: plaincheck [-runs N] [-settle D] [-timeout D] [-v] DIR...
// Each DIR is one program directory (a package inside a module).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var (
	runs    = flag.Int("runs", 3, "runs per program (every run must agree)")
	settle  = flag.Duration("settle", 150*time.Millisecond, "wait after the test or main returns before dumping goroutines")
	timeout = flag.Duration("timeout", 3*time.Second, "a run that takes longer is ended with SIGQUIT (a hang)")
	verbose = flag.Bool("v", false, "print every check, not only failures")
)

// ---------------------------------------------------------------------------
// Annotations

var kinds = map[string]bool{
	"send-on-closed": true, "close-of-closed": true, "close-of-nil": true,
	"negative-waitgroup": true, "unlock-of-unlocked": true, "global-deadlock": true,
	"goroutine-leak": true, "double-lock": true, "lock-order-deadlock": true,
	"mixed-deadlock": true, "panic": true, "recv-on-closed": true, "concurrent-recv": true,
	"testing-after-end": true, "failnow-outside-test": true,
}

var primitives = map[string]bool{
	"chan-send": true, "chan-recv": true, "select": true, "nil-chan": true,
	"mutex": true, "rwmutex": true, "waitgroup": true, "cond": true,
}

type want struct {
	file      string // absolute
	line      int
	kind      string
	status    string
	primitive string
}

func (w want) String() string {
	s := fmt.Sprintf("%s:%d %s %s", filepath.Base(w.file), w.line, w.kind, w.status)
	if w.primitive != "" {
		s += " " + w.primitive
	}
	return s
}

var wantRE = regexp.MustCompile(`//\s*want:(.*)$`)

// parseWants reads every .go file of dir and returns its wants; syntax errors
// are returned as problems.
func parseWants(dir string) (ws []want, problems []string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := wantRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				problems = append(problems, fmt.Sprintf("%s:%d: want on a comment-only line", filepath.Base(f), i+1))
				continue
			}
			for _, item := range strings.Split(m[1], " ; ") {
				fields := strings.Fields(item)
				at := fmt.Sprintf("%s:%d", filepath.Base(f), i+1)
				if len(fields) < 2 || len(fields) > 3 {
					problems = append(problems, fmt.Sprintf("%s: malformed want %q", at, item))
					continue
				}
				w := want{file: f, line: i + 1, kind: fields[0], status: fields[1]}
				if len(fields) == 3 {
					w.primitive = fields[2]
				}
				switch {
				case !kinds[w.kind]:
					problems = append(problems, fmt.Sprintf("%s: unknown kind %q", at, w.kind))
				case w.status != "occurred" && w.status != "predicted":
					problems = append(problems, fmt.Sprintf("%s: status %q (want occurred or predicted)", at, w.status))
				case w.kind == "goroutine-leak" && !primitives[w.primitive]:
					problems = append(problems, fmt.Sprintf("%s: goroutine-leak needs a primitive, got %q", at, w.primitive))
				case w.kind != "goroutine-leak" && w.primitive != "":
					problems = append(problems, fmt.Sprintf("%s: only goroutine-leak takes a primitive", at))
				default:
					ws = append(ws, w)
				}
			}
		}
	}
	return ws, problems
}

// ---------------------------------------------------------------------------
// Goroutine dumps

type frame struct {
	file string
	line int
}

type goroutine struct {
	state  string // wait reason or "running", without ", N minutes"
	frames []frame
}

var (
	headerRE = regexp.MustCompile(`^goroutine \d+.*\[([^\]]*)\]:$`)
	frameRE  = regexp.MustCompile(`^\t(\S+\.go):(\d+)`)
)

// parseGoroutines parses every "goroutine N [...]:" block of text.
func parseGoroutines(text string) []goroutine {
	var gs []goroutine
	var cur *goroutine
	for _, l := range strings.Split(text, "\n") {
		if m := headerRE.FindStringSubmatch(l); m != nil {
			gs = append(gs, goroutine{state: strings.SplitN(m[1], ",", 2)[0]})
			cur = &gs[len(gs)-1]
			continue
		}
		if cur == nil {
			continue
		}
		if l == "" {
			cur = nil
			continue
		}
		if m := frameRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			cur.frames = append(cur.frames, frame{m[1], n})
		}
	}
	return gs
}

// topUser returns the innermost frame in dir, skipping "created by" lines
// (they are the last frame of a block and name the spawn site).
func (g goroutine) topUser(dir string) (frame, bool) {
	for _, f := range g.frames {
		if filepath.Dir(f.file) == dir {
			return f, true
		}
	}
	return frame{}, false
}

var blockedStates = map[string]bool{
	"chan send": true, "chan receive": true, "select": true,
	"chan send (nil chan)": true, "chan receive (nil chan)": true, "select (no cases)": true,
	"sync.Mutex.Lock": true, "sync.RWMutex.RLock": true, "sync.RWMutex.Lock": true,
	"sync.WaitGroup.Wait": true, "sync.Cond.Wait": true,
}

var primitiveStates = map[string][]string{
	"chan-send": {"chan send"},
	"chan-recv": {"chan receive"},
	"select":    {"select"},
	"nil-chan":  {"chan send (nil chan)", "chan receive (nil chan)", "select (no cases)"},
	"mutex":     {"sync.Mutex.Lock"},
	"rwmutex":   {"sync.RWMutex.RLock", "sync.RWMutex.Lock"},
	"waitgroup": {"sync.WaitGroup.Wait"},
	"cond":      {"sync.Cond.Wait"},
}

// ---------------------------------------------------------------------------
// Building and running

type outcome struct {
	kind    string // "exit", "panic", "fatal", "deadlock", "hang"
	code    int
	message string      // the panic or fatal error message
	crashG  []goroutine // the goroutine that crashed (first block after the message)
	blocked []goroutine // program goroutines blocked at the end, at the deadlock or hang
	output  string
}

const marker = "=== PLAINCHECK GOROUTINES"

func moduleRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("no go.mod above " + dir)
		}
	}
}

var pkgRE = regexp.MustCompile(`(?m)^package (\w+)`)

// build compiles the program in dir with the dumping overlay and returns the
// binary and whether it is a test binary.
func build(dir, tmp string) (bin string, isTest bool, err error) {
	root, err := moduleRoot(dir)
	if err != nil {
		return "", false, err
	}
	overlay := map[string]string{}
	mainSrc, mainErr := os.ReadFile(filepath.Join(dir, "main.go"))
	tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	switch {
	case mainErr == nil && len(tests) == 0:
		n := strings.Count(string(mainSrc), "\nfunc main() {\n")
		if n != 1 {
			return "", false, errors.New("main.go: want exactly one `func main() {` line")
		}
		renamed := strings.Replace(string(mainSrc), "\nfunc main() {\n", "\nfunc plaincheckMain() {\n", 1)
		overlay[filepath.Join(dir, "main.go")] = writeTemp(tmp, "main.go", renamed)
		overlay[filepath.Join(dir, "zz_plaincheck.go")] = writeTemp(tmp, "zz_plaincheck.go", fmt.Sprintf(`package main

import (
	"os"
	"runtime"
	"time"
)

func main() {
	plaincheckMain()
	time.Sleep(%d)
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	os.Stderr.WriteString("\n%s\n")
	os.Stderr.Write(buf[:n])
}
`, int64(*settle), marker))
	case len(tests) > 0 && mainErr != nil:
		src, _ := os.ReadFile(tests[0])
		m := pkgRE.FindSubmatch(src)
		if m == nil {
			return "", false, errors.New("no package clause in " + tests[0])
		}
		overlay[filepath.Join(dir, "zz_plaincheck_test.go")] = writeTemp(tmp, "zz_plaincheck_test.go", fmt.Sprintf(`package %s

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	code := m.Run()
	time.Sleep(%d)
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	os.Stderr.WriteString("\n%s\n")
	os.Stderr.Write(buf[:n])
	os.Exit(code)
}
`, m[1], int64(*settle), marker))
		isTest = true
	default:
		return "", false, errors.New("want either main.go or *_test.go files, not both or neither")
	}
	ov, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovPath := writeTemp(tmp, "overlay.json", string(ov))
	bin = filepath.Join(tmp, "prog")
	rel, _ := filepath.Rel(root, dir)
	var cmd *exec.Cmd
	if isTest {
		cmd = exec.Command("go", "test", "-c", "-overlay", ovPath, "-o", bin, "./"+rel)
	} else {
		cmd = exec.Command("go", "build", "-overlay", ovPath, "-o", bin, "./"+rel)
	}
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", false, fmt.Errorf("build failed: %v\n%s", err, out)
	}
	return bin, isTest, nil
}

func writeTemp(dir, name, content string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		panic(err)
	}
	return p
}

var fatalRE = regexp.MustCompile(`(?m)^fatal error: (.*)$`)
var panicRE = regexp.MustCompile(`(?m)^panic: (.*?)(?: \[recovered.*\])?$`)

func run(dir, bin string, isTest bool) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	args := []string{}
	if isTest {
		args = []string{"-test.count=1", "-test.v", "-test.timeout=1h"}
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGQUIT) }
	cmd.WaitDelay = 3 * time.Second
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTRACEBACK=all")
	out, err := cmd.CombinedOutput()
	text := string(out)
	o := outcome{output: text}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		o.code = ee.ExitCode()
	}
	gs := parseGoroutines(text)
	program := func(list []goroutine) []goroutine {
		var res []goroutine
		for _, g := range list {
			if _, ok := g.topUser(dir); ok && blockedStates[g.state] {
				res = append(res, g)
			}
		}
		return res
	}
	switch {
	case ctx.Err() != nil:
		o.kind = "hang"
		o.blocked = program(gs)
	case strings.Contains(text, "fatal error: all goroutines are asleep - deadlock!"):
		o.kind = "deadlock"
		o.blocked = program(gs)
	case fatalRE.MatchString(text):
		o.kind = "fatal"
		o.message = fatalRE.FindStringSubmatch(text)[1]
		o.crashG = crashed(text, fatalRE)
	case panicRE.MatchString(text) && o.code == 2:
		o.kind = "panic"
		o.message = panicRE.FindStringSubmatch(text)[1]
		o.crashG = crashed(text, panicRE)
	default:
		o.kind = "exit"
		if i := strings.LastIndex(text, marker); i >= 0 {
			o.blocked = program(parseGoroutines(text[i:]))
		}
	}
	return o
}

// crashed returns the first goroutine block after the crash message.
func crashed(text string, re *regexp.Regexp) []goroutine {
	loc := re.FindStringIndex(text)
	gs := parseGoroutines(text[loc[1]:])
	if len(gs) == 0 {
		return nil
	}
	return gs[:1]
}

// ---------------------------------------------------------------------------
// Checks

var crashMessages = map[string]func(string) bool{
	"send-on-closed":     func(m string) bool { return m == "send on closed channel" },
	"close-of-closed":    func(m string) bool { return m == "close of closed channel" },
	"close-of-nil":       func(m string) bool { return m == "close of nil channel" },
	"negative-waitgroup": func(m string) bool { return m == "sync: negative WaitGroup counter" },
	"unlock-of-unlocked": func(m string) bool { return strings.Contains(strings.ToLower(m), "unlock of unlocked") },
}

func isRuntimeCrash(m string) bool {
	for _, f := range crashMessages {
		if f(m) {
			return true
		}
	}
	return false
}

func blockedAt(gs []goroutine, dir string, w want, states []string) bool {
	for _, g := range gs {
		f, _ := g.topUser(dir)
		if f.file != w.file || f.line != w.line {
			continue
		}
		if states == nil {
			return true
		}
		for _, s := range states {
			if g.state == s {
				return true
			}
		}
	}
	return false
}

func crashAt(o outcome, dir string, w want) bool {
	if len(o.crashG) == 0 {
		return false
	}
	f, ok := o.crashG[0].topUser(dir)
	return ok && f.file == w.file && f.line == w.line
}

// checkWant says whether one run agrees with one want; "" means yes.
func checkWant(o outcome, dir string, w want) string {
	if w.status == "predicted" {
		switch {
		case o.kind != "exit":
			return fmt.Sprintf("predicted, but the normal run ended with %s %s", o.kind, o.message)
		case blockedAt(o.blocked, dir, w, nil):
			return "predicted, but the normal run left a goroutine blocked at this line"
		}
		return ""
	}
	switch w.kind {
	case "send-on-closed", "close-of-closed", "close-of-nil", "negative-waitgroup", "unlock-of-unlocked":
		if (o.kind != "panic" && o.kind != "fatal") || !crashMessages[w.kind](o.message) {
			return fmt.Sprintf("expected the %s crash, got %s %q", w.kind, o.kind, o.message)
		}
		if !crashAt(o, dir, w) {
			return "crashed with the right message but not at this line"
		}
	case "panic":
		if o.kind != "panic" || isRuntimeCrash(o.message) {
			return fmt.Sprintf("expected a user panic, got %s %q", o.kind, o.message)
		}
		if !crashAt(o, dir, w) {
			return "panicked but not at this line"
		}
	case "global-deadlock":
		if o.kind != "deadlock" && o.kind != "hang" {
			return fmt.Sprintf("expected a global deadlock, got %s %q", o.kind, o.message)
		}
		if !blockedAt(o.blocked, dir, w, nil) {
			return "deadlocked, but no goroutine blocked at this line"
		}
	case "goroutine-leak":
		if o.kind != "exit" {
			return fmt.Sprintf("expected a clean end with a leaked goroutine, got %s %q", o.kind, o.message)
		}
		if !blockedAt(o.blocked, dir, w, primitiveStates[w.primitive]) {
			return "no goroutine left blocked at this line on a " + w.primitive
		}
	case "double-lock", "lock-order-deadlock", "mixed-deadlock":
		if o.kind == "panic" || o.kind == "fatal" {
			return fmt.Sprintf("expected goroutines stuck, got %s %q", o.kind, o.message)
		}
		if !blockedAt(o.blocked, dir, w, nil) {
			return "no goroutine stuck at this line"
		}
	case "recv-on-closed", "concurrent-recv", "failnow-outside-test", "testing-after-end":
		return "unchecked"
	}
	return ""
}

// checkRun compares one run with the program's wants as a whole: crashes,
// deadlocks and blocked goroutines that no want explains.
func checkRun(o outcome, dir string, ws []want, correct bool) []string {
	var problems []string
	if correct {
		if o.kind != "exit" || o.code != 0 {
			problems = append(problems, fmt.Sprintf("correct program ended with %s (exit %d) %s", o.kind, o.code, o.message))
		}
		for _, g := range o.blocked {
			f, _ := g.topUser(dir)
			problems = append(problems, fmt.Sprintf("correct program left a goroutine blocked (%s) at %s:%d", g.state, filepath.Base(f.file), f.line))
		}
		return problems
	}
	occurred := map[string]bool{}
	lines := map[frame]bool{}
	for _, w := range ws {
		if w.status == "occurred" {
			occurred[w.kind] = true
			lines[frame{w.file, w.line}] = true
		}
	}
	switch o.kind {
	case "panic", "fatal":
		want := "panic"
		for k, f := range crashMessages {
			if f(o.message) {
				want = k
			}
		}
		if !occurred[want] {
			problems = append(problems, fmt.Sprintf("unexpected %s %q", o.kind, o.message))
		}
		return problems // goroutines blocked at a crash are not leaks
	case "deadlock", "hang":
		if !occurred["global-deadlock"] && !occurred["double-lock"] && !occurred["lock-order-deadlock"] && !occurred["mixed-deadlock"] {
			problems = append(problems, "unexpected "+o.kind)
		}
	case "exit":
		if o.code != 0 && o.code != 1 {
			problems = append(problems, fmt.Sprintf("exit status %d", o.code))
		}
	}
	for _, g := range o.blocked {
		f, _ := g.topUser(dir)
		if !lines[f] {
			problems = append(problems, fmt.Sprintf("goroutine blocked (%s) at %s:%d without an occurred want", g.state, filepath.Base(f.file), f.line))
		}
	}
	return problems
}

// ---------------------------------------------------------------------------

type result struct {
	dir       string
	correct   bool
	wants     []want
	problems  []string
	unchecked int
	elapsed   time.Duration
}

func checkProgram(dir string) (r result) {
	r = result{dir: dir, correct: filepath.Base(filepath.Dir(dir)) == "correct"}
	start := time.Now()
	defer func() { r.elapsed = time.Since(start) }()
	ws, probs := parseWants(dir)
	r.wants, r.problems = ws, probs
	if r.correct && len(ws) > 0 {
		r.problems = append(r.problems, "a correct program has wants")
	}
	if !r.correct && len(ws) == 0 && len(probs) == 0 {
		r.problems = append(r.problems, "a bug program without wants")
	}
	tmp, err := os.MkdirTemp("", "plaincheck")
	if err != nil {
		r.problems = append(r.problems, err.Error())
		return r
	}
	defer os.RemoveAll(tmp)
	bin, isTest, err := build(dir, tmp)
	if err != nil {
		r.problems = append(r.problems, err.Error())
		return r
	}
	failed := map[string]string{}
	for i := 0; i < *runs; i++ {
		o := run(dir, bin, isTest)
		for _, p := range checkRun(o, dir, ws, r.correct) {
			r.problems = append(r.problems, fmt.Sprintf("run %d: %s", i+1, p))
		}
		for _, w := range ws {
			if msg := checkWant(o, dir, w); msg != "" && msg != "unchecked" {
				failed[w.String()] = fmt.Sprintf("run %d: %s", i+1, msg)
			}
		}
		if *verbose || len(r.problems) > 0 || len(failed) > 0 {
			if i == 0 && os.Getenv("PLAINCHECK_OUTPUT") != "" {
				fmt.Fprintf(os.Stderr, "---- %s output ----\n%s\n", dir, o.output)
			}
		}
	}
	keys := make([]string, 0, len(failed))
	for k := range failed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r.problems = append(r.problems, fmt.Sprintf("want %s: %s", k, failed[k]))
	}
	for _, w := range ws {
		if w.status == "occurred" && (w.kind == "recv-on-closed" || w.kind == "concurrent-recv" ||
			w.kind == "failnow-outside-test" || w.kind == "testing-after-end") {
			r.unchecked++
		}
	}
	return r
}

func main() {
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: plaincheck [flags] DIR...")
		os.Exit(2)
	}
	var results []result
	w := bufio.NewWriter(os.Stdout)
	for _, arg := range flag.Args() {
		dir, err := filepath.Abs(arg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		r := checkProgram(dir)
		results = append(results, r)
		status := "ok  "
		if len(r.problems) > 0 {
			status = "FAIL"
		}
		note := ""
		if r.unchecked > 0 {
			note = fmt.Sprintf(" (%d warning want(s) not observable in plain Go)", r.unchecked)
		}
		fmt.Fprintf(w, "%s %-60s %d want(s) %5.2fs%s\n", status, arg, len(r.wants), r.elapsed.Seconds(), note)
		for _, p := range r.problems {
			fmt.Fprintf(w, "       %s\n", p)
		}
		w.Flush()
	}
	summarize(w, results)
	w.Flush()
	for _, r := range results {
		if len(r.problems) > 0 {
			os.Exit(1)
		}
	}
}

func summarize(w *bufio.Writer, results []result) {
	type key struct{ kind, status string }
	counts := map[key]int{}
	var nbug, ncorrect, nfail, nwants int
	for _, r := range results {
		if r.correct {
			ncorrect++
		} else {
			nbug++
		}
		if len(r.problems) > 0 {
			nfail++
		}
		for _, x := range r.wants {
			counts[key{x.kind, x.status}]++
			nwants++
		}
	}
	fmt.Fprintf(w, "\n%d programs (%d bug, %d correct), %d wants, %d failed plain checks\n", len(results), nbug, ncorrect, nwants, nfail)
	ks := make([]key, 0, len(counts))
	for k := range counts {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].kind != ks[j].kind {
			return ks[i].kind < ks[j].kind
		}
		return ks[i].status < ks[j].status
	})
	for _, k := range ks {
		fmt.Fprintf(w, "  %-20s %-9s %3d\n", k.kind, k.status, counts[k])
	}
	fmt.Fprintln(w, "(plain Go only: this checks how the programs behave without gordian, not what gordian reports)")
}
