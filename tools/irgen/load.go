// This file owns loading: go/packages with syntax and types for the given
// packages and all their dependencies, SSA for the packages whose bodies the
// IR can show (everything outside GOROOT), and the call graph (VTA over
// those bodies, seeded by CHA).
//
// Standard library bodies are never built: the primitives the IR knows
// (sync, context, time, channels) are recognised at their call sites by
// name, and building all of std's SSA would cost seconds per run.
package main

import (
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

type loadOptions struct {
	dir      string
	tests    bool
	tags     string
	patterns []string
}

// loadErrors: the packages did not load or type check; messages are the
// compiler's, one per line.
type loadErrors struct{ messages []string }

func (e *loadErrors) Error() string { return strings.Join(e.messages, "\n") }

// program is everything the writer needs.
type program struct {
	fset     *token.FileSet
	root     string         // absolute directory positions are relative to
	goVer    string         // runtime version of irgen's build (the user's Go)
	roots    []*ssa.Package // the packages asked for, in pattern order
	rootPkgs []*packages.Package
	funcs    []*ssa.Function // every function written, in a stable order
	cg       *callgraph.Graph
	emitted  map[*ssa.Function]bool
}

func load(o loadOptions) (*program, error) {
	root := o.dir
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps | packages.NeedModule |
			packages.NeedForTest,
		Dir:   abs,
		Tests: o.tests,
		Env:   os.Environ(),
	}
	if o.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + o.tags}
	}
	pkgs, err := packages.Load(cfg, o.patterns...)
	if err != nil {
		return nil, err
	}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) > 0 {
		return nil, &loadErrors{msgs}
	}
	if len(pkgs) == 0 {
		return nil, &loadErrors{[]string{"no packages match " + strings.Join(o.patterns, " ")}}
	}
	pkgs = preferTestVariants(pkgs)

	fset := pkgs[0].Fset
	prog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	created := map[*packages.Package]*ssa.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil || created[p] != nil {
			return
		}
		// A test variant and its plain package have the same path; go/ssa
		// wants one package per types.Package, and the variants are
		// distinct types.Packages, so both may be created.
		created[p] = prog.CreatePackage(p.Types, p.Syntax, p.TypesInfo, true)
	})
	// Bodies are built for the packages asked for (std ones included) and
	// every dependency outside GOROOT.
	isRoot := map[*packages.Package]bool{}
	for _, p := range pkgs {
		isRoot[p] = true
	}
	var built []*ssa.Package
	for p, sp := range created {
		if isRoot[p] || !inGoroot(p) {
			built = append(built, sp)
		}
	}
	sort.Slice(built, func(i, j int) bool { return built[i].Pkg.Path() < built[j].Pkg.Path() })
	for _, sp := range built {
		sp.Build()
	}

	pr := &program{fset: fset, root: abs, emitted: map[*ssa.Function]bool{}}
	for _, p := range pkgs {
		pr.roots = append(pr.roots, created[p])
		pr.rootPkgs = append(pr.rootPkgs, p)
	}
	// Functions with bodies: members of the built packages, their
	// anonymous functions, and generic instances and wrappers reached.
	bodies := map[*ssa.Function]bool{}
	for _, sp := range built {
		for _, m := range sp.Members {
			switch m := m.(type) {
			case *ssa.Function:
				addWithAnons(bodies, m)
			case *ssa.Type:
				for _, f := range methodsOf(prog, m) {
					addWithAnons(bodies, f)
				}
			}
		}
	}
	pr.cg = vta.CallGraph(bodies, nil)
	pr.cg.DeleteSyntheticNodes()
	for f := range pr.cg.Nodes {
		if f != nil && len(f.Blocks) > 0 && !bodies[f] {
			addWithAnons(bodies, f)
		}
	}
	pr.funcs = selectFuncs(pr, bodies)
	return pr, nil
}

// preferTestVariants drops a package when its test variant ("p [p.test]")
// was loaded too, and the generated test mains ("p.test"): the variant has
// every function of the package plus the tests.
func preferTestVariants(pkgs []*packages.Package) []*packages.Package {
	hasVariant := map[string]bool{}
	for _, p := range pkgs {
		if p.ForTest != "" && p.PkgPath == p.ForTest {
			hasVariant[p.PkgPath] = true
		}
	}
	var out []*packages.Package
	for _, p := range pkgs {
		if strings.HasSuffix(p.PkgPath, ".test") && p.Name == "main" && p.ForTest == "" {
			continue
		}
		if p.ForTest == "" && hasVariant[p.PkgPath] {
			continue
		}
		out = append(out, p)
	}
	return out
}

func inGoroot(p *packages.Package) bool {
	if p.Module != nil {
		return false
	}
	files := p.GoFiles
	if len(files) == 0 {
		files = p.CompiledGoFiles
	}
	return len(files) > 0 && strings.HasPrefix(files[0], gorootSrc())
}

var gorootCache string

// gorootSrc: GOROOT/src of the go command go/packages runs (the first go in
// PATH), with a trailing separator.
func gorootSrc() string {
	if gorootCache == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			gorootCache = runtime.GOROOT()
		} else {
			gorootCache = strings.TrimSpace(string(out))
		}
		gorootCache = filepath.Join(gorootCache, "src") + string(filepath.Separator)
	}
	return gorootCache
}

func addWithAnons(set map[*ssa.Function]bool, f *ssa.Function) {
	if f == nil || set[f] || len(f.Blocks) == 0 {
		return
	}
	set[f] = true
	for _, a := range f.AnonFuncs {
		addWithAnons(set, a)
	}
}

func methodsOf(prog *ssa.Program, t *ssa.Type) []*ssa.Function {
	var out []*ssa.Function
	T := t.Type()
	ms := prog.MethodSets.MethodSet(T)
	for i := 0; i < ms.Len(); i++ {
		out = append(out, prog.MethodValue(ms.At(i)))
	}
	pms := prog.MethodSets.MethodSet(types.NewPointer(T))
	for i := 0; i < pms.Len(); i++ {
		out = append(out, prog.MethodValue(pms.At(i)))
	}
	return out
}

// selectFuncs: every function with a body of the packages asked for, then
// every function with a body outside GOROOT that they reach in the call
// graph (the dependencies that matter), sorted by package, file and line so
// that the output is stable.
func selectFuncs(pr *program, bodies map[*ssa.Function]bool) []*ssa.Function {
	rootSet := map[*ssa.Package]bool{}
	for _, r := range pr.roots {
		rootSet[r] = true
	}
	var work []*ssa.Function
	for f := range bodies {
		if p := pkgOf(f); p != nil && rootSet[p] {
			pr.emitted[f] = true
			work = append(work, f)
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		n := pr.cg.Nodes[f]
		if n == nil {
			continue
		}
		for _, e := range n.Out {
			g := e.Callee.Func
			if g != nil && bodies[g] && !pr.emitted[g] {
				pr.emitted[g] = true
				work = append(work, g)
			}
		}
		for _, a := range f.AnonFuncs {
			if !pr.emitted[a] {
				pr.emitted[a] = true
				work = append(work, a)
			}
		}
		// Functions used as values (a method value's $bound wrapper, a
		// function passed to go or Once.Do) whose body the IR can show.
		for _, g := range referencedFuncs(f) {
			if len(g.Blocks) > 0 && (bodies[g] || g.Synthetic != "") && !pr.emitted[g] {
				pr.emitted[g] = true
				work = append(work, g)
			}
		}
	}
	out := make([]*ssa.Function, 0, len(pr.emitted))
	for f := range pr.emitted {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		pi, pj := pkgPath(out[i]), pkgPath(out[j])
		if pi != pj {
			return pi < pj
		}
		a, b := pr.fset.Position(out[i].Pos()), pr.fset.Position(out[j].Pos())
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		return out[i].String() < out[j].String()
	})
	return out
}

// pkgOf: the package a function belongs to, generic instances and
// anonymous functions included.
func pkgOf(f *ssa.Function) *ssa.Package {
	for f != nil {
		if f.Pkg != nil {
			return f.Pkg
		}
		if f.Origin() != nil && f.Origin() != f {
			f = f.Origin()
			continue
		}
		f = f.Parent()
	}
	return nil
}

func pkgPath(f *ssa.Function) string {
	if p := pkgOf(f); p != nil {
		return p.Pkg.Path()
	}
	// Wrappers ($bound, promoted methods) belong to no ssa.Package; name
	// the package of the method they wrap.
	if obj := f.Object(); obj != nil && obj.Pkg() != nil {
		return obj.Pkg().Path()
	}
	return ""
}

// referencedFuncs: the functions f's instructions name as operands.
func referencedFuncs(f *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	var ops []*ssa.Value
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			ops = in.Operands(ops[:0])
			for _, op := range ops {
				if op == nil {
					continue
				}
				if g, ok := (*op).(*ssa.Function); ok {
					out = append(out, g)
				}
			}
		}
	}
	return out
}
