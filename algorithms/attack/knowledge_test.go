package attack

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"privlab/model"
)

// A marginals file's bad rows are errors naming the file, the line and a
// hint (they had none).
func TestReadMarginalsErrors(t *testing.T) {
	for _, tt := range []struct {
		text string
		line int
		hint string
	}{
		{"attribute,value,probability\nsex,m,1.5\n", 2, probabilityHint},
		{"attribute,value,probability\nsex,m,NaN\n", 2, probabilityHint},
		{"attribute,value,probability\nsex,m,0.5\nsex,m,0.5\n", 3, onceHint},
	} {
		path := filepath.Join(t.TempDir(), "m.csv")
		if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadMarginals(path)
		var ie *model.InputError
		if !errors.As(err, &ie) || ie.File != path || ie.Line != tt.line || ie.Hint != tt.hint {
			t.Errorf("%q: got %v, want line %d hint %q", tt.text, err, tt.line, tt.hint)
		}
	}
}
