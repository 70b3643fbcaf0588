module gordian.replaytest

go 1.22
