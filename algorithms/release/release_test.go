package release

import (
	"slices"
	"testing"
)

// NumbersFrom gives the ids base+1..base+n as a release file writes them.
func TestNumbers(t *testing.T) {
	t.Parallel()
	if got := NumbersFrom(0, 0); len(got) != 0 {
		t.Fatalf("NumbersFrom(0, 0) = %q", got)
	}
	if got := NumbersFrom(0, 3); !slices.Equal(got, []string{"1", "2", "3"}) {
		t.Fatalf("NumbersFrom(0, 3) = %q", got)
	}
	if got := NumbersFrom(0, 1000); got[98] != "99" || got[99] != "100" || got[999] != "1000" {
		t.Fatalf("NumbersFrom(0, 1000) gives %q, %q, %q", got[98], got[99], got[999])
	}
	if got := NumbersFrom(20000, 2); !slices.Equal(got, []string{"20001", "20002"}) {
		t.Fatalf("NumbersFrom(20000, 2) = %q", got)
	}
}

// A label of values never reads {9th, …, 9th} (1 values).
func TestValuesLabel(t *testing.T) {
	for _, c := range []struct {
		first, last string
		n           int
		want        string
	}{
		{"9th", "9th", 1, "{9th}"},
		{"F", "M", 2, "{F, M}"},
		{"Adm-clerical", "Sales", 4, "{Adm-clerical, …, Sales} (4 values)"},
	} {
		if got := ValuesLabel(c.first, c.last, c.n); got != c.want {
			t.Errorf("ValuesLabel(%s, %s, %d) = %s, want %s", c.first, c.last, c.n, got, c.want)
		}
	}
}
