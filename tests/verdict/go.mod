module gordian.test/verdict

go 1.22
