package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusedKindIsReadableInFull: t on a column with a value that is
// not a number is refused with what to do, and ! shows the refusal in
// full even while the summary bar's error (no sensitive attribute yet)
// leaves it a few cells (it read 'age cannot be numeric: "4e" is not a
// numb…' at 80x24 and ! showed only the other error).
func TestRefusedKindIsReadableInFull(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dirty.csv")
	if err := os.WriteFile(path, []byte("age;gender;zipcode\n34;male;81667\n4e;female;81675\n66;male;81925\n70;female;81931\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := ready(t, path, 80, 24)
	press(t, a, "1", "t")
	if a.st.Table.Column("age").Kind.String() != "categorical" {
		t.Fatal("age became numeric with a value that is not a number")
	}
	press(t, a, "!")
	v := flatView(a)
	for _, want := range []string{`age cannot be numeric: "4e" is not a number`, "v adds it to the missing values", "no sensitive attribute chosen"} {
		if !strings.Contains(v, want) {
			t.Errorf("! does not show %q:\n%s", want, a.View())
		}
	}
}
