// A package that does not type check: irgen must exit 2 with the
// compiler's message.
package broken

func F() int {
	return undefinedName
}
