//go:build unix

package releasedir

import "syscall"

// Flags of the files privlab opens to read: openNoFollow does not follow
// a link in the path's last element, openNoBlock does not wait for a
// writer to open a named pipe (the file's type is checked once open).
const (
	openNoFollow = syscall.O_NOFOLLOW
	openNoBlock  = syscall.O_NONBLOCK
)
