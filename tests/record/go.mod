module gordian.test/record

go 1.22
