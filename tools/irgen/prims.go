// This file owns the table of concurrency primitives: which Go types the IR
// calls primitives (the prim= field of docs/ir-format.md) and which calls
// on them are operations (the op kinds sync, context and time contribute).
// Facts about a primitive kind live here and nowhere else.
package main

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// namedPrims: named types that are primitives, by "pkgpath.Name".
var namedPrims = map[string]string{
	"sync.Mutex":              "mutex",
	"sync.RWMutex":            "rwmutex",
	"sync.WaitGroup":          "waitgroup",
	"sync.Once":               "once",
	"sync.Cond":               "cond",
	"context.Context":         "context",
	"context.CancelFunc":      "cancel",
	"context.CancelCauseFunc": "cancel",
	"time.Timer":              "timer",
	"time.Ticker":             "ticker",
}

// primOf: the primitive kind of a type ("" when it is none): a channel, a
// named primitive, or a pointer to one.
func primOf(t types.Type) string {
	if t == nil {
		return ""
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	t = types.Unalias(t)
	if n, ok := t.(*types.Named); ok {
		if obj := n.Obj(); obj != nil && obj.Pkg() != nil {
			if k, ok := namedPrims[obj.Pkg().Path()+"."+obj.Name()]; ok {
				return k
			}
		}
	}
	if _, ok := t.Underlying().(*types.Chan); ok {
		return "chan"
	}
	return ""
}

// holdsPrim: a struct (or pointer to one) with a primitive field, directly
// or in an embedded or nested struct, to a small depth.
func holdsPrim(t types.Type, depth int) bool {
	if t == nil || depth > 3 {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < s.NumFields(); i++ {
		ft := s.Field(i).Type()
		if primOf(ft) != "" || holdsPrim(ft, depth+1) {
			return true
		}
	}
	return false
}

// methodOps: methods of primitives that are IR operations, by
// "pkgpath.Type.Method" (the receiver's named type, pointer or not).
var methodOps = map[string]string{
	"sync.Mutex.Lock":       "lock",
	"sync.Mutex.Unlock":     "unlock",
	"sync.Mutex.TryLock":    "trylock",
	"sync.RWMutex.Lock":     "lock",
	"sync.RWMutex.Unlock":   "unlock",
	"sync.RWMutex.TryLock":  "trylock",
	"sync.RWMutex.RLock":    "rlock",
	"sync.RWMutex.RUnlock":  "runlock",
	"sync.RWMutex.TryRLock": "tryrlock",
	"sync.RWMutex.RLocker":  "rlocker",
	"sync.WaitGroup.Add":    "wg-add",
	"sync.WaitGroup.Done":   "wg-done",
	"sync.WaitGroup.Wait":   "wg-wait",
	"sync.WaitGroup.Go":     "wg-go",
	"sync.Once.Do":          "once-do",
	"sync.Locker.Lock":      "lock",
	"sync.Locker.Unlock":    "unlock",
	"sync.Cond.Wait":        "cond-wait",
	"sync.Cond.Signal":      "cond-signal",
	"sync.Cond.Broadcast":   "cond-broadcast",
	"context.Context.Done":  "ctx-done",
	"context.Context.Err":   "ctx-err",
	"time.Timer.Stop":       "timer-stop",
	"time.Timer.Reset":      "timer-reset",
	"time.Ticker.Stop":      "timer-stop",
	"time.Ticker.Reset":     "timer-reset",
}

// funcOps: package-level functions that are IR operations.
var funcOps = map[string]string{
	"context.Background":        "ctx-root",
	"context.TODO":              "ctx-root",
	"context.WithCancel":        "ctx-cancel",
	"context.WithCancelCause":   "ctx-cancel",
	"context.WithTimeout":       "ctx-timeout",
	"context.WithTimeoutCause":  "ctx-timeout",
	"context.WithDeadline":      "ctx-timeout",
	"context.WithDeadlineCause": "ctx-timeout",
	"context.WithoutCancel":     "ctx-detach",
	"context.AfterFunc":         "ctx-afterfunc",
	"sync.NewCond":              "cond-new",
	"time.After":                "timer-after",
	"time.Tick":                 "timer-tick",
	"time.NewTimer":             "timer-new",
	"time.NewTicker":            "timer-new-ticker",
	"time.AfterFunc":            "timer-afterfunc",
	"time.Sleep":                "sleep",
}

// primOp: the IR op kind of a call ("" for an ordinary call).
func primOp(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		return methodOps[qualifiedMethod(c.Method)]
	}
	if f, ok := c.Value.(*ssa.Function); ok {
		obj, _ := f.Object().(*types.Func)
		if obj == nil {
			return ""
		}
		if sig, _ := obj.Type().(*types.Signature); sig != nil && sig.Recv() != nil {
			return methodOps[qualifiedMethod(obj)]
		}
		if obj.Pkg() != nil {
			return funcOps[obj.Pkg().Path()+"."+obj.Name()]
		}
		return ""
	}
	// A call of a function value whose type is a CancelFunc: cancel().
	if primOf(c.Value.Type()) == "cancel" {
		return "cancel"
	}
	return ""
}

// qualifiedMethod: "pkgpath.Type.Method" of a method (pointer receivers
// dropped), "" for a function.
func qualifiedMethod(m *types.Func) string {
	if m == nil {
		return ""
	}
	sig, _ := m.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + m.Name()
}
