module gordian.test/abuse

go 1.22
