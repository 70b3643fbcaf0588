module example.com/testcalls

go 1.22
