// This file owns loops: the natural loops of a function (a back edge is
// an edge to a block that dominates its source) and, where the header's
// exit test compares a loop variable (a phi of the header) with a bound,
// that variable's start, step and the test, as IR expressions.
package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

type loop struct {
	header *ssa.BasicBlock
	blocks []*ssa.BasicBlock // sorted by index, header included
}

func findLoops(f *ssa.Function) []loop {
	byHeader := map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool{}
	var headers []*ssa.BasicBlock
	for _, b := range f.Blocks {
		for _, h := range b.Succs {
			if !h.Dominates(b) {
				continue
			}
			body := byHeader[h]
			if body == nil {
				body = map[*ssa.BasicBlock]bool{h: true}
				byHeader[h] = body
				headers = append(headers, h)
			}
			// Everything that reaches the back edge's source without
			// passing the header is in the loop.
			work := []*ssa.BasicBlock{b}
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				if body[x] {
					continue
				}
				body[x] = true
				work = append(work, x.Preds...)
			}
		}
	}
	sort.Slice(headers, func(i, j int) bool { return headers[i].Index < headers[j].Index })
	out := make([]loop, 0, len(headers))
	for _, h := range headers {
		lp := loop{header: h}
		for b := range byHeader[h] {
			lp.blocks = append(lp.blocks, b)
		}
		sort.Slice(lp.blocks, func(i, j int) bool { return lp.blocks[i].Index < lp.blocks[j].Index })
		out = append(out, lp)
	}
	return out
}

func (wr *writer) loop(n *namer, lp loop) {
	inLoop := map[*ssa.BasicBlock]bool{}
	for _, b := range lp.blocks {
		inLoop[b] = true
	}
	l := record("loop").kv("header", fmt.Sprint(lp.header.Index)).kv("blocks", blockList(lp.blocks)).
		kv("comment", lp.header.Comment)
	// The exit test: the If that ends a loop block and leaves the loop;
	// the header's own if first.
	var test *ssa.If
	for _, b := range append([]*ssa.BasicBlock{lp.header}, lp.blocks...) {
		if iff, ok := lastInstr(b).(*ssa.If); ok && (!inLoop[b.Succs[0]] || !inLoop[b.Succs[1]]) {
			test = iff
			break
		}
	}
	if test == nil {
		l.kv("exit", "none")
	} else {
		exitWhen := "0"
		if !inLoop[test.Block().Succs[0]] {
			exitWhen = "1"
		}
		l.kv("cond", n.expr(test.Cond)).kv("exitwhen", exitWhen)
		if phi := loopVar(lp.header, test.Cond); phi != nil {
			var init, step []string
			for i, e := range phi.Edges {
				if inLoop[lp.header.Preds[i]] {
					step = append(step, n.expr(e))
				} else {
					init = append(init, n.expr(e))
				}
			}
			l.kv("var", n.ref(phi)).kv("init", strings.Join(init, ",")).kv("step", strings.Join(step, ","))
		}
	}
	p := loopStmtPos(lp)
	if !p.IsValid() {
		p = loopPos(lp, test)
	}
	l.kv("pos", wr.pos(p))
	l.write(wr.w)
}

func lastInstr(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

// loopVar: a phi of the header that the exit condition reads, directly or
// through arithmetic (range loops test index+1 < len).
func loopVar(h *ssa.BasicBlock, cond ssa.Value) *ssa.Phi {
	var found *ssa.Phi
	var visit func(v ssa.Value, d int)
	visit = func(v ssa.Value, d int) {
		if found != nil || d > 4 {
			return
		}
		switch v := v.(type) {
		case *ssa.Phi:
			if v.Block() == h {
				found = v
			}
		case *ssa.BinOp:
			visit(v.X, d+1)
			visit(v.Y, d+1)
		case *ssa.Convert:
			visit(v.X, d+1)
		}
	}
	visit(cond, 0)
	return found
}

// loopPos: the exit test's position, else the first position in the header
// or the loop's blocks (go/ssa gives range loops' tests none).
func loopPos(lp loop, test *ssa.If) token.Pos {
	if test != nil && test.Cond.Pos().IsValid() {
		return test.Cond.Pos()
	}
	for _, b := range append([]*ssa.BasicBlock{lp.header}, lp.blocks...) {
		for _, in := range b.Instrs {
			if in.Pos().IsValid() {
				return in.Pos()
			}
		}
	}
	return token.NoPos
}

// loopStmtPos: the "for" of the innermost for or range statement of the
// function's syntax that spans every positioned instruction of the loop
// (go/ssa gives a range loop's test no position of its own).
func loopStmtPos(lp loop) token.Pos {
	lo, hi := token.NoPos, token.NoPos
	for _, b := range lp.blocks {
		for _, in := range b.Instrs {
			p := in.Pos()
			if !p.IsValid() {
				continue
			}
			if !lo.IsValid() || p < lo {
				lo = p
			}
			if p > hi {
				hi = p
			}
		}
	}
	syn := lp.header.Parent().Syntax()
	if !lo.IsValid() || syn == nil {
		return token.NoPos
	}
	best := token.NoPos
	ast.Inspect(syn, func(n ast.Node) bool {
		switch n := n.(type) {
		case nil:
			return false
		case *ast.FuncLit:
			return n == syn
		case *ast.ForStmt, *ast.RangeStmt:
			if n.Pos() <= lo && hi < n.End() && n.Pos() > best {
				best = n.Pos()
			}
		}
		return n.Pos() <= lo && hi < n.End() || n == syn
	})
	return best
}
