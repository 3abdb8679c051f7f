package datasets

import (
	"fmt"
	"os"
	"path/filepath"
)

// EmbeddedHierarchy returns the text of an embedded hierarchy file (the
// FILE of an "embedded:FILE" spec).
func EmbeddedHierarchy(file string) ([]byte, error) {
	return files.ReadFile("hierarchies/" + file)
}

// SharedFile returns the path of a file in the shared data folder
// (SharedDir), or an error naming it and saying how to make it available.
func SharedFile(rel ...string) (string, error) {
	dir, err := SharedDir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(append([]string{dir}, rel...)...)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%s is not in the shared data folder (%s sets another folder)", path, SharedDataEnv)
	}
	return path, nil
}
