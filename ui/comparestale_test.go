package ui

import (
	"slices"
	"strings"
	"testing"
)

// TestCompareClearedWhenItsInputsChange: a comparison is of the data,
// roles and k it ran with; once the QIs change it is cleared, saying so,
// and enter runs it anew instead of opening a method with the old QIs (it
// stayed on screen unmarked, and enter put the QIs back as they were).
// Opening a method from it keeps it: the QIs and k are the same.
func TestCompareClearedWhenItsInputsChange(t *testing.T) {
	a := ready(t, "dataset:employees", 80, 24)
	press(t, a, "9", "enter")
	settle(t, a, a.schedule())
	if !strings.Contains(a.View(), "own requirement") {
		t.Fatalf("no comparison:\n%s", a.View())
	}
	press(t, a, "right", "enter") // kja, with its compared settings
	settle(t, a, a.schedule())
	press(t, a, "9")
	if !strings.Contains(a.View(), "own requirement") {
		t.Fatalf("opening a method cleared the comparison:\n%s", a.View())
	}
	press(t, a, "1", "down", " ") // zipcode is no longer a QI
	settle(t, a, a.schedule())
	press(t, a, "9")
	v := a.View()
	if strings.Contains(v, "own requirement") || !strings.Contains(flatView(a), "The last comparison was of earlier settings and is cleared") {
		t.Fatalf("the comparison of the old QIs is still shown:\n%s", v)
	}
	press(t, a, "enter")
	if slices.Contains(a.st.Project.Roles.QIs, "zipcode") {
		t.Fatal("enter put zipcode back among the QIs")
	}
	settle(t, a, a.schedule())
	press(t, a, "+")
	if v := a.View(); strings.Contains(v, "own requirement") {
		t.Fatalf("the comparison of k = 10 is still shown under k = 11:\n%s", v)
	}
}
