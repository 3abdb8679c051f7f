//go:build unix

package model

import (
	"os"
	"syscall"
)

// fileID is the device and inode os.Stat found (zero when it gives none).
func fileID(fi os.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino) // their types differ between systems
	}
	return 0, 0
}
