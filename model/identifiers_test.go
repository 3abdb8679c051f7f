package model_test

import (
	"errors"
	"privlab/model"
	"privlab/model/csvfile"
	"strings"
	"testing"
)

// An identifier column whose value repeats is an input error naming the
// file, the second row's line, the column, the value and both lines; 7
// and 007 are one identifier, a missing one is none, and several columns
// repeat only together.
func TestCheckIdentifiers(t *testing.T) {
	t.Parallel()
	load := func(text string) *model.Table {
		tab, err := csvfile.Load(strings.NewReader(text), csvfile.LoadOptions{Name: "t.csv"})
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	for _, c := range []struct {
		name, text string
		ids        []string
		want       string
	}{
		{"distinct", "id,a\n1,x\n2,x\n3,y\n", []string{"id"}, ""},
		{"repeated", "id,a\n1,x\n2,x\n3,y\n2,z\n", []string{"id"},
			`t.csv:5: column 1 (id): the identifier "2" repeats (lines 3 and 5): an identifier names one person, and joined on it the tables would pair the wrong people` +
				` (hint: do not mark id as an identifier if it does not name one person; mark as an identifier only a column whose every value is one person's)`},
		{"as numbers", "a,id\nx,7\nx,8\ny,007\n", []string{"id"},
			`t.csv:4: column 2 (id): the identifier "007" repeats (lines 2 and 4)`},
		{"missing is none", "id,a\n,x\n1,x\n,y\n", []string{"id"}, ""},
		{"together", "f,l,a\nann,lee,1\nann,kim,2\nbob,lee,3\n", []string{"f", "l"}, ""},
		{"together, repeated", "f,l,a\nann,lee,1\nann,kim,2\nann,lee,3\n", []string{"f", "l", "none"},
			`t.csv:4: identifier columns f,l: the identifier "ann,lee" repeats (lines 2 and 4)`},
		{"not a column", "id,a\n1,x\n1,x\n", []string{"other"}, ""},
	} {
		err := model.CheckIdentifiers(load(c.text), "t.csv", c.ids, nil)
		var ie *model.InputError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (!errors.As(err, &ie) || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
		}
	}
	// Only the rows read count: a repeat in a row left out (a missing
	// value dropped it) is no join.
	tab := load("id,a\n1,x\n2,\n1,y\n3,z\n3,z\n")
	if err := model.CheckIdentifiers(tab, "t.csv", []string{"id"}, []int{0, 1, 3}); err != nil {
		t.Errorf("rows read: %v", err)
	}
	err := model.CheckIdentifiers(tab, "t.csv", []string{"id"}, []int{0, 1, 3, 4})
	if err == nil || !strings.HasPrefix(err.Error(), `t.csv:6: column 1 (id): the identifier "3" repeats (lines 5 and 6)`) {
		t.Errorf("rows read, one repeated: %v", err)
	}
}
