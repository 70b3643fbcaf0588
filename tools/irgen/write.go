// This file owns the layout of the IR text: the header, one package record
// per package asked for, one func record per function followed by its
// param, free, block, op, case and loop records, then an extern record per
// function referenced but not written (docs/ir-format.md).
package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/ssa"
)

// formatVersion is the first line's number; bump it on any change a
// reader of the previous version would misread.
const formatVersion = 2

// funcIDs numbers functions: the written ones first (F1...), then every
// other function referenced, as it is met.
type funcIDs struct {
	ids     map[*ssa.Function]string
	externs []*ssa.Function
}

func (f *funcIDs) of(fn *ssa.Function) string {
	if id, ok := f.ids[fn]; ok {
		return id
	}
	id := fmt.Sprintf("F%d", len(f.ids)+1)
	f.ids[fn] = id
	f.externs = append(f.externs, fn)
	return id
}

type writer struct {
	w     io.Writer
	pr    *program
	ids   *funcIDs
	sites map[ssa.CallInstruction][]*ssa.Function // call graph edges by site
}

func writeIR(w io.Writer, pr *program) {
	wr := &writer{w: w, pr: pr, ids: &funcIDs{ids: map[*ssa.Function]string{}},
		sites: map[ssa.CallInstruction][]*ssa.Function{}}
	for i, f := range pr.funcs {
		wr.ids.ids[f] = fmt.Sprintf("F%d", i+1)
	}
	for f, n := range pr.cg.Nodes {
		if f == nil || !pr.emitted[f] {
			continue
		}
		for _, e := range n.Out {
			if e.Site != nil && e.Callee.Func != nil {
				wr.sites[e.Site] = append(wr.sites[e.Site], e.Callee.Func)
			}
		}
	}
	fmt.Fprintf(w, "gordian-ir %d\n", formatVersion)
	record("meta").kv("go", runtime.Version()).kv("callgraph", "vta").kv("root", pr.root).write(w)
	for i, p := range pr.rootPkgs {
		l := record("package").word(p.PkgPath).kv("name", p.Name).kv("dir", dirOf(p.GoFiles))
		if pr.roots[i] != nil && p.ForTest != "" {
			l.kv("tests", "1")
		}
		l.write(w)
	}
	for _, f := range pr.funcs {
		wr.function(f)
	}
	for i := 0; i < len(wr.ids.externs); i++ {
		f := wr.ids.externs[i]
		record("extern").word(wr.ids.ids[f]).kv("name", f.String()).kv("pkg", pkgPath(f)).write(w)
	}
	fmt.Fprintln(w, "end")
}

func dirOf(files []string) string {
	if len(files) == 0 {
		return ""
	}
	return filepath.Dir(files[0])
}

// pos: "file:line:col", file relative to the root when under it.
func (wr *writer) pos(p token.Pos) string {
	if !p.IsValid() {
		return ""
	}
	q := wr.pr.fset.Position(p)
	file := q.Filename
	if rel, err := filepath.Rel(wr.pr.root, file); err == nil && !strings.HasPrefix(rel, "..") {
		file = rel
	}
	return fmt.Sprintf("%s:%d:%d", file, q.Line, q.Column)
}

func funcKind(f *ssa.Function) string {
	switch {
	case f.Parent() != nil:
		return "closure"
	case f.Name() == "init" || strings.HasPrefix(f.Name(), "init#"):
		return "init"
	case f.Synthetic != "":
		if f.Origin() != nil {
			return "instance"
		}
		return "wrapper"
	case f.Signature.Recv() != nil:
		return "method"
	case f.Name() == "init" || strings.HasPrefix(f.Name(), "init#"):
		return "init"
	case isTest(f):
		return "test"
	}
	return "func"
}

// isTest: func TestXxx(t *testing.T) (or Benchmark/Fuzz) in a _test.go file.
func isTest(f *ssa.Function) bool {
	name := f.Name()
	var prefix string
	for _, p := range []string{"Test", "Benchmark", "Fuzz"} {
		if strings.HasPrefix(name, p) {
			prefix = p
		}
	}
	if prefix == "" || f.Signature.Params().Len() != 1 {
		return false
	}
	if rest := name[len(prefix):]; rest != "" {
		r, _ := utf8.DecodeRuneInString(rest)
		if unicode.IsLower(r) {
			return false
		}
	}
	pt := types.TypeString(f.Signature.Params().At(0).Type(), nil)
	return pt == "*testing.T" || pt == "*testing.B" || pt == "*testing.F"
}

func typeStr(t types.Type) string { return types.TypeString(t, nil) }

// primField: the prim= value of a type: its primitive kind, "holder" for
// a struct with primitive fields, "" otherwise.
func primField(t types.Type) string {
	if k := primOf(t); k != "" {
		return k
	}
	if holdsPrim(t, 0) {
		return "holder"
	}
	return ""
}

func (wr *writer) function(f *ssa.Function) {
	w := wr.w
	n := &namer{fn: f, ids: wr.ids}
	l := record("func").word(wr.ids.ids[f]).kv("name", f.String()).kv("pkg", pkgPath(f)).
		kv("kind", funcKind(f)).kv("pos", wr.pos(f.Pos()))
	if f.Parent() != nil {
		l.kv("parent", wr.ids.of(f.Parent()))
	}
	if f.Object() != nil && f.Object().Exported() {
		l.kv("exported", "1")
	}
	l.kvInt("results", f.Signature.Results().Len())
	l.write(w)
	for i, p := range f.Params {
		record("param").word(fmt.Sprintf("p%d", i)).kv("name", p.Name()).kv("type", typeStr(p.Type())).
			kv("prim", primField(p.Type())).write(w)
	}
	for i, v := range f.FreeVars {
		record("free").word(fmt.Sprintf("f%d", i)).kv("name", v.Name()).kv("type", typeStr(v.Type())).
			kv("prim", primField(v.Type())).write(w)
	}
	for _, b := range f.Blocks {
		l := record("block").word(fmt.Sprint(b.Index)).kv("comment", b.Comment).
			kv("succs", blockList(b.Succs)).kv("preds", blockList(b.Preds))
		l.write(w)
		fallback := blockFallbacks(b, f.Pos())
		for i, in := range b.Instrs {
			wr.instr(n, b, in, fallback[i])
		}
	}
	for _, lp := range findLoops(f) {
		wr.loop(n, lp)
	}
}

func blockList(bs []*ssa.BasicBlock) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = fmt.Sprint(b.Index)
	}
	return strings.Join(parts, ",")
}

// blockFallbacks: for each instruction of b, the position to use when
// go/ssa gives it none (what the compiler synthesised: implicit returns,
// run-defers, a range loop's test): the next position in the block, else
// the previous one, else the function's.
func blockFallbacks(b *ssa.BasicBlock, fnPos token.Pos) []token.Pos {
	out := make([]token.Pos, len(b.Instrs))
	next := token.NoPos
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if p := instrPos(b.Instrs[i]); p.IsValid() {
			next = p
		}
		out[i] = next
	}
	prev := fnPos
	for i, in := range b.Instrs {
		if p := instrPos(in); p.IsValid() {
			prev = p
		}
		if !out[i].IsValid() {
			out[i] = prev
		}
	}
	return out
}

func instrPos(in ssa.Instruction) token.Pos {
	if iff, ok := in.(*ssa.If); ok && !iff.Pos().IsValid() {
		return iff.Cond.Pos()
	}
	return in.Pos()
}

// op starts an op record at p, or at the fallback position when p is
// unknown.
func (wr *writer) op(kind string, p token.Pos, fallback token.Pos) *line {
	if !p.IsValid() {
		p = fallback
	}
	return record("op").word(kind).kv("pos", wr.pos(p))
}

// instr writes the records of one instruction (none for most: the IR
// keeps what concurrency and control flow need); last is the position
// to use when the instruction has none.
func (wr *writer) instr(n *namer, b *ssa.BasicBlock, in ssa.Instruction, last token.Pos) {
	w := wr.w
	switch in := in.(type) {
	case *ssa.MakeChan:
		wr.op("make-chan", in.Pos(), last).kv("dst", n.ref(in)).kv("elem", typeStr(in.Type().Underlying().(*types.Chan).Elem())).
			kv("cap", n.expr(in.Size)).write(w)
	case *ssa.Send:
		wr.op("send", in.Pos(), last).kv("ch", n.ref(in.Chan)).kv("val", n.ref(in.X)).write(w)
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			l := wr.op("recv", in.Pos(), last).kv("dst", n.ref(in)).kv("ch", n.ref(in.X))
			if in.CommaOk {
				l.kv("commaok", "1")
			}
			if b.Comment == "rangechan.loop" {
				l.kv("range", "1")
			}
			l.write(w)
		} else if in.Op == token.MUL && primField(in.Type()) != "" {
			wr.op("load", in.Pos(), last).kv("dst", n.ref(in)).kv("addr", n.ref(in.X)).kv("prim", primField(in.Type())).write(w)
		} else if in.Op == token.MUL && funcCell(in.X) {
			// The function a captured variable holds (see funcCell).
			wr.op("copy", in.Pos(), last).kv("dst", n.ref(in)).kv("src", n.ref(in.X)).kv("how", "func").write(w)
		}
	case *ssa.Select:
		l := wr.op("select", in.Pos(), last).kv("dst", n.ref(in)).kv("blocking", boolStr(in.Blocking))
		targets, dflt := selectTargets(in)
		if !in.Blocking && dflt != nil {
			l.kvInt("default", dflt.Index)
		}
		l.kvInt("cases", len(in.States))
		l.write(w)
		for i, s := range in.States {
			dir := "recv"
			if s.Dir == types.SendOnly {
				dir = "send"
			}
			cl := record("case").word(fmt.Sprint(i)).kv("dir", dir).kv("ch", n.ref(s.Chan))
			if s.Send != nil {
				cl.kv("val", n.ref(s.Send))
			}
			if t := targets[i]; t != nil {
				cl.kvInt("target", t.Index)
			}
			cl.kv("pos", wr.pos(s.Pos))
			cl.write(w)
		}
	case *ssa.Call:
		wr.call("call", n, in, &in.Call, in, in.Pos(), last)
	case *ssa.Go:
		wr.call("go", n, in, &in.Call, nil, in.Pos(), last)
	case *ssa.Defer:
		wr.call("defer", n, in, &in.Call, nil, in.Pos(), last)
	case *ssa.RunDefers:
		wr.op("run-defers", in.Pos(), last).write(w)
	case *ssa.Return:
		p := in.Pos()
		if !p.IsValid() {
			if body, ok := n.fn.Syntax().(*ast.FuncDecl); ok && body.Body != nil {
				p = body.Body.Rbrace
			} else if lit, ok := n.fn.Syntax().(*ast.FuncLit); ok && lit.Body != nil {
				p = lit.Body.Rbrace
			}
		}
		wr.op("return", p, last).kv("vals", n.refs(in.Results)).write(w)
	case *ssa.Panic:
		wr.op("panic", in.Pos(), last).kv("val", n.ref(in.X)).write(w)
	case *ssa.If:
		wr.op("if", instrPos(in), last).kv("cond", n.expr(in.Cond)).write(w)
	case *ssa.MakeClosure:
		wr.op("closure", in.Pos(), last).kv("dst", n.ref(in)).kv("fn", n.ref(in.Fn)).kv("bind", n.refs(in.Bindings)).write(w)
	case *ssa.Alloc:
		if k := primField(deref(in.Type())); k != "" {
			wr.op("alloc", in.Pos(), last).kv("dst", n.ref(in)).kv("type", typeStr(deref(in.Type()))).
				kv("prim", k).kv("heap", boolStr(in.Heap)).write(w)
		} else if a, ok := deref(in.Type()).Underlying().(*types.Array); ok && primOf(a.Elem()) != "" {
			// A local array of primitives (a composite literal's, a
			// variadic call's): a collection made here, with its length.
			wr.op("sized", in.Pos(), last).kv("dst", n.ref(in)).kv("len", fmt.Sprint(a.Len())).write(w)
		} else if in.Heap && scalarType(deref(in.Type())) {
			wr.op("var-new", in.Pos(), last).kv("dst", n.ref(in)).kv("type", typeStr(deref(in.Type()))).
				kv("name", in.Comment).write(w)
		}
	case *ssa.FieldAddr:
		if k := primField(deref(in.Type())); k != "" {
			wr.op("field", in.Pos(), last).kv("dst", n.ref(in)).kv("base", n.ref(in.X)).
				kv("field", fieldName(in.X.Type(), in.Field)).kv("prim", k).kv("addr", "1").write(w)
		}
	case *ssa.Field:
		if k := primField(in.Type()); k != "" {
			wr.op("field", in.Pos(), last).kv("dst", n.ref(in)).kv("base", n.ref(in.X)).
				kv("field", fieldName(in.X.Type(), in.Field)).kv("prim", k).write(w)
		}
	case *ssa.Store:
		if a, ok := in.Addr.(*ssa.Alloc); ok && funcCell(a) {
			// The one function a captured variable is given: the variable
			// is that function to the closures that capture it afterwards.
			wr.op("copy", in.Pos(), last).kv("dst", n.ref(a)).kv("src", n.ref(in.Val)).kv("how", "func").write(w)
		} else if k := primField(in.Val.Type()); k != "" {
			wr.op("store", in.Pos(), last).kv("addr", n.ref(in.Addr)).kv("val", n.ref(in.Val)).kv("prim", k).write(w)
		} else if a := n.varAddr(in.Addr); a != "" {
			wr.op("var-store", in.Pos(), last).kv("cell", a).kv("value", n.expr(in.Val)).write(w)
		}
	case *ssa.Phi:
		if k := primField(in.Type()); k != "" {
			wr.op("phi", in.Pos(), last).kv("dst", n.ref(in)).kv("edges", n.refs(in.Edges)).kv("prim", k).write(w)
		}
	case *ssa.Extract:
		if k := primField(in.Type()); k != "" {
			wr.op("copy", in.Pos(), last).kv("dst", n.ref(in)).kv("src", n.ref(in.Tuple)).
				kv("how", "extract").kvInt("index", in.Index).kv("prim", k).write(w)
		}
	case *ssa.Slice, *ssa.MakeSlice:
		v := in.(ssa.Value)
		if k := primField(v.Type()); k != "" {
			if src, how := copySource(v); src != nil {
				wr.op("copy", in.Pos(), last).kv("dst", n.ref(v)).kv("src", n.ref(src)).kv("how", how).kv("prim", k).write(w)
			}
		} else if ms, ok := v.(*ssa.MakeSlice); ok && elemPrim(ms.Type()) {
			// make([]chan T, n): a collection made here.
			wr.op("sized", in.Pos(), last).kv("dst", n.ref(v)).kv("len", n.expr(ms.Len)).write(w)
		} else if passedToCall(v) {
			if l, ok := n.staticLen(v, 0); ok {
				sl := wr.op("sized", in.Pos(), last).kv("dst", n.ref(v)).kv("len", l)
				if s, ok := v.(*ssa.Slice); ok && elemPrim(s.X.Type()) {
					sl.kv("src", n.ref(s.X))
				}
				sl.write(w)
			}
		}
	case ssa.Value:
		if src, how := copySource(in); src != nil {
			if k := primField(in.Type()); k != "" {
				l := wr.op("copy", in.Pos(), last).kv("dst", n.ref(in)).kv("src", n.ref(src)).kv("how", how).kv("prim", k)
				if at := indexOf(in); at != nil {
					l.kv("at", n.expr(at))
				}
				l.write(w)
			}
		}
	}
}

// scalarType: a bool or an integer, the kind of variable a Cond's predicate
// loop reads (for !ready { c.Wait() }) and a model may track.
func scalarType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsInteger) != 0
}

// varAddr: the address a store writes through, as an expression, when it is
// a bool or integer variable a model may track (docs/ir-format.md
// "Variables"): a field of a struct that holds primitives, a captured local
// (a heap alloc, written as var-new) or a captured variable of a closure.
// "" for any other store.
func (n *namer) varAddr(addr ssa.Value) string {
	if !scalarType(deref(addr.Type())) {
		return ""
	}
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		if holdsPrim(a.X.Type(), 0) {
			return n.expr(a)
		}
	case *ssa.Alloc:
		if a.Heap {
			return n.ref(a)
		}
	case *ssa.FreeVar, *ssa.Global:
		return n.ref(a)
	}
	return ""
}

// funcCell: v is a variable of function type that closures capture (a
// heap local, or a closure's free variable) and that is given a function
// once: a callback parameter a goroutine's closure calls. Its store and
// loads are written as `copy how=func`, so the function, with the values
// it captured, reaches the call through the closure. A variable stored
// more than once is left out (which function a call finds would depend on
// the order).
func funcCell(v ssa.Value) bool {
	if _, ok := deref(v.Type()).Underlying().(*types.Signature); !ok {
		return false
	}
	switch a := v.(type) {
	case *ssa.FreeVar:
		return true
	case *ssa.Alloc:
		if !a.Heap {
			return false
		}
		stores := 0
		for _, r := range *a.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == a {
				stores++
			}
		}
		return stores == 1
	}
	return false
}

// passedToCall: v is an argument of a call, go or defer (the callee may
// range over it or read its length).
func passedToCall(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if c, ok := r.(ssa.CallInstruction); ok {
			for _, a := range c.Common().Args {
				if a == v {
					return true
				}
			}
		}
	}
	return false
}

// copySource: the operand of an instruction that passes a value on
// (conversions, interface boxing, indexing a collection of primitives).
// indexOf: the index of an element of a slice, array or map (the at= of a
// copy how=index or how=lookup), nil for other values.
func indexOf(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.IndexAddr:
		return v.Index
	case *ssa.Index:
		return v.Index
	case *ssa.Lookup:
		return v.Index
	}
	return nil
}

// elemPrim: t is (a pointer to) an array or slice whose elements are
// primitives (a collection of channels, WaitGroups, mutexes).
func elemPrim(t types.Type) bool {
	t = deref(t)
	switch u := t.Underlying().(type) {
	case *types.Array:
		return primOf(u.Elem()) != ""
	case *types.Slice:
		return primOf(u.Elem()) != ""
	}
	return false
}

func copySource(v ssa.Value) (ssa.Value, string) {
	switch v := v.(type) {
	case *ssa.ChangeType:
		return v.X, "convert"
	case *ssa.Convert:
		return v.X, "convert"
	case *ssa.MakeInterface:
		return v.X, "interface"
	case *ssa.ChangeInterface:
		return v.X, "interface"
	case *ssa.TypeAssert:
		return v.X, "assert"
	case *ssa.IndexAddr:
		return v.X, "index"
	case *ssa.Index:
		return v.X, "index"
	case *ssa.Lookup:
		return v.X, "lookup"
	case *ssa.Slice:
		return v.X, "slice"
	}
	return nil, ""
}

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// call writes a call, go or defer: an op of its primitive kind when it is
// one (lock, wg-add, timer-after, ...), else an ordinary call op.
func (wr *writer) call(via string, n *namer, site ssa.CallInstruction, c *ssa.CallCommon, result ssa.Value,
	p token.Pos, last token.Pos) {
	w := wr.w
	if k := primOp(c); k != "" {
		l := wr.op(k, p, last)
		if via != "call" {
			l.kv("via", via)
		}
		if result != nil && !isVoid(result) {
			l.kv("dst", n.ref(result))
		}
		args := c.Args
		var on ssa.Value
		switch {
		case c.IsInvoke():
			on = c.Value
		case k == "cancel":
			on = c.Value
		case c.Signature().Recv() != nil && len(args) > 0:
			on, args = args[0], args[1:]
		}
		if on != nil {
			l.kv("on", n.ref(on))
			// Lock, Unlock and TryLock are the same op on a Mutex and an
			// RWMutex: say which, so that a reader that first meets the
			// lock here (a package-level RWMutex) makes the right kind.
			if k == "lock" || k == "unlock" || k == "trylock" {
				if pk := primOf(on.Type()); pk != "" {
					l.kv("prim", pk)
				}
			}
		}
		wr.primArgs(l, n, k, args)
		l.write(w)
		return
	}
	l := wr.op(via, p, last)
	if result != nil && !isVoid(result) {
		l.kv("dst", n.ref(result))
	}
	switch {
	case c.IsInvoke():
		l.kv("mode", "invoke").kv("recv", n.ref(c.Value)).kv("method", c.Method.Name())
	default:
		if callee := c.StaticCallee(); callee != nil {
			if _, ok := c.Value.(*ssa.MakeClosure); ok {
				l.kv("mode", "closure").kv("fn", n.ref(c.Value))
			} else {
				l.kv("mode", "static")
			}
			l.kv("callee", wr.ids.of(callee))
		} else if bi, ok := c.Value.(*ssa.Builtin); ok {
			l.kv("mode", "builtin").kv("builtin", bi.Name())
			if bi.Name() == "close" && len(c.Args) == 1 {
				// close(ch) is its own op kind.
				l = wr.op("close", p, last)
				if via != "call" {
					l.kv("via", via)
				}
				l.kv("ch", n.ref(c.Args[0])).write(w)
				return
			}
		} else {
			l.kv("mode", "dynamic").kv("fn", n.ref(c.Value))
		}
	}
	if c.StaticCallee() == nil {
		if _, bi := c.Value.(*ssa.Builtin); !bi {
			l.kv("callees", wr.calleeList(site))
			if len(wr.sites[site]) == 0 {
				l.kv("unresolved", "1")
			}
		}
	}
	l.kv("args", n.refs(c.Args))
	l.write(w)
}

func (wr *writer) calleeList(site ssa.CallInstruction) string {
	var ids []string
	seen := map[string]bool{}
	for _, f := range wr.sites[site] {
		id := wr.ids.of(f)
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return strings.Join(ids, ",")
}

// primArgs: the fields of a primitive op beyond its receiver.
func (wr *writer) primArgs(l *line, n *namer, kind string, args []ssa.Value) {
	arg := func(i int) ssa.Value {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	switch kind {
	case "wg-add":
		l.kv("delta", n.expr(arg(0)))
	case "once-do", "wg-go":
		l.kv("fn", n.ref(arg(0)))
	case "ctx-cancel", "ctx-detach":
		l.kv("parent", n.ref(arg(0)))
	case "ctx-timeout":
		l.kv("parent", n.ref(arg(0))).kv("dur", n.expr(arg(1)))
	case "ctx-afterfunc":
		l.kv("ctx", n.ref(arg(0))).kv("fn", n.ref(arg(1)))
	case "cond-new":
		l.kv("locker", n.ref(arg(0)))
	case "timer-after", "timer-tick", "timer-new", "timer-new-ticker", "sleep", "timer-reset":
		l.kv("dur", n.expr(arg(0)))
	case "timer-afterfunc":
		l.kv("dur", n.expr(arg(0))).kv("fn", n.ref(arg(1)))
	}
}

func isVoid(v ssa.Value) bool {
	t, ok := v.Type().(*types.Tuple)
	return ok && t.Len() == 0
}

// selectTargets: for each case of a select, the block its body starts in,
// and the block after the last case test (the default's body, or for a
// blocking select the unreachable panic). go/ssa lowers a select to a chain
// of "if index == k" tests on the select's first result, in case order.
func selectTargets(s *ssa.Select) ([]*ssa.BasicBlock, *ssa.BasicBlock) {
	targets := make([]*ssa.BasicBlock, len(s.States))
	var index ssa.Value
	for _, r := range *s.Referrers() {
		if e, ok := r.(*ssa.Extract); ok && e.Index == 0 {
			index = e
		}
	}
	if index == nil || len(s.States) == 0 {
		if succ := s.Block().Succs; len(succ) == 1 {
			return targets, succ[0]
		}
		return targets, nil
	}
	var dflt *ssa.BasicBlock
	last := -1
	for _, r := range *index.Referrers() {
		cmp, ok := r.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL {
			continue
		}
		k, ok := cmp.Y.(*ssa.Const)
		if !ok {
			continue
		}
		for _, rr := range *cmp.Referrers() {
			iff, ok := rr.(*ssa.If)
			if !ok {
				continue
			}
			i := int(k.Int64())
			if i >= 0 && i < len(targets) {
				targets[i] = iff.Block().Succs[0]
				if i > last {
					last, dflt = i, iff.Block().Succs[1]
				}
			}
		}
	}
	return targets, dflt
}
