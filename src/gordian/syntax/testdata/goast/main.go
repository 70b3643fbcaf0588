// Command goast prints the extents of the syntax nodes go/parser finds in
// each file named on the command line, one "kind begin end" line per node
// (byte offsets), after a "FILE path" line ("ERR path" if it does not parse).
// goroot_test.cc compares them with Gordian's trees: node kinds are mapped
// to the classes both trees share (go/ast's Field, FieldList, GenDecl
// groups, switch bodies and empty statements have no counterpart and are
// left out).
package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, path := range os.Args[1:] {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			fmt.Fprintf(w, "ERR %s\n", path)
			continue
		}
		tf := fset.File(f.Pos())
		fmt.Fprintf(w, "FILE %s\n", path)
		emitp := func(k string, b, e token.Pos) { fmt.Fprintf(w, "%s %d %d\n", k, tf.Offset(b), tf.Offset(e)) }
		emit := func(k string, n ast.Node) { emitp(k, n.Pos(), n.End()) }
		skip := map[ast.Node]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || skip[n] {
				return true
			}
			switch n := n.(type) {
			case *ast.Ident:
				emit("id", n)
			case *ast.BasicLit:
				emit("lit", n)
			case *ast.CompositeLit:
				emit("complit", n)
			case *ast.FuncLit:
				emit("funclit", n)
			case *ast.ParenExpr:
				emit("paren", n)
			case *ast.SelectorExpr:
				emit("sel", n)
			case *ast.IndexExpr, *ast.IndexListExpr:
				emit("index", n)
			case *ast.SliceExpr:
				emit("slice", n)
			case *ast.TypeAssertExpr:
				if n.Type == nil {
					emitp("assert", n.X.Pos(), n.End())
				} else {
					emit("assert", n)
				}
			case *ast.CallExpr:
				emit("call", n)
			case *ast.StarExpr, *ast.UnaryExpr:
				emit("unary", n)
			case *ast.BinaryExpr:
				emit("binary", n)
			case *ast.KeyValueExpr:
				emit("kv", n)
			case *ast.ArrayType:
				emit("array", n)
			case *ast.Ellipsis:
				if n.Elt != nil {
					emit("dots", n)
				}
			case *ast.StructType:
				emit("struct", n)
			case *ast.FuncType:
				emit("functype", n)
			case *ast.InterfaceType:
				emit("iface", n)
			case *ast.MapType:
				emit("map", n)
			case *ast.ChanType:
				emit("chan", n)
			case *ast.ExprStmt:
				emit("exprstmt", n)
			case *ast.SendStmt:
				emit("send", n)
			case *ast.IncDecStmt, *ast.AssignStmt:
				emit("assign", n)
			case *ast.GoStmt:
				emit("go", n)
			case *ast.DeferStmt:
				emit("defer", n)
			case *ast.ReturnStmt:
				emit("return", n)
			case *ast.BranchStmt:
				emit("branch", n)
			case *ast.BlockStmt:
				emit("block", n)
			case *ast.IfStmt:
				emit("if", n)
			case *ast.CaseClause:
				emit("case", n)
			case *ast.SwitchStmt:
				emit("switch", n)
				skip[n.Body] = true
			case *ast.TypeSwitchStmt:
				emit("switch", n)
				skip[n.Assign] = true
				skip[n.Body] = true
			case *ast.CommClause:
				emit("comm", n)
			case *ast.SelectStmt:
				emit("select", n)
				skip[n.Body] = true
			case *ast.ForStmt, *ast.RangeStmt:
				emit("for", n)
			case *ast.LabeledStmt:
				emit("label", n)
			case *ast.DeclStmt:
				emit("declstmt", n)
			case *ast.GenDecl:
				if n.Lparen.IsValid() {
					for _, s := range n.Specs {
						emit("decl", s)
					}
				} else {
					emit("decl", n)
				}
			case *ast.FuncDecl:
				emit("funcdecl", n)
				skip[n.Type] = true
			}
			return true
		})
	}
}
