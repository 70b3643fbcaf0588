// This file owns the lexical layer of the IR text (docs/ir-format.md,
// "Lines and values"): a record is one line, a word then key=value fields
// separated by single spaces; a value with a space, a quote, a backslash,
// an '=' or a control character is written in double quotes with the
// escapes \\ \" \n \t and \xHH, and nothing else.
package main

import (
	"fmt"
	"io"
	"strings"
)

// line builds one record.
type line struct {
	b strings.Builder
}

func record(word string) *line {
	l := &line{}
	l.b.WriteString(word)
	return l
}

// word appends a bare positional word (a name or number without quoting
// needs).
func (l *line) word(w string) *line {
	l.b.WriteByte(' ')
	l.b.WriteString(quote(w))
	return l
}

// kv appends key=value; an empty value is skipped (absent fields are
// empty).
func (l *line) kv(key, val string) *line {
	if val == "" {
		return l
	}
	l.b.WriteByte(' ')
	l.b.WriteString(key)
	l.b.WriteByte('=')
	l.b.WriteString(quote(val))
	return l
}

func (l *line) kvInt(key string, v int) *line { return l.kv(key, fmt.Sprint(v)) }

func (l *line) write(w io.Writer) {
	l.b.WriteByte('\n')
	io.WriteString(w, l.b.String())
}

func needsQuote(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == '"' || c == '\\' || c == '=' || c == 0x7f {
			return true
		}
	}
	return false
}

func quote(s string) string {
	if !needsQuote(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '"':
			b.WriteString(`\"`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < ' ' || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
