package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"privlab/algorithms/method"
	"privlab/ui/common"
	"privlab/ui/components"
)

// clip and the tables count display cells: a wide character takes two.
func TestClipCountsCells(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"zipcode", 10, "zipcode"},
		{"zipcode", 4, "zip…"},
		{"東京都港区", 5, "東京…"},
		{"東京", 4, "東京"},
	} {
		if got := common.Clip(c.in, c.n); got != c.want || ansi.StringWidth(got) > c.n {
			t.Errorf("clip(%q, %d) = %q (%d cells), want %q", c.in, c.n, got, ansi.StringWidth(got), c.want)
		}
	}
}

// The Data pane's columns line up whatever the width of a name's
// characters.
func TestDataPaneAlignsWideNames(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "wide.csv"), []byte("年齢,zip\n34,91110\n35,91120\n"), 0o644)
	var view string
	inDir(t, dir, func() { view = ready(t, "wide.csv", 80, 24).View() })
	col := map[string]int{}
	for _, l := range strings.Split(view, "\n") {
		if !strings.Contains(l, "numeric") {
			continue
		}
		for _, name := range []string{"年齢", "zip"} {
			if i := strings.Index(l, " "+name+" "); i >= 0 {
				rest := strings.TrimLeft(l[i+1+len(name):], " ")
				col[name] = ansi.StringWidth(l[:len(l)-len(rest)])
			}
		}
	}
	if col["年齢"] == 0 || col["年齢"] != col["zip"] {
		t.Fatalf("the role column starts at cell %d after 年齢 and %d after zip:\n%s", col["年齢"], col["zip"], view)
	}
}

// A section's table fits its width: columns shrink, cells are cut with …
// and the header stays.
func TestSectionTableFitsItsWidth(t *testing.T) {
	sec := method.Section{Header: []string{"value", "original", "published"},
		Rows: [][]string{{"Married-civ-spouse", "東京都港区六本木一丁目", "[30000, 40000]"}, {"Never-married", "x", "[1, 2]"}}}
	out := components.TableView(common.DefaultStyles(), sec, 30, 5, 0, "↑/↓")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "val") || !strings.Contains(out, "…") {
		t.Fatalf("table:\n%s", out)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 30 {
			t.Errorf("%d cells: %q", w, l)
		}
	}
}

// human and thousands read as before they went through go-humanize.
func TestHumanAndThousands(t *testing.T) {
	for x, want := range map[float64]string{1234567: "1.23M", 2.5e9: "2.5G", 12345: "12.3k", 999960: "1000k", -25000: "-25k",
		8957.9: "8957.9", 44.0485: "44.05", 1.999: "2", 3: "3", 0.0424: "0.0424", 0: "0"} {
		if got := common.Human(x); got != want {
			t.Errorf("human(%v) = %q, want %q", x, got, want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := common.Thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
