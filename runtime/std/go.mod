// Files under runtime/std are added to Go standard library packages through
// -overlay (see patches.txt); they are not a package of the support module.
// This go.mod keeps `go build ./...` in runtime/ from compiling them.
module gordian.dev/rt/std-hooks-not-a-package

go 1.22
