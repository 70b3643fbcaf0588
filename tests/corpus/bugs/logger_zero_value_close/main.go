// An async logger has a constructor that makes its channels and starts the
// writer goroutine. main builds a second logger for audit lines as a struct
// literal instead (its channels stay nil); the audit logger is never used, but
// shutdown closes every logger.
//
// Expected: close-of-nil, occurred, at the close in Close (called for the audit
// logger). The application logger shuts down cleanly first, so the run reaches
// the nil close every time.
package main

import (
	"fmt"
	"strings"
)

type Logger struct {
	prefix string
	lines  chan string
	done   chan struct{}
}

func NewLogger(prefix string) *Logger {
	l := &Logger{prefix: prefix, lines: make(chan string, 64), done: make(chan struct{})}
	go l.writer()
	return l
}

func (l *Logger) writer() {
	defer close(l.done)
	for line := range l.lines {
		fmt.Println(l.prefix + line)
	}
}

func (l *Logger) Printf(format string, args ...any) {
	l.lines <- fmt.Sprintf(format, args...)
}

func (l *Logger) Close() {
	close(l.lines) // want: close-of-nil occurred
	if l.done != nil {
		<-l.done
	}
}

func main() {
	app := NewLogger("[app] ")
	audit := &Logger{prefix: "[audit] "}

	for _, user := range []string{"alice", "bob"} {
		app.Printf("login %s", strings.ToUpper(user))
	}
	for _, l := range []*Logger{app, audit} {
		l.Close()
	}
}
