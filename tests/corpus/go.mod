module gordian.test/corpus

go 1.26
