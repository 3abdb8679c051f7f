package ambiguity

import (
	"slices"
	"strconv"
	"testing"

	"privlab/model"
)

// TestGroupKeys: openScheme finds a group by its exact GroupID text, plain
// whole numbers through the array, any other text through the map.
func TestGroupKeys(t *testing.T) {
	s := &scheme{}
	ids := &model.Column{Name: "GroupID", Dict: []string{"2", "01", "x", "1", "1000000000"}, Codes: []uint32{3, 0, 0, 1, 2, 4, model.Missing}}
	of, keys := s.firstAppearance(ids)
	// Groups in order of first appearance: "1", "2", "01", "x", "1000000000", "" (missing).
	if got := []int32{of[0], of[1], of[2], of[3], of[4], of[5]}; !slices.Equal(got, []int32{1, 2, 3, 0, 4, 5}) {
		t.Fatalf("groups by code %v", got)
	}
	for g, id := range s.ids {
		if got := keys.find(id); got != int32(g) {
			t.Errorf("find(%q) = %d, want %d", id, got, g)
		}
	}
	for _, id := range []string{"3", "001", "1 ", "0", strconv.Itoa(1 << 20)} {
		if got := keys.find(id); got != -1 {
			t.Errorf("find(%q) = %d, want -1", id, got)
		}
	}
}
