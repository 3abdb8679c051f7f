package method

import (
	"reflect"
	"testing"

	"privlab/model"
)

func TestParseColumnGrouping(t *testing.T) {
	for in, want := range map[string]string{"": "", "algorithm": "", " column:gender ": "gender", "column: zip": "zip"} {
		if got, err := ParseColumnGrouping(in); err != nil || got != want {
			t.Errorf("ParseColumnGrouping(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"column:", "column: ", "gender", "mondrian"} {
		if _, err := ParseColumnGrouping(in); err == nil {
			t.Errorf("ParseColumnGrouping(%q): no error", in)
		}
	}
}

// TestGroupsByColumn: groups and their rows in order of first
// appearance, the rows left out in none.
func TestGroupsByColumn(t *testing.T) {
	col := &model.Column{Name: "g", Dict: []string{"m", "f"}, Codes: []uint32{1, 0, 1, model.Missing, 0, 1}}
	if got, want := GroupsByColumn(col, func(row int) bool { return col.Codes[row] == model.Missing }), [][]int32{{0, 2, 5}, {1, 4}}; !reflect.DeepEqual(got, want) {
		t.Errorf("groups %v, want %v", got, want)
	}
	if got := GroupsByColumn(col, nil); len(got) != 3 || !reflect.DeepEqual(got[2], []int32{3}) {
		t.Errorf("without leave: %v", got)
	}
}
