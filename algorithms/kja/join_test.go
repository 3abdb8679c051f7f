package kja

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/csvfile"
)

// The tests below hold buildJT to Sacharidis et al., Section 3.1: JT is
// the join of MT and PD on the identifier, so a person in both tables is
// one JT tuple. Every expected figure is counted here from the raw tables.

var joinQIs = []string{"age", "income", "family-size", "education-years"}

// universeFiles writes a universe (600 microdata people, PD of 2,400
// holding them all with the same id and QIs) and loads both tables;
// edit, when set, rewrites pd.csv's lines first (header at 0).
func universeFiles(t *testing.T, edit func(lines []string, mtIDs map[string]bool) []string) (mt, pd *model.Table) {
	t.Helper()
	dir := t.TempDir()
	if err := datasets.WriteUniverse(dir, 600, 4, 3); err != nil {
		t.Fatal(err)
	}
	mt, err := csvfile.LoadFile(filepath.Join(dir, "mt.csv"), csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pdPath := filepath.Join(dir, "pd.csv")
	if edit != nil {
		ids := map[string]bool{}
		for r := 0; r < mt.Rows; r++ {
			ids[mt.Column("id").Value(r)] = true
		}
		b, _ := os.ReadFile(pdPath)
		lines := edit(strings.Split(strings.TrimSpace(string(b)), "\n"), ids)
		if err := os.WriteFile(pdPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pd, err = csvfile.LoadFile(pdPath, csvfile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return mt, pd
}

// renameID renames pd.csv's id column to pid.
func renameID(lines []string, _ map[string]bool) []string {
	lines[0] = strings.Replace(lines[0], "id,", "pid,", 1)
	return lines
}

// othersOnly keeps the PD rows of people not in MT.
func othersOnly(lines []string, mtIDs map[string]bool) []string {
	out := lines[:1]
	for _, l := range lines[1:] {
		if id, _, _ := strings.Cut(l, ","); !mtIDs[id] {
			out = append(out, l)
		}
	}
	return out
}

func runOn(in *method.Input, variant string, k int) (*run, error) {
	c := *in
	c.Variant, c.Values = variant, model.Values{"k": fmt.Sprint(k), "seed": "1"}
	return newRun(context.Background(), &c)
}

// commonValues counts the distinct values of column name present in
// both tables.
func commonValues(a, b *model.Table, name string) int {
	in := map[string]bool{}
	for r := 0; r < a.Rows; r++ {
		in[a.Column(name).Value(r)] = true
	}
	seen := map[string]bool{}
	for r := 0; r < b.Rows; r++ {
		v := b.Column(name).Value(r)
		if in[v] && !seen[v] {
			seen[v] = true
		}
	}
	return len(seen)
}

// TestSharedIdentifierWithoutIDIsRefused: PD holds MT's 600 people with
// their ids; without --id every KJA variant refuses, naming the column,
// its common values and the fix, while the plain baselines (which count
// no PD tuple) and a run with --id id go ahead.
func TestSharedIdentifierWithoutIDIsRefused(t *testing.T) {
	mt, pd := universeFiles(t, nil)
	common := commonValues(mt, pd, "id")
	if common != 600 {
		t.Fatalf("the universe's PD holds %d of MT's ids, want all 600", common)
	}
	in := testInput(mt, pd, joinQIs, "occupation", nil)
	for _, v := range []string{MondrianDirect, MondrianRefine, TopDownDirect, TopDownRefine} {
		_, err := runOn(in, v, 20)
		var pe *model.ParamError
		if !errors.As(err, &pe) || pe.Param != "id" {
			t.Fatalf("%s without --id: %v, want a parameter error on id", v, err)
		}
		want := fmt.Sprintf("share column id with %d common values", common)
		fix := model.Fix{Setting: model.SetID, Value: "id", Why: "to join the tables on it (Sacharidis et al., Section 3.1)"}
		if !strings.Contains(pe.Reason, want) || len(pe.Fixes) != 1 || pe.Fixes[0] != fix || !strings.Contains(pe.Hint, "rename") {
			t.Fatalf("%s: %q / %q / %+v, want %q, the identifier id and rename", v, pe.Reason, pe.Hint, pe.Fixes, want)
		}
	}
	for _, v := range []string{MondrianPlain, TopDownPlain} {
		if _, err := runOn(in, v, 20); err != nil {
			t.Fatalf("%s reads PD for its domain only: %v", v, err)
		}
	}
	in.Roles.IDs = []string{"id"}
	r, err := runOn(in, MondrianDirect, 20)
	if err != nil {
		t.Fatal(err)
	}
	if r.t.joined != 600 || len(r.t.pd) != pd.Rows-600 {
		t.Fatalf("joined %d, external %d; want 600 and %d", r.t.joined, len(r.t.pd), pd.Rows-600)
	}
}

// TestIdentifierMissingFromPublicIsRefused: --id id with a PD that has no
// id column is an error naming the public table and the column.
func TestIdentifierMissingFromPublicIsRefused(t *testing.T) {
	mt, pd := universeFiles(t, renameID)
	in := testInput(mt, pd, joinQIs, "occupation", []string{"id"})
	_, err := runOn(in, MondrianRefine, 20)
	var pe *model.ParamError
	if !errors.As(err, &pe) || pe.Param != "id" || pe.Value != "id" || !strings.Contains(pe.Reason, pd.Name) || !strings.Contains(pe.Reason, `"id"`) {
		t.Fatalf("got %v, want a parameter error on id naming %s and the column", err, pd.Name)
	}
}

// TestUnjoinedPublicPairs: a PD joined on no identifier, holding MT's
// people under another id column or other people only: the KJA variants
// pair sum over QI points of min(mt_v, pd_v) public rows with microdata
// tuples (counted here from the raw tables) and say so in a note, with no
// warning (no person counts twice); a column both tables hold that many
// people share (rent, sex) is no identifier: no refusal. The plain
// baselines read PD for the domain only and pair nothing.
func TestUnjoinedPublicPairs(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func([]string, map[string]bool) []string
	}{
		{"same people, id renamed", renameID},
		{"other people", othersOnly},
	} {
		mt, pd := universeFiles(t, tc.edit)
		if tc.name == "other people" && commonValues(mt, pd, "id") != 0 {
			t.Fatalf("%s: PD shares ids with MT", tc.name)
		}
		in := testInput(mt, pd, joinQIs, "occupation", nil)
		want := pairedRows(mt, pd, joinQIs)
		if (want >= mt.Rows) != (tc.name == "same people, id renamed") {
			t.Fatalf("%s: %d rows pair: the case does not test what it says", tc.name, want)
		}
		for _, v := range []string{MondrianDirect, TopDownRefine, MondrianPlain} {
			r, err := runOn(in, v, 20)
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.name, v, err)
			}
			res, err := r.result(Method{}.Spec())
			if err != nil {
				t.Fatal(err)
			}
			if v == MondrianPlain {
				want = 0
			}
			note := fmt.Sprintf("%d such rows", want)
			if r.t.qiPaired != want || len(res.Warnings) != 0 || v != MondrianPlain && !strings.Contains(strings.Join(res.Notes, "\n"), note) {
				t.Fatalf("%s, %s: paired %d, warnings %q, notes %q; want %d paired, no warning", tc.name, v, r.t.qiPaired, res.Warnings, res.Notes, want)
			}
		}
	}
}

// pairedRows is sum over QI points v of min(mt_v, pd_v).
func pairedRows(mt, pd *model.Table, qis []string) int {
	key := func(tab *model.Table, r int) string {
		var parts []string
		for _, q := range qis {
			parts = append(parts, tab.Column(q).Value(r))
		}
		return strings.Join(parts, "|")
	}
	mtAt, pdAt := map[string]int{}, map[string]int{}
	for r := 0; r < mt.Rows; r++ {
		mtAt[key(mt, r)]++
	}
	for r := 0; r < pd.Rows; r++ {
		pdAt[key(pd, r)]++
	}
	n := 0
	for v, c := range pdAt {
		n += min(c, mtAt[v])
	}
	return n
}

// TestNCPNormalisedByJTInEveryVariant: with a public table every variant,
// the plain baselines too, normalises NCP by JT's extent (MT and the PD
// people not joined with MT, computed here from the raw tables), so the
// six NCPs compare; plain k-anonymity's boxes do not move with PD, only
// their normaliser does. Without a public table the plain variants use
// MT's extent.
func TestNCPNormalisedByJTInEveryVariant(t *testing.T) {
	mt, pd := universeFiles(t, nil)
	mtIDs := map[string]bool{}
	for r := 0; r < mt.Rows; r++ {
		mtIDs[mt.Column("id").Value(r)] = true
	}
	extent := func(withPD bool) (lo, hi []float64) {
		lo, hi = make([]float64, len(joinQIs)), make([]float64, len(joinQIs))
		for a, q := range joinQIs {
			lo[a], hi[a] = math.Inf(1), math.Inf(-1)
			for r := 0; r < mt.Rows; r++ {
				lo[a], hi[a] = math.Min(lo[a], mt.Column(q).Num(r)), math.Max(hi[a], mt.Column(q).Num(r))
			}
			for r := 0; withPD && r < pd.Rows; r++ {
				if !mtIDs[pd.Column("id").Value(r)] {
					lo[a], hi[a] = math.Min(lo[a], pd.Column(q).Num(r)), math.Max(hi[a], pd.Column(q).Num(r))
				}
			}
		}
		return lo, hi
	}
	ncp := func(r *run, lo, hi []float64) float64 {
		s := 0.0
		for _, b := range r.boxes {
			for a := range joinQIs {
				s += float64(b.mt) * (b.b.hi[a] - b.b.lo[a]) / (hi[a] - lo[a])
			}
		}
		return s
	}
	jtLo, jtHi := extent(true)
	mtLo, mtHi := extent(false)
	wider := false
	for a := range joinQIs {
		wider = wider || jtLo[a] < mtLo[a] || jtHi[a] > mtHi[a]
	}
	if !wider {
		t.Fatal("PD does not widen any QI's extent: the test cannot tell the normalisers apart")
	}
	in := testInput(mt, pd, joinQIs, "occupation", []string{"id"})
	alone := testInput(mt, nil, joinQIs, "occupation", []string{"id"})
	for _, v := range Variants {
		r, err := runOn(in, v, 20)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.result(Method{}.Spec())
		if err != nil {
			t.Fatal(err)
		}
		for a := range joinQIs {
			if r.t.axes[a].lo != jtLo[a] || r.t.axes[a].hi != jtHi[a] {
				t.Fatalf("%s: %s normalised by [%v, %v], want JT's [%v, %v]", v, joinQIs[a], r.t.axes[a].lo, r.t.axes[a].hi, jtLo[a], jtHi[a])
			}
		}
		// The utility is NCP's mean (issue 35.7): the paper's sum over the
		// MT tuples and QIs.
		if want := ncp(r, jtLo, jtHi); math.Abs(res.Utility.Value*float64(r.t.mt*r.t.d)-want) > 1e-6*want {
			t.Fatalf("%s: NCP %v, want %v / (%d tuples x %d QIs)", v, res.Utility.Value, want, r.t.mt, r.t.d)
		}
		if v != MondrianPlain && v != TopDownPlain {
			continue
		}
		b, err := runOn(alone, v, 20)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(sgMembers(b)) != fmt.Sprint(sgMembers(r)) {
			t.Fatalf("%s: the boxes move with the public table", v)
		}
		if want := ncp(b, mtLo, mtHi); math.Abs(b.metrics().NCP-want) > 1e-6*want {
			t.Fatalf("%s without PD: NCP %v, want %v (MT's extent)", v, b.metrics().NCP, want)
		}
	}
}

// TestUnjoinedPublicCountsPeopleOnce (issue 18.2): PD holds MT's 600
// people under a column named pid, so no identifier joins the tables, and
// a PD row equal to an MT tuple on the QIs may be that person. JT pairs
// each such row with an MT tuple of its QI point (at most min(mt_v, pd_v)
// at point v) and counts it as that person: its public tuples number
// |PD| - sum over v of min(mt_v, pd_v), counted here from the raw tables,
// and, with the true identifiers (MT's id, PD's pid), the JT tuples every
// KJA variant publishes at a QI point are never more than the distinct
// people there: each is a distinct person, so a box of k tuples hides a
// victim among k people (Theorem 2).
func TestUnjoinedPublicCountsPeopleOnce(t *testing.T) {
	mt, pd := universeFiles(t, renameID)
	paired := pairedRows(mt, pd, joinQIs)
	if paired != mt.Rows {
		t.Fatalf("PD pairs %d of MT's %d people: the case does not test what it says", paired, mt.Rows)
	}
	point := func(tab *model.Table, r int) string {
		var parts []string
		for _, q := range joinQIs {
			parts = append(parts, tab.Column(q).Value(r))
		}
		return strings.Join(parts, "|")
	}
	people := map[string]map[string]bool{} // QI point -> true identifiers there
	for _, side := range []struct {
		tab *model.Table
		id  string
	}{{mt, "id"}, {pd, "pid"}} {
		for r := 0; r < side.tab.Rows; r++ {
			v := point(side.tab, r)
			if people[v] == nil {
				people[v] = map[string]bool{}
			}
			people[v][side.tab.Column(side.id).Value(r)] = true
		}
	}
	in := testInput(mt, pd, joinQIs, "occupation", nil)
	for _, v := range []string{MondrianDirect, MondrianRefine, TopDownDirect, TopDownRefine} {
		r, err := runOn(in, v, 20)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.t.pd) != pd.Rows-paired {
			t.Fatalf("%s: JT holds %d public tuples, want %d - %d paired with MT tuples", v, len(r.t.pd), pd.Rows, paired)
		}
		published := map[string]int{}
		for _, b := range r.boxes {
			for _, tu := range b.tuples {
				if r.t.isMT(tu) {
					published[point(mt, int(tu))]++
				} else {
					published[point(pd, int(r.t.pd[int(tu)-r.t.mt]))]++
				}
			}
		}
		for p, n := range published {
			if n > len(people[p]) {
				t.Fatalf("%s: %d JT tuples published at QI point %s, where %d people are", v, n, p, len(people[p]))
			}
		}
	}
}

// TestRepeatedColumnIsNeverProposed (issue 31.6): a column both tables
// hold whose values are all distinct but one, repeated (Adult's fnlwgt),
// is no identifier: the KJA variants never propose it for --id, and run
// without one (the public rows paired on the QIs).
func TestRepeatedColumnIsNeverProposed(t *testing.T) {
	mt, pd := universeFiles(t, nil)
	ids := mt.Column("id")
	ids.Codes[1] = ids.Codes[0] // row 2 repeats row 1's id
	in := testInput(mt, pd, joinQIs, "occupation", nil)
	r, err := runOn(in, MondrianDirect, 20)
	if err != nil {
		t.Fatalf("a column with a repeated value is proposed: %v", err)
	}
	if r.t.joined != 0 || r.t.qiPaired != 600 {
		t.Errorf("joined %d, paired %d; want 0 and the 600 microdata people's public rows", r.t.joined, r.t.qiPaired)
	}
}
