// This file owns how SSA values appear in the IR: references (p0, f1, t7,
// g:pkg.name, fn:F3, literals) and the integer expressions of capacities,
// Add deltas, durations and loop bounds, written as prefix S-expressions
// (docs/ir-format.md, "Values and expressions") so that the model extractor
// can turn the free references in them into model parameters.
package main

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// namer gives references inside one function; ids gives functions theirs.
type namer struct {
	fn  *ssa.Function
	ids *funcIDs
}

// ref: the reference of a value (never empty, never with a space).
func (n *namer) ref(v ssa.Value) string {
	switch v := v.(type) {
	case nil:
		return "-"
	case *ssa.Parameter:
		for i, p := range n.fn.Params {
			if p == v {
				return fmt.Sprintf("p%d", i)
			}
		}
		return "?"
	case *ssa.FreeVar:
		for i, p := range n.fn.FreeVars {
			if p == v {
				return fmt.Sprintf("f%d", i)
			}
		}
		return "?"
	case *ssa.Const:
		return constRef(v)
	case *ssa.Global:
		if v.Pkg != nil {
			return "g:" + v.Pkg.Pkg.Path() + "." + v.Name()
		}
		return "g:" + v.Name()
	case *ssa.Function:
		return "fn:" + n.ids.of(v)
	case *ssa.Builtin:
		return "builtin:" + v.Name()
	}
	name := v.Name()
	if name == "" || strings.ContainsAny(name, " ()\"") {
		return "?"
	}
	return name
}

func constRef(c *ssa.Const) string {
	if c.Value == nil {
		return "nil"
	}
	switch c.Value.Kind() {
	case constant.Int:
		return c.Value.ExactString()
	case constant.Bool:
		return c.Value.ExactString()
	case constant.Float:
		if f, ok := constant.Float64Val(c.Value); ok && f == float64(int64(f)) {
			return fmt.Sprint(int64(f))
		}
	}
	return "const"
}

var binOps = map[token.Token]string{
	token.ADD: "+", token.SUB: "-", token.MUL: "*", token.QUO: "/", token.REM: "%",
	token.AND: "&", token.OR: "|", token.XOR: "^", token.SHL: "<<", token.SHR: ">>",
	token.AND_NOT: "&^", token.EQL: "==", token.NEQ: "!=", token.LSS: "<",
	token.LEQ: "<=", token.GTR: ">", token.GEQ: ">=",
}

const maxExprDepth = 6

// expr: the expression that computes v, following its definition through
// arithmetic, len/cap, calls, field reads and conversions; other values are
// their reference (a phi is its reference: loop variables stay variables).
func (n *namer) expr(v ssa.Value) string { return n.exprDepth(v, 0) }

func (n *namer) exprDepth(v ssa.Value, d int) string {
	if d > maxExprDepth {
		return n.ref(v)
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		if op, ok := binOps[v.Op]; ok {
			return fmt.Sprintf("(%s %s %s)", op, n.exprDepth(v.X, d+1), n.exprDepth(v.Y, d+1))
		}
	case *ssa.UnOp:
		switch v.Op {
		case token.SUB:
			return fmt.Sprintf("(neg %s)", n.exprDepth(v.X, d+1))
		case token.NOT:
			return fmt.Sprintf("(! %s)", n.exprDepth(v.X, d+1))
		case token.MUL:
			return fmt.Sprintf("(load %s)", n.exprDepth(v.X, d+1))
		}
	case *ssa.Extract:
		return fmt.Sprintf("(extract %s %d)", n.exprDepth(v.Tuple, d+1), v.Index)
	case *ssa.Convert:
		return n.exprDepth(v.X, d)
	case *ssa.ChangeType:
		return n.exprDepth(v.X, d)
	case *ssa.FieldAddr:
		return fmt.Sprintf("(field %s %s)", n.exprDepth(v.X, d+1), fieldName(v.X.Type(), v.Field))
	case *ssa.Field:
		return fmt.Sprintf("(field %s %s)", n.exprDepth(v.X, d+1), fieldName(v.X.Type(), v.Field))
	case *ssa.Call:
		c := &v.Call
		if primOp(c) != "" {
			break // an op of its own, whose dst= this is
		}
		if b, ok := c.Value.(*ssa.Builtin); ok {
			if b.Name() == "len" && len(c.Args) == 1 {
				if l, ok := n.staticLen(c.Args[0], d+1); ok {
					return l
				}
			}
			switch b.Name() {
			case "len", "cap", "min", "max":
				return "(" + b.Name() + n.exprArgs(c.Args, d) + ")"
			}
			break
		}
		if c.IsInvoke() {
			return fmt.Sprintf("(invoke %s %s%s)", n.exprDepth(c.Value, d+1), c.Method.Name(), n.exprArgs(c.Args, d))
		}
		return fmt.Sprintf("(call %s%s)", n.exprDepth(c.Value, d+1), n.exprArgs(c.Args, d))
	}
	return n.ref(v)
}

// staticLen: the length of a slice or array value as an expression, when
// its definition says it: an array (its type), a slice of an array (a
// composite literal, the variadic arguments of a call), make([]T, n).
// A slice the function received stays len(p0): its caller knows (the
// `sized` op of a call argument, docs/ir-format.md).
func (n *namer) staticLen(v ssa.Value, d int) (string, bool) {
	if d > maxExprDepth {
		return "", false
	}
	if a, ok := deref(v.Type()).Underlying().(*types.Array); ok {
		return fmt.Sprint(a.Len()), true
	}
	switch v := v.(type) {
	case *ssa.MakeSlice:
		return n.exprDepth(v.Len, d+1), true
	case *ssa.Convert:
		return n.staticLen(v.X, d+1)
	case *ssa.ChangeType:
		return n.staticLen(v.X, d+1)
	case *ssa.Slice:
		if v.Max != nil {
			return "", false
		}
		var high string
		if v.High != nil {
			high = n.exprDepth(v.High, d+1)
		} else if l, ok := n.staticLen(v.X, d+1); ok {
			high = l
		} else {
			return "", false
		}
		if v.Low == nil {
			return high, true
		}
		return fmt.Sprintf("(- %s %s)", high, n.exprDepth(v.Low, d+1)), true
	}
	return "", false
}

func (n *namer) exprArgs(args []ssa.Value, d int) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(n.exprDepth(a, d+1))
	}
	return b.String()
}

// refs: references joined by commas ("" for none).
func (n *namer) refs(vs []ssa.Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = n.ref(v)
	}
	return strings.Join(parts, ",")
}

// fieldName: the name of field i of the struct t points to (or is).
func fieldName(t types.Type, i int) string {
	t = types.Unalias(t)
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i).Name()
	}
	return fmt.Sprintf("#%d", i)
}
