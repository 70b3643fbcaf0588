// Does not compile: gordian record must report the error with its
// file:line and exit 2.
package main

func main() {
	undefinedThing() //@error
}
