module gordian.local/bench/goparse

go 1.19
