// Gordian recorder: platforms without recording support. A program built
// with the hooks runs normally; asking it to record fails loudly.

//go:build !(linux && (amd64 || arm64))

package runtime

var gordianStartNs string

func gordianGetpid() int { return 0 }

func gordianOpenTrace(dir string, maxBytes uintptr) bool {
	gordianFail("recording is supported on linux/amd64 and linux/arm64 only, not "+GOOS+"/"+GOARCH, "", 0)
	return false
}

func gordianGrow() bool { return false }

// No replay here (no recording): gordianReplayInit never reads a schedule.
func gordianMapFile(path string) ([]byte, bool) { return nil, false }

func gordianUnmapFile(b []byte) {}
