//go:build unix

package releasedir

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockParent takes an exclusive flock on the directory that holds a
// release, so that of the exports to a directory (processes or
// goroutines: each holds its own open file) one at a time looks at what
// is in place and puts its release and audit record there. It waits for
// the lock, looking at ctx (may be nil) meanwhile; the returned function
// releases it.
func lockParent(ctx context.Context, parent string) (func(), error) {
	f, err := os.Open(parent)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", parent, err)
	}
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil // closing the file releases the lock
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			f.Close()
			if errors.Is(err, unix.ENOLCK) || errors.Is(err, unix.EOPNOTSUPP) {
				// A file system without locks: renameNoReplace alone
				// decides then.
				return func() {}, nil
			}
			return nil, fmt.Errorf("lock %s: %w", parent, err)
		}
		if ctx != nil && ctx.Err() != nil {
			f.Close()
			return nil, ctx.Err()
		}
		time.Sleep(2 * time.Millisecond)
	}
}
