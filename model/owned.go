package model

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// SamePath reports whether a and b name one file: the same absolute path,
// or (both existing) the same file reached through a link.
func SamePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	ba, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ba {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// RefuseExisting returns the error for an output file that exists (nil
// when it does not, or when force is set): a file the user owns is
// replaced only when they say so. param names the flag that gave path.
func RefuseExisting(param, path string, force bool) error {
	if force {
		return nil
	}
	_, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &ParamError{Param: param, Value: path, Reason: OpenReason(err)}
	}
	return &ParamError{Param: param, Value: path, Reason: "already exists; it is not overwritten",
		Fixes: []Fix{{Setting: SetForce, Why: "to replace it"}}}
}
