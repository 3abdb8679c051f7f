package model

import (
	"os"
	"time"
)

// FileStamp is a file's identity and content as the file system states
// them: the device and inode it lives on (zero where the system gives
// none), its size and its modification time. A cache of a file's
// contents keeps the stamp it read and reads the file again when the
// stamp differs: a file replaced by another (a rename puts a new inode
// in place), grown, shrunk or rewritten in place is read again.
type FileStamp struct {
	Dev, Ino uint64
	Size     int64
	ModTime  time.Time
}

// StampOf is the stamp of the file at path (os.Stat's error when it has
// none).
func StampOf(path string) (FileStamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return FileStamp{}, err
	}
	s := FileStamp{Size: fi.Size(), ModTime: fi.ModTime()}
	s.Dev, s.Ino = fileID(fi)
	return s, nil
}

// Same reports whether two stamps are of the same file unchanged.
func (s FileStamp) Same(o FileStamp) bool {
	return s.Dev == o.Dev && s.Ino == o.Ino && s.Size == o.Size && s.ModTime.Equal(o.ModTime)
}
