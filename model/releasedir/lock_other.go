//go:build !unix

package releasedir

import "context"

// lockParent is a no-op outside Unix: renameNoReplace alone decides which
// of two exports to one directory wins there.
func lockParent(ctx context.Context, parent string) (func(), error) {
	return func() {}, nil
}
