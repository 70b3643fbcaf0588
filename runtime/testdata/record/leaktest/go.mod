module example.com/leaktest

go 1.22
