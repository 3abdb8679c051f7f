//go:build !unix

package releasedir

// Outside Unix a file is opened plainly: OpenFile's checks of the
// opened file stand alone.
const (
	openNoFollow = 0
	openNoBlock  = 0
)
