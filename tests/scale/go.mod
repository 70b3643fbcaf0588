module gordian.test/scale

go 1.26
