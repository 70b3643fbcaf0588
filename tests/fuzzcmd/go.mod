module gordian.test/fuzzcmd

go 1.22
