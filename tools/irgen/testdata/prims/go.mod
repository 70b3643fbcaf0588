module example.com/prims

go 1.22
