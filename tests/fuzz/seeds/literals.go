package lits

const (
	a = 0
	b = 1_000_000
	c = 0x_1F_ff
	d = 0o755 + 0O17 + 0755
	e = 0b1010_0101
	f = 1.5e-3 + .25 + 1. + 6.67428e-11 + 1E6
	g = 0x1p-2 + 0x1.8P+3 + 0X.8p0
	h = 1i + 2.5i + 0x10i + 0b1i + 0o7i + 0789i
	i = 'x' + '\n' + '\'' + '\\' + '\000' + '\x7f' + '\u12e4' + '\U00101234' + '日'
	j = "plain" + "\a\b\f\n\r\t\v\\\"" + "\377\xff\u65e5\U0001F600" + "日本語"
	k = `raw \n string
with "newlines" and 'quotes'`
	l = iota << 3 &^ 1 >> 2 % 7
)

var x, y, z = +a, -b, ^c
var p = !true || false && a < b == (c >= d) != (e <= f) || a > 0
