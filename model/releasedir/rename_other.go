//go:build !linux

package releasedir

import (
	"io/fs"
	"os"
)

// renameNoReplace renames the directory from to to, failing with an error
// that matches fs.ErrExist when to exists. Outside Linux it is a best
// effort: os.Rename refuses an existing directory, but another export may
// create to between the look and the rename.
func renameNoReplace(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: fs.ErrExist}
	}
	return os.Rename(from, to)
}
