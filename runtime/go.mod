module gordian.dev/rt

go 1.22
