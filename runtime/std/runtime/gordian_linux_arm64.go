// Gordian recorder: system call numbers for linux/arm64. See gordian.go.

package runtime

const (
	gordianSYS_MMAP      = 222
	gordianSYS_FTRUNCATE = 46
	gordianSYS_MADVISE   = 233
	gordianSYS_MKDIRAT   = 34
	gordianSYS_LSEEK     = 62
	gordianSYS_FALLOCATE = 47
)
