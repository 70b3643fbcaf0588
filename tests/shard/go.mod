module gordian.test/shard

go 1.26
