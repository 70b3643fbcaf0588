// Gordian recorder: system call numbers for linux/amd64. See gordian.go.

package runtime

const (
	gordianSYS_MMAP      = 9
	gordianSYS_FTRUNCATE = 77
	gordianSYS_MADVISE   = 28
	gordianSYS_MKDIRAT   = 258
	gordianSYS_LSEEK     = 8
	gordianSYS_FALLOCATE = 285
)
