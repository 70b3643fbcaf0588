// Import declarations: bad paths and imports after other declarations.
package p

import "fmt"
import m "math"
import . "strings"
import _ "os"
import (
	"io"
	b "bytes"
)
import 1	// ERROR "import path must be a string"
import x	// ERROR "missing import path"
import "a" "b"	// ERROR "unexpected literal \"b\" after top level declaration"

var _ = fmt.Println

import "late"	// ERROR "imports must appear before other declarations"
