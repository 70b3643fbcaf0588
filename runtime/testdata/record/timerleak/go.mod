module example.com/timerleak

go 1.24
