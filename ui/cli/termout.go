package cli

import (
	"io"
	"sync"
	"unicode/utf8"

	"privlab/model"
)

// termWriter is a command's stdout or stderr: every character a name or
// a value read from a file may bring (model.TermLines: controls, ESC,
// C1, bidi overrides, bytes that are not UTF-8) is written as a visible
// escape, whichever message or table carries it, so that no header or
// cell can retitle, clear or move the terminal (issue 32, item 6). The
// newlines of the output are kept. Output that must stay exact (JSON,
// a generated CSV, the progress line's carriage returns) is written to
// raw(w).
type termWriter struct {
	mu    sync.Mutex
	w     io.Writer
	carry []byte // the start of a character the next write completes
}

func (t *termWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	buf := append(t.carry, p...)
	cut := len(buf)
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				cut = i
			}
			break
		}
	}
	t.carry = append([]byte(nil), buf[cut:]...)
	if _, err := io.WriteString(t.w, model.TermLines(string(buf[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// flush writes what is left of a character the output ended in the
// middle of.
func (t *termWriter) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.carry) > 0 {
		_, _ = io.WriteString(t.w, model.TermLines(string(t.carry)))
		t.carry = nil
	}
}

// raw is the stream under a termWriter, for output that must stay
// exact.
func raw(w io.Writer) io.Writer {
	if t, ok := w.(*termWriter); ok {
		t.flush()
		return t.w
	}
	return w
}
