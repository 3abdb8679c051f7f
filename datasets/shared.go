package datasets

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// SharedDataEnv names the environment variable that points at the
// folder of real datasets kept beside the project (not embedded: UCI
// Adult as ARX cuts it, with its hierarchies, in adult/, and the raw UCI
// file in adult-uci/).
const SharedDataEnv = "PRIVLAB_SHARED_DATA"

// SharedDir returns the folder of the real datasets: $PRIVLAB_SHARED_DATA
// when it is set, else shared/data beside the module root (the folder
// holding privlab's go.mod, found from the working directory upwards, so
// that it does not matter which of its folders a command or a test runs
// in). The error says where it looked and how to make the data
// available.
func SharedDir() (string, error) {
	if dir := os.Getenv(SharedDataEnv); dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return "", fmt.Errorf("%s=%s is not a folder (it should hold adult/ and adult-uci/)", SharedDataEnv, dir)
		}
		return dir, nil
	}
	root, ok := moduleRoot()
	if !ok {
		return "", fmt.Errorf("the shared data folder is not known here: set %s=DIR (the folder holding adult/ and adult-uci/)", SharedDataEnv)
	}
	dir := filepath.Join(filepath.Dir(root), "shared", "data")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("the shared data folder %s is absent: put it there or set %s=DIR (the folder holding adult/ and adult-uci/)", dir, SharedDataEnv)
	}
	return dir, nil
}

// moduleRoot finds the folder of privlab's go.mod from the working
// directory upwards.
func moduleRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if isPrivlabModule(filepath.Join(dir, "go.mod")) {
			return dir, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}

// isPrivlabModule reports whether path is a go.mod declaring module
// privlab.
func isPrivlabModule(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(name), `"`) == "privlab"
		}
	}
	return false
}
