package releasedir

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"privlab/model"
	"privlab/model/csvfile"
)

// Every file of a release that privlab reads (its manifest, its data
// files, report.md, and the audit record beside it) is opened by
// OpenFile: a regular file, never a link that leads out of the release,
// a named pipe that blocks its reader forever, or a device.

// OpenFile opens the release file path for reading. A file that is not
// a regular file is an *InputError naming it and what it is; the file is
// opened without following a link and without blocking, and what was
// opened is checked again, so that a pipe or a link put in its place
// after the first look is refused too. An error opening the file is
// returned as os.Open returns it.
func OpenFile(path string) (*os.File, error) {
	before, err := StatFile(path)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNoFollow|openNoBlock, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, notRegular(path, fs.ModeSymlink)
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = notRegular(path, st.Mode())
	} else if err == nil && !os.SameFile(before, st) {
		err = &model.InputError{File: path, Msg: "was replaced by another file while it was opened", Hint: "is another program writing the release?"}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// StatFile looks at the release file path without opening it or
// following a link: a file that is not a regular file is an *InputError
// naming it and what it is; an error looking is returned as os.Lstat
// returns it.
func StatFile(path string) (fs.FileInfo, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	return st, nil
}

// notRegular is the error for a release file of type mode.
func notRegular(path string, mode fs.FileMode) *model.InputError {
	what := "not a regular file"
	switch {
	case mode&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case mode&fs.ModeDevice != 0:
		what = "a device"
	case mode&fs.ModeSocket != 0:
		what = "a socket"
	case mode.IsDir():
		what = "a directory"
	}
	return &model.InputError{File: path, Msg: "is " + what + ", not a regular file",
		Hint: "a release and its audit record are regular files: privlab reads no link, pipe or device in their place"}
}

// ReadFile reads a whole release file (OpenFile) of at most max
// bytes, as ReadFileLimit does.
func ReadFile(path string, max int64, what string) ([]byte, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return model.ReadOpenFileLimit(f, path, max, what)
}

// LoadTable reads a release's CSV file (OpenFile) into a Table, as
// LoadFile does.
func LoadTable(path string, opt csvfile.LoadOptions) (*model.Table, error) {
	f, err := OpenFile(path)
	if ie := (*model.InputError)(nil); errors.As(err, &ie) {
		return nil, ie
	}
	if err != nil {
		return nil, &model.InputError{File: path, Msg: csvfile.OpenReason(err)}
	}
	defer f.Close()
	if opt.Name == "" {
		opt.Name = path
	}
	return csvfile.Load(f, opt)
}

// ReleaseSHA256 hashes a release file (OpenFile) as a stream.
func ReleaseSHA256(path string) (string, error) {
	f, err := OpenFile(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return streamSHA256(f)
}
