package releasedir

import (
	"os"
	"syscall"
)

// systemIdentity adds to id the device, inode and change time of st.
func systemIdentity(st os.FileInfo, id *fileID) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(sys.Dev), uint64(sys.Ino)
		id.ctime = int64(sys.Ctim.Sec)*1e9 + int64(sys.Ctim.Nsec)
		id.changeTime = true
	}
}
