// tracecount DIR: prints "records=N chunks=C chunk_bytes=B file_bytes=F"
// for DIR/events.bin (docs/trace-format.md), for bench/run-record-bench.
// It only counts; the real reader is src/gordian/trace/reader.cc.
package main

import (
	"encoding/binary"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tracecount DIR")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1] + "/events.bin")
	if err != nil || len(data) < 64 || string(data[:8]) != "GORDTRC1" {
		fmt.Fprintln(os.Stderr, "tracecount: not a trace:", err)
		os.Exit(2)
	}
	chunk := int(binary.LittleEndian.Uint32(data[12:]))
	per := (chunk - 24) / 24
	records, chunks := 0, 0
	for off := 64; off+chunk <= len(data); off += chunk {
		if binary.LittleEndian.Uint32(data[off:]) == 0 {
			continue
		}
		chunks++
		for j := 0; j < per && data[off+24+24*j] != 0; j++ {
			records++
		}
	}
	fmt.Printf("records=%d chunks=%d chunk_bytes=%d file_bytes=%d\n", records, chunks, chunk, len(data))
}
