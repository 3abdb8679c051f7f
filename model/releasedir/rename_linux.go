//go:build linux

package releasedir

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames the directory from to to, failing with an error
// that matches fs.ErrExist when to exists: renameat2 with
// RENAME_NOREPLACE, atomic, so of two exports to one directory exactly one
// succeeds. A file system without it falls back to claimNoReplace.
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return claimNoReplace(from, to)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

// claimNoReplace renames the directory from to to without ever replacing
// another's: it first creates to itself (mkdir fails when to exists, so
// only one claimant gets it), then renames from over its own empty
// directory with rename(2) (os.Rename refuses any existing directory; a
// rename over one someone has filled meanwhile fails with ENOTEMPTY,
// which matches fs.ErrExist too).
func claimNoReplace(from, to string) error {
	if err := os.Mkdir(to, 0o755); err != nil {
		return err
	}
	if err := syscall.Rename(from, to); err != nil {
		os.Remove(to)
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}
