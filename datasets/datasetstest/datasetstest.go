// Package datasetstest helps tests and benchmarks find the real datasets
// kept beside the project (datasets.SharedDir).
package datasetstest

import (
	"fmt"
	"os"
	"path/filepath"

	"privlab/datasets"
)

// SharedFile returns the path of a file in the shared data folder
// (datasets.SharedDir), or an error naming it and saying how to make it
// available.
func SharedFile(rel ...string) (string, error) {
	dir, err := datasets.SharedDir()
	if err != nil {
		return "", err
	}
	path := filepath.Join(append([]string{dir}, rel...)...)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%s is not in the shared data folder (%s sets another folder)", path, datasets.SharedDataEnv)
	}
	return path, nil
}
