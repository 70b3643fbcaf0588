// Tests of irgen on the small programs of testdata/: every line annotated
// "// ir: KIND key=value ...; KIND ..." must carry an op (or a loop) of that
// kind whose fields have those values, and every concurrency op the
// generator writes must be on a line annotated with its kind. Field values
// in annotations: VAR stands for the loop's var=, calls=A,B names the
// functions the call's callee/callees= resolve to (by name suffix).
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

type irRecord struct {
	word   string
	args   []string // positional words after the record word
	fields map[string]string
}

// parseLine splits one IR line as docs/ir-format.md defines it.
func parseLine(t *testing.T, s string) irRecord {
	t.Helper()
	r := irRecord{fields: map[string]string{}}
	toks := tokenize(t, s)
	r.word = toks[0]
	for _, tok := range toks[1:] {
		if k, v, ok := strings.Cut(tok, "="); ok && !strings.HasPrefix(tok, "\"") {
			r.fields[k] = unquote(t, v)
		} else {
			r.args = append(r.args, unquote(t, tok))
		}
	}
	return r
}

func tokenize(t *testing.T, s string) []string {
	var out []string
	for len(s) > 0 {
		i, inQ := 0, false
		for ; i < len(s); i++ {
			c := s[i]
			if c == '\\' && inQ {
				i++
				continue
			}
			if c == '"' {
				inQ = !inQ
			}
			if c == ' ' && !inQ {
				break
			}
		}
		if inQ {
			t.Fatalf("unterminated quote in %q", s)
		}
		out = append(out, s[:i])
		s = strings.TrimPrefix(s[i:], " ")
	}
	return out
}

func unquote(t *testing.T, v string) string {
	if !strings.HasPrefix(v, "\"") {
		return v
	}
	var b strings.Builder
	for i := 1; i < len(v)-1; i++ {
		if v[i] == '\\' {
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'x':
				var c byte
				fmt.Sscanf(v[i+1:i+3], "%02x", &c)
				b.WriteByte(c)
				i += 2
			default:
				b.WriteByte(v[i])
			}
			continue
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

func generate(t *testing.T, dir string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	all := append([]string{"-C", dir}, args...)
	all = append(all, "./...")
	if code := run(all, &out, &errb); code != 0 {
		t.Fatalf("irgen %v: exit %d: %s", all, code, errb.String())
	}
	return out.String()
}

type annotation struct {
	file string
	line int
	kind string
	want map[string]string
}

var annotRE = regexp.MustCompile(`// ir: (.*)$`)

func readAnnotations(t *testing.T, dir string) []annotation {
	var out []annotation
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			m := annotRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			for _, part := range strings.Split(m[1], ";") {
				r := parseLine(t, strings.TrimSpace(part))
				out = append(out, annotation{file: filepath.Base(f), line: i + 1, kind: r.word, want: r.fields})
			}
		}
	}
	return out
}

// concurrencyKinds: ops that must never appear on an unannotated line.
var concurrencyKinds = map[string]bool{
	"make-chan": true, "send": true, "recv": true, "close": true, "select": true, "go": true,
	"lock": true, "unlock": true, "rlock": true, "runlock": true, "wg-add": true, "wg-done": true,
	"wg-wait": true, "once-do": true, "cond-new": true, "cond-wait": true, "cond-broadcast": true,
	"cond-signal": true, "ctx-cancel": true, "ctx-timeout": true, "ctx-done": true, "ctx-err": true,
	"cancel": true, "timer-new": true, "timer-after": true, "timer-stop": true,
	"trylock": true, "wg-go": true, "timer-reset": true, "timer-tick": true, "timer-afterfunc": true,
	"ctx-root": true, "sleep": true,
}

type placed struct {
	file string
	line int
	rec  irRecord
}

func fileLine(pos string) (string, int) {
	parts := strings.Split(pos, ":")
	if len(parts) < 3 {
		return "", 0
	}
	var line int
	fmt.Sscan(parts[len(parts)-2], &line)
	return strings.Join(parts[:len(parts)-2], ":"), line
}

func TestOpsAtAnnotatedLines(t *testing.T) {
	dir := filepath.Join("testdata", "prims")
	ir := generate(t, dir)
	if !strings.HasPrefix(ir, "gordian-ir 2\n") || !strings.HasSuffix(ir, "\nend\n") {
		t.Fatalf("IR does not start with the version line and end with end:\n%s", ir)
	}
	names := map[string]string{} // function id -> name
	var ops []placed
	sc := bufio.NewScanner(strings.NewReader(ir))
	for sc.Scan() {
		r := parseLine(t, sc.Text())
		switch r.word {
		case "func", "extern":
			names[r.args[0]] = r.fields["name"]
		case "op", "loop":
			kind := r.word
			if r.word == "op" {
				kind = r.args[0]
			}
			r.word = kind
			f, l := fileLine(r.fields["pos"])
			ops = append(ops, placed{f, l, r})
		}
	}
	anns := readAnnotations(t, dir)
	if len(anns) < 40 {
		t.Fatalf("only %d annotations read", len(anns))
	}
	annotated := map[string]bool{}
	for _, a := range anns {
		annotated[fmt.Sprintf("%s:%d:%s", a.file, a.line, a.kind)] = true
		var tried []string
		found := false
		for _, o := range ops {
			if o.file != a.file || o.line != a.line || o.rec.word != a.kind {
				continue
			}
			if mismatch := compare(a.want, o.rec, names); mismatch != "" {
				tried = append(tried, mismatch)
				continue
			}
			found = true
			break
		}
		if !found {
			t.Errorf("%s:%d: no %s with %v (candidates: %v)", a.file, a.line, a.kind, a.want, tried)
		}
	}
	for _, o := range ops {
		if concurrencyKinds[o.rec.word] && !annotated[fmt.Sprintf("%s:%d:%s", o.file, o.line, o.rec.word)] {
			t.Errorf("%s:%d: unexpected %s %v", o.file, o.line, o.rec.word, o.rec.fields)
		}
	}
}

// compare: "" when rec has every wanted field, else what differs.
func compare(want map[string]string, rec irRecord, names map[string]string) string {
	for k, v := range want {
		v = strings.ReplaceAll(v, "VAR", rec.fields["var"])
		if k == "calls" {
			ids := rec.fields["callees"]
			if ids == "" {
				ids = rec.fields["callee"]
			}
			var got []string
			for _, id := range strings.Split(ids, ",") {
				got = append(got, names[id])
			}
			sort.Strings(got)
			wantNames := strings.Split(v, ",")
			sort.Strings(wantNames)
			if len(got) != len(wantNames) {
				return fmt.Sprintf("calls %v", got)
			}
			for i := range got {
				bare := strings.NewReplacer("(", "", ")", "", "*", "").Replace(got[i])
				if !strings.HasSuffix(bare, "."+wantNames[i]) {
					return fmt.Sprintf("calls %v", got)
				}
			}
			continue
		}
		if rec.fields[k] != v {
			return fmt.Sprintf("%s=%q", k, rec.fields[k])
		}
	}
	return ""
}

func TestTypeErrorExits2WithCompilerMessage(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"-C", filepath.Join("testdata", "broken"), "./..."}, &out, &errb)
	if code != 2 {
		t.Fatalf("exit %d, want 2; stderr: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "broken.go:6") || !strings.Contains(errb.String(), "undefinedName") {
		t.Errorf("stderr does not name the error's place and name: %s", errb.String())
	}
	if out.Len() != 0 {
		t.Errorf("IR written despite the error: %s", out.String())
	}
}

func TestQuoteRoundTrips(t *testing.T) {
	for _, s := range []string{"plain", "", "two words", `a"b`, `back\slash`, "new\nline", "k=v", "\x01ctl", "chan<- int"} {
		q := quote(s)
		if strings.ContainsAny(q, "\n") {
			t.Errorf("quote(%q) = %q has a newline", s, q)
		}
		if toks := tokenize(t, q); len(toks) != 1 {
			t.Errorf("quote(%q) = %q is %d tokens", s, q, len(toks))
		}
		if got := unquote(t, q); got != s {
			t.Errorf("unquote(quote(%q)) = %q", s, got)
		}
	}
}

// With -test the package is loaded once, as its test variant: each
// function is written once, and the test function is kind=test.
func TestTestVariantReplacesThePackage(t *testing.T) {
	ir := generate(t, filepath.Join("testdata", "prims"), "-test")
	count := map[string]int{}
	kinds := map[string]string{}
	packages := 0
	sc := bufio.NewScanner(strings.NewReader(ir))
	for sc.Scan() {
		r := parseLine(t, sc.Text())
		switch r.word {
		case "func":
			count[r.fields["name"]]++
			kinds[r.fields["name"]] = r.fields["kind"]
		case "package":
			packages++
			if r.fields["tests"] != "1" {
				t.Errorf("package record without tests=1: %s", sc.Text())
			}
		}
	}
	if packages != 1 {
		t.Errorf("%d package records, want 1", packages)
	}
	for name, n := range count {
		if n != 1 {
			t.Errorf("%s written %d times", name, n)
		}
	}
	if kinds["example.com/prims.TestFan"] != "test" {
		t.Errorf("TestFan has kind %q, want test", kinds["example.com/prims.TestFan"])
	}
	if kinds["example.com/prims.helperNotATest"] != "func" {
		t.Errorf("helperNotATest has kind %q, want func", kinds["example.com/prims.helperNotATest"])
	}
	if count["example.com/prims.Fan"] != 1 {
		t.Errorf("Fan missing")
	}
}

// A method value's $bound wrapper is written with its body (it calls the
// method), so that `go f()` of a method value leads to the method.
func TestBoundMethodWrapperIsWritten(t *testing.T) {
	ir := generate(t, filepath.Join("testdata", "prims"))
	var wrapper, finish string
	sc := bufio.NewScanner(strings.NewReader(ir))
	inWrapper, calls := false, ""
	for sc.Scan() {
		r := parseLine(t, sc.Text())
		if r.word == "func" || r.word == "extern" {
			inWrapper = r.word == "func" && strings.HasSuffix(r.fields["name"], ".Finish$bound")
			if inWrapper {
				wrapper = r.args[0]
				if r.fields["pkg"] != "example.com/prims" {
					t.Errorf("wrapper pkg=%q", r.fields["pkg"])
				}
			}
			if r.fields["name"] == "(*example.com/prims.Job).Finish" {
				finish = r.args[0]
			}
		}
		if inWrapper && r.word == "op" && r.args[0] == "call" {
			calls += r.fields["callee"] + ","
		}
	}
	if wrapper == "" || finish == "" || calls != finish+"," {
		t.Errorf("wrapper %q calls %q, want a func record calling Finish (%s)", wrapper, calls, finish)
	}
}
