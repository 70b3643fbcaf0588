// tracecount DIR: prints "records=N chunks=C chunk_bytes=B file_bytes=F"
// for DIR/events.bin (docs/trace-format.md), for bench/run-record-bench.
// chunks counts the chunks in use: a goroutine's own chunks and the shared
// chunks that hold runs of several goroutines. It only counts; the real
// reader is src/gordian/trace/reader.cc.
package main

import (
	"encoding/binary"
	"fmt"
	"os"
)

const (
	chunkMagic  = 0x4b484347 // "GCHK"
	sharedMagic = 0x52485347 // "GSHR"
	runMagic    = 0x4e555247 // "GRUN"
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
	live := func(off, limit int) int {
		n := 0
		for n < limit && data[off+24*n] != 0 {
			n++
		}
		return n
	}
	records, chunks := 0, 0
	for off := 64; off+chunk <= len(data); off += chunk {
		switch binary.LittleEndian.Uint32(data[off:]) {
		case 0:
			continue
		case chunkMagic:
			records += live(off+24, per)
		case sharedMagic:
			for s := 0; s < per; {
				slot := off + 24 + 24*s
				if binary.LittleEndian.Uint32(data[slot:]) != runMagic {
					s++ // free, or a run never published
					continue
				}
				n := int(binary.LittleEndian.Uint32(data[slot+12:]))
				if n <= 0 || s+1+n > per {
					fmt.Fprintln(os.Stderr, "tracecount: bad run header at", slot)
					os.Exit(1)
				}
				records += live(slot+24, n)
				s += 1 + n
			}
		default:
			fmt.Fprintln(os.Stderr, "tracecount: bad chunk magic at", off)
			os.Exit(1)
		}
		chunks++
	}
	fmt.Printf("records=%d chunks=%d chunk_bytes=%d file_bytes=%d\n", records, chunks, chunk, len(data))
}
