package hierarchy

import (
	"strings"
	"testing"

	mhierarchy "privlab/model/hierarchy"
)

// A masked node reads as the values it covers, one value as {9th} (the
// masking builder showed "{9th, …, 9th} (1 values)"), two as a pair,
// more with their count; a masked code keeps its mask (issue 35 polish).
func TestDisplayLabelNamesTheValuesCovered(t *testing.T) {
	text := "9th;9*;*\nBachelors;B*;*\nBoth;B*;*\nMasters;M*;*\nMD;M*;*\nMPhil;M*;*\n91110;911*;*\n"
	h, err := mhierarchy.Parse("education", "h.csv", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"9*": "{9th}", "B*": "{Bachelors, Both}", "M*": "{Masters, …, MPhil} (3 values)", "911*": "911*"}
	for n, nd := range h.Nodes {
		w, ok := want[nd.Label]
		if !ok {
			continue
		}
		if got := displayLabel(h, n); got != w {
			t.Errorf("%s reads %q, want %q", nd.Label, got, w)
		}
		delete(want, nd.Label)
	}
	if len(want) > 0 {
		t.Errorf("nodes not found: %v", want)
	}
}
