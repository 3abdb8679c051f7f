package verify

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

func load(t *testing.T, text string, opt csvfile.LoadOptions) *model.Table {
	t.Helper()
	tab, err := csvfile.Load(strings.NewReader(text), opt)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// published loads a published file as a release's reader does: no
// missing-value tokens.
func published(t *testing.T, text string) *model.Table {
	return load(t, text, csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
}

// A missing value drops its row under the drop policy; under category a
// categorical one is published as "?" (a numeric one still drops it).
func TestOriginalPolicy(t *testing.T) {
	t.Parallel()
	orig := load(t, "age,sex,disease\n20,F,flu\n,M,flu\n30,?,cold\n40,F,\n", csvfile.LoadOptions{})
	for policy, want := range map[string][]bool{"drop": {true, false, false, false}, "category": {true, false, true, true}} {
		o, err := NewOriginal(orig, &releasedir.Manifest{QIs: []string{"age", "sex"}, SA: "disease", MissingValues: policy})
		if err != nil || !slices.Equal(o.Kept, want) || o.Rows != strings.Count(fmt.Sprint(want), "true") {
			t.Errorf("%s: kept %v (%d), want %v (%v)", policy, o.Kept, o.Rows, want, err)
		}
		if s, ok := o.Text(o.QIs[1], 2); s != "?" || ok != (policy == "category") {
			t.Errorf("%s: missing sex reads %q %v", policy, s, ok)
		}
	}
	o, _ := NewOriginal(orig, &releasedir.Manifest{QIs: []string{"sex"}})
	if texts := o.Texts(o.QIs[0]); strings.Join(texts, ",") != "F,M,?" || Code(o.QIs[0], 2) != 2 || Code(o.QIs[0], 1) != 1 {
		t.Errorf("texts %q, codes %d %d", texts, Code(o.QIs[0], 2), Code(o.QIs[0], 1))
	}
	if _, err := NewOriginal(orig, &releasedir.Manifest{QIs: []string{"zip"}}); err == nil {
		t.Error("an original without a QI")
	}
	if _, err := NewOriginal(orig, &releasedir.Manifest{QIs: []string{"age"}, SA: "salary"}); err == nil || !strings.Contains(err.Error(), `no sensitive column "salary"`) {
		t.Errorf("an original without the SA: %v", err)
	}
}

// textMatch is the reference Match is held to: each row's texts joined,
// as the checkers matched tuples before they read codes; it returns the
// tuples whose counts differ and, when none do, the rows pinned by
// values (the j-th published row of a tuple taking its j-th original
// row).
func textMatch(o *Original, cols []*model.Column, rows int) (int, []int) {
	count := map[string]int{}
	byKey := map[string][]int{}
	keys := make([]string, rows)
	for row := 0; row < rows; row++ {
		keys[row] = PublishedKey(cols, row)
		count[keys[row]]++
	}
	for row, kept := range o.Kept {
		if !kept {
			continue
		}
		var b []byte
		for _, c := range o.QIs {
			text, _ := o.Text(c, row)
			b = append(append(b, text...), 0)
		}
		byKey[string(b)] = append(byKey[string(b)], row)
	}
	differ := 0
	for k, n := range count {
		if n != len(byKey[k]) {
			differ++
		}
	}
	for k := range byKey {
		if _, ok := count[k]; !ok {
			differ++
		}
	}
	if differ > 0 {
		return differ, nil
	}
	pinned := make([]int, rows)
	next := map[string]int{}
	for i, k := range keys {
		pinned[i] = byKey[k][next[k]]
		next[k]++
	}
	return 0, pinned
}

// Match on codes agrees with matching on text (textMatch), and pins the
// same rows, on random small tables with missing values, numbers written
// two ways, extra and lacking tuples, under both policies.
func TestMatchAgreesWithText(t *testing.T) {
	t.Parallel()
	rng := model.NewRand(11)
	for trial := 0; trial < 300; trial++ {
		var orig, pub strings.Builder
		orig.WriteString("a,b,s\n")
		pub.WriteString("a,b\n")
		n := 1 + rng.Intn(12)
		vals := []string{"1", "2", "x", "", "?", "01"}
		for i := 0; i < n; i++ {
			row := []string{vals[rng.Intn(len(vals))], vals[rng.Intn(3)], []string{"s1", "s2", ""}[rng.Intn(3)]}
			fmt.Fprintf(&orig, "%s\n", strings.Join(row, ","))
			if rng.Intn(5) > 0 {
				if row[0] == "" {
					row[0] = "?"
				}
				fmt.Fprintf(&pub, "%s,%s\n", row[0], row[1])
			}
		}
		if rng.Intn(4) == 0 || strings.Count(pub.String(), "\n") == 1 {
			pub.WriteString("y,1\n")
		}
		ot := load(t, orig.String(), csvfile.LoadOptions{})
		pt := published(t, pub.String())
		m := &releasedir.Manifest{QIs: []string{"a", "b"}, SA: "s", MissingValues: []string{"drop", "category"}[rng.Intn(2)]}
		o, err := NewOriginal(ot, m)
		if err != nil {
			t.Fatal(err)
		}
		differ, pinned := textMatch(o, pt.Columns, pt.Rows)
		match := o.Match("p.csv", pt.Columns, pt.Rows)
		if match.Differ != differ {
			t.Fatalf("trial %d:\n%s\n%s\ntext: %d differ, codes: %d", trial, orig.String(), pub.String(), differ, match.Differ)
		}
		if differ == 0 {
			if p := match.Pin(nil, nil); !slices.Equal(pinned, p.Rows) {
				t.Fatalf("trial %d: pinned %v by text, %v by codes", trial, pinned, p.Rows)
			}
		}
	}
}

// A file with more columns than QIs shares no tuple with the original.
func TestMatchOtherColumns(t *testing.T) {
	t.Parallel()
	o, _ := NewOriginal(load(t, "a,b\n1,2\n1,3\n", csvfile.LoadOptions{}), &releasedir.Manifest{QIs: []string{"a", "b"}})
	m := o.Match("p.csv", published(t, "a,b,c\n1,2,x\n1,3,x\n").Columns, 2)
	if m.Same() || m.Differ != 4 || m.Tuples != 4 {
		t.Errorf("differ %d of %d", m.Differ, m.Tuples)
	}
}

// Pinning: by the audit record's row map (which must name rows of the
// same tuples), else by tuple when every tuple's rows are
// interchangeable.
func TestPin(t *testing.T) {
	t.Parallel()
	o, _ := NewOriginal(load(t, "a\nx\ny\nx\nz\n", csvfile.LoadOptions{}), &releasedir.Manifest{QIs: []string{"a"}})
	m := o.Match("p.csv", published(t, "a\nz\nx\ny\nx\n").Columns, 4)
	p := m.Pin(nil, nil)
	if r := (&Report{}); !r.AddPinning(p) || len(r.Lines) != 0 || !slices.Equal(p.Rows, []int{3, 0, 1, 2}) {
		t.Errorf("by values: %v %q", p.Rows, r.Strings())
	}
	if p := m.Pin(nil, func(id int32) bool { return m.Rows(id)[0] != 0 }); p.Rows != nil || p.Spanning != 1 {
		t.Errorf("a tuple not interchangeable: %+v", p)
	} else if r := (&Report{}); r.AddPinning(p) || r.Strings()[0] != "FAIL pinning: undetermined: 1 QI combinations of p.csv lie in more than one group, so the files do not say which original row is which; check with the audit record written beside the release" {
		t.Errorf("%q", r.Strings())
	}
	for rows, fits := range map[string]bool{"[3 2 1 0]": true, "[3 0 1 2]": true, "[3 1 0 2]": false, "[3 2 1]": false, "[3 2 1 9]": false} {
		var rm []int
		for _, f := range strings.Fields(strings.Trim(rows, "[]")) {
			var x int
			fmt.Sscan(f, &x)
			rm = append(rm, x)
		}
		p := m.Pin(&releasedir.Audit{RowMap: map[string][]int{"p.csv": rm}}, nil)
		r := &Report{}
		if ok := r.AddPinning(p); ok != fits || r.Lines[0].Name != "audit" || r.Lines[0].OK != fits {
			t.Errorf("row map %s: pinned %v, %q", rows, ok, r.Strings())
		}
	}
}

// Rows in the input's order, either way, fail; small files and files of
// one repeated tuple are exempt (their order says nothing).
func TestShuffled(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		rows     []int
		distinct int
		want     string
	}{
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, 3, "FAIL shuffled: p.csv rows are in the input's order"},
		{[]int{7, 6, 5, 4, 3, 2, 1, 0}, 3, "FAIL shuffled: p.csv rows are in the input's order"},
		{[]int{1, 0, 2, 3, 4, 5, 6, 7}, 3, "ok   shuffled: p.csv rows are not in the input's order"},
		{[]int{0, 1, 2, 3, 4, 5, 6}, 3, ""},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, 1, ""},
	} {
		r := &Report{}
		Shuffled("p.csv", c.rows, c.distinct, r)
		if got := strings.Join(r.Strings(), ""); got != c.want {
			t.Errorf("%v: %q, want %q", c.rows, got, c.want)
		}
	}
}

// Rows in the input's order but for a few swapped, or swapped pair by
// pair, link each published row to its input row as a sorted file does
// (SPEC 7.3), and fail; a shuffle passes.
func TestShuffledNearOrder(t *testing.T) {
	t.Parallel()
	const n = 2000
	sorted := func() []int32 {
		rows := make([]int32, n)
		for i := range rows {
			rows[i] = int32(i)
		}
		return rows
	}
	fewSwapped := sorted()
	for _, s := range [][2]int{{3, 1500}, {10, 11}, {700, 42}, {1999, 0}, {900, 901}} {
		fewSwapped[s[0]], fewSwapped[s[1]] = fewSwapped[s[1]], fewSwapped[s[0]]
	}
	pairs := sorted()
	for i := 0; i+1 < n; i += 2 {
		pairs[i], pairs[i+1] = pairs[i+1], pairs[i]
	}
	shuffled := sorted()
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, c := range []struct {
		name string
		rows []int32
		want string
	}{
		{"five swaps", fewSwapped, "FAIL shuffled: p.csv rows are close to the input's order: 1991 of 1999 neighbouring rows ascend in the input's order, where a shuffle gives 999.5 (standard deviation 12.9)"},
		{"pairs swapped", pairs, "FAIL shuffled: p.csv rows are close to the input's order: a row's position correlates 1.000 with its input row, where a shuffle gives 0 (standard deviation 0.022)"},
		{"shuffled", shuffled, "ok   shuffled: p.csv rows are not in the input's order"},
	} {
		r := &Report{}
		Shuffled("p.csv", c.rows, n, r)
		if got := strings.Join(r.Strings(), ""); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// Rows pinned tuple by tuple (the j-th published row of a tuple taking
// its j-th original row) are ordered within each tuple whatever the
// file's order: a shuffled file of repeated tuples passes on its tuples'
// first rows (ShuffledKeys) and is not taken for one close to the input's
// order.
func TestShuffledKeysFirstCome(t *testing.T) {
	t.Parallel()
	const tuples, copies = 50, 40
	tupleOf := make([]int, 0, tuples*copies)
	for id := range tuples {
		for range copies {
			tupleOf = append(tupleOf, id)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	rng.Shuffle(len(tupleOf), func(i, j int) { tupleOf[i], tupleOf[j] = tupleOf[j], tupleOf[i] })
	// Tuple id's original rows are id, id+tuples, id+2*tuples, ...
	pinned, keys := make([]int, len(tupleOf)), make([]int, len(tupleOf))
	next := make([]int, tuples)
	for i, id := range tupleOf {
		pinned[i], keys[i] = id+next[id]*tuples, id
		next[id]++
	}
	r := &Report{}
	ShuffledKeys("p.csv", pinned, keys, tuples, r)
	if got := strings.Join(r.Strings(), ""); got != "ok   shuffled: p.csv rows are not in the input's order" {
		t.Errorf("shuffled tuples pinned first come: %q", got)
	}
	r = &Report{}
	Shuffled("p.csv", pinned, tuples, r)
	if got := strings.Join(r.Strings(), ""); !strings.HasPrefix(got, "FAIL shuffled: p.csv rows are close to the input's order") {
		t.Errorf("the first-come rows themselves read as ordered (why keys): %q", got)
	}
}

// Tuples are numbered alike whether their codes pack into one number or
// not.
func TestTupleKeys(t *testing.T) {
	t.Parallel()
	packed := NewTupleKeys([]uint64{3, 5})
	large := NewTupleKeys([]uint64{1 << 40, 1 << 40})
	if packed.large != nil || large.large == nil {
		t.Fatal("modes")
	}
	for _, tuple := range [][]uint32{{0, 0}, {2, 4}, {0, 0}, {1, 0}, {0, 1}, {2, 4}} {
		if a, b := packed.ID(tuple), large.ID(tuple); a != b {
			t.Errorf("%v: %d packed, %d as bytes", tuple, a, b)
		}
	}
	if packed.n != 4 {
		t.Errorf("%d tuples", packed.n)
	}
}
