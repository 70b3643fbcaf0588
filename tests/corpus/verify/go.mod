module gordian.test/verify

go 1.26
