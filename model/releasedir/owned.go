package releasedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"privlab/model"
	"privlab/model/csvfile"
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
		return &model.ParamError{Param: param, Value: path, Reason: csvfile.OpenReason(err)}
	}
	return &model.ParamError{Param: param, Value: path, Reason: "already exists; it is not overwritten",
		Fixes: []model.Fix{{Setting: model.SetForce, Why: "to replace it"}}}
}

// ownedMarker is the file inside a directory an export made beside a
// release (.NAME.tmp-PID-X, .NAME.del-PID-X) that says so: only a
// directory holding it, naming the directory, is ever removed by a later
// export (a name alone is no proof: the user may own such a directory).
const ownedMarker = "privlab-owned"

func markerText(dir string) string {
	return "privlab export: " + filepath.Base(dir) + " is a temporary directory of privlab's, removed once its process is gone\n"
}

// markOwned writes the marker into dir, a directory the export just made.
func markOwned(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, ownedMarker), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(markerText(dir))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// isOwned reports whether path is a directory (not a link to one) that
// holds the marker naming it.
func isOwned(path string) bool {
	st, err := os.Lstat(path)
	if err != nil || !st.IsDir() {
		return false
	}
	mark := filepath.Join(path, ownedMarker)
	if ms, err := os.Lstat(mark); err != nil || !ms.Mode().IsRegular() || ms.Size() > 1024 {
		return false
	}
	b, err := os.ReadFile(mark)
	return err == nil && string(b) == markerText(path)
}

// removeOwned removes a file, or a directory this code made: everything
// in it but the marker first, then the marker, then the directory, so
// that a removal cut short leaves a directory still marked as removable.
func removeOwned(path string) {
	st, err := os.Lstat(path)
	if err != nil {
		return
	}
	if !st.IsDir() {
		os.Remove(path)
		return
	}
	entries, _ := os.ReadDir(path)
	for _, e := range entries {
		if e.Name() != ownedMarker {
			os.RemoveAll(filepath.Join(path, e.Name()))
		}
	}
	os.Remove(filepath.Join(path, ownedMarker))
	os.Remove(path)
}
