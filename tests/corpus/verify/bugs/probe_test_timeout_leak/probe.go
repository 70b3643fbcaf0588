// Probe computes a value slowly; its test gives up after a timeout.
package probe

func Compute() int { return 42 }
