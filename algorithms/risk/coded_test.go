package risk

import (
	"fmt"
	"testing"
)

// Records added as cell codes (CellCode, AddCoded) make the view that
// adding their texts makes: the same cells in the same order, regions,
// beliefs, losses.
func TestAddCodedIsAdd(t *testing.T) {
	t.Parallel()
	recs := [][]string{{"a", "1"}, {"b", "1"}, {"a", "1"}, {"c", "2..3"}, {"b", "1"}, {"a", "2..3"}}
	byText := NewBuilder([]string{"x", "y"}, "s", []string{"u", "v"}, false)
	byCode := NewBuilder([]string{"x", "y"}, "s", []string{"u", "v"}, false)
	for i, rec := range recs {
		bt, bc := byText.Value(i%2), byCode.Value(i%2)
		byText.Add(rec, bt, float64(i)/10)
		codes := []uint32{byCode.CellCode(0, rec[0]), byCode.CellCode(1, rec[1])}
		byCode.AddCoded(codes, bc, float64(i)/10)
	}
	a, b := byText.View(6, 0, true), byCode.View(6, 0, true)
	// (A region's presence is NaN until set: compared as printed.)
	if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) || len(a.Regions) != 4 || a.Regions[0].Records != 2 {
		t.Fatalf("by text %+v\nby code %+v", a, b)
	}
}
