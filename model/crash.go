package model

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"sync"
)

// crashes remembers the crash files this process wrote, by the stack
// they hold, so that a panic repeated (a view drawn many times a second)
// writes one file.
var crashes = struct {
	sync.Mutex
	files map[[32]byte]string
}{files: map[[32]byte]string{}}

// Recovered turns a recovered panic into the error a user sees:
// "internal error WHERE: VALUE (please report it; details in FILE)". The
// panic's value and the stack of the goroutine that panicked go into FILE,
// a new os.TempDir()/privlab-crash-*.txt, never to the terminal; without
// a file to write the message says so. Call it in the deferred function
// that recovered, so that the stack is the panic's.
func Recovered(r any, where string) error {
	msg := "internal error"
	if where != "" {
		msg += " " + where
	}
	msg += fmt.Sprintf(": %v (please report it", r)
	if path, err := crashFile(r, debug.Stack()); err == nil {
		msg += "; details in " + path
	} else {
		msg += "; its details could not be written: " + err.Error()
	}
	return errors.New(msg + ")")
}

// hexWord matches the argument words and offsets of a stack trace,
// which differ between two panics at the same place.
var hexWord = regexp.MustCompile(`0x[0-9a-f]+`)

// crashFile writes the panic's value and stack to a new crash file, or
// returns the one that holds the same panic at the same place already.
func crashFile(r any, stack []byte) (string, error) {
	key := sha256.Sum256(append([]byte(fmt.Sprint(r)+"\n"), hexWord.ReplaceAll(stack, nil)...))
	crashes.Lock()
	defer crashes.Unlock()
	if path, ok := crashes.files[key]; ok {
		return path, nil
	}
	f, err := os.CreateTemp("", "privlab-crash-*.txt")
	if err != nil {
		return "", err
	}
	_, err = fmt.Fprintf(f, "privlab %s: internal error: %v\n\n%s", Version, r, stack)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	crashes.files[key] = f.Name()
	return f.Name(), nil
}
