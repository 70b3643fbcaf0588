module gordian.example

go 1.26
