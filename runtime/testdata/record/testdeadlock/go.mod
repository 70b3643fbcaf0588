module example.com/testdeadlock

go 1.22
