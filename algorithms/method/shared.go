package method

import (
	"fmt"
	"os"
	"path/filepath"
)

// SharedFile returns the path of a file in the folder of real datasets
// the caller gave (Lab.SharedData), or an error that says why it is not
// there and how to make it available, for the study's note.
func (l *Lab) SharedFile(rel ...string) (string, error) {
	if l.SharedData == "" {
		return "", fmt.Errorf("no folder of real datasets was given (privlab reads it from PRIVLAB_SHARED_DATA, else shared/data beside the repository)")
	}
	path := filepath.Join(append([]string{l.SharedData}, rel...)...)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%s is not present", path)
	}
	return path, nil
}
