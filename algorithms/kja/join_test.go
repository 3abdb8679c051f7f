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
	mt, err := model.LoadFile(filepath.Join(dir, "mt.csv"), model.LoadOptions{})
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
	pd, err = model.LoadFile(pdPath, model.LoadOptions{})
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

// sharedQITuples counts MT rows whose QI values some PD row has too.
func sharedQITuples(mt, pd *model.Table, qis []string) int {
	key := func(t *model.Table, r int) string {
		var parts []string
		for _, q := range qis {
			parts = append(parts, t.Column(q).Value(r))
		}
		return strings.Join(parts, "|")
	}
	inPD := map[string]bool{}
	for r := 0; r < pd.Rows; r++ {
		inPD[key(pd, r)] = true
	}
	n := 0
	for r := 0; r < mt.Rows; r++ {
		if inPD[key(mt, r)] {
			n++
		}
	}
	return n
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
		if !strings.Contains(pe.Reason, want) || !strings.Contains(pe.Hint, "--id id") || !strings.Contains(pe.Hint, "rename") {
			t.Fatalf("%s: %q / %q, want %q, --id id and rename", v, pe.Reason, pe.Hint, want)
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

// TestUnjoinedPublicWarns: a PD holding MT's people under another id
// column cannot be joined; the share of MT tuples whose QI tuple PD holds
// too (counted here from the raw tables) raises a warning from 50% on. PD
// of other people only shares few QI tuples, and a column both tables
// hold that many people share (rent, sex) is no identifier: no refusal,
// no warning.
func TestUnjoinedPublicWarns(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func([]string, map[string]bool) []string
		warn bool
	}{
		{"same people, id renamed", renameID, true},
		{"other people", othersOnly, false},
	} {
		mt, pd := universeFiles(t, tc.edit)
		if tc.name == "other people" && commonValues(mt, pd, "id") != 0 {
			t.Fatalf("%s: PD shares ids with MT", tc.name)
		}
		in := testInput(mt, pd, joinQIs, "occupation", nil)
		shared := sharedQITuples(mt, pd, joinQIs)
		if got := shared*2 >= mt.Rows; got != tc.warn {
			t.Fatalf("%s: %d of %d MT tuples shared: the case does not test what it says", tc.name, shared, mt.Rows)
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
			want := tc.warn && v != MondrianPlain
			if want {
				if r.t.qiShared != shared || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], fmt.Sprintf("%d of the %d microdata tuples", shared, mt.Rows)) {
					t.Fatalf("%s, %s: counted %d, warnings %q; want %d shared and one warning", tc.name, v, r.t.qiShared, res.Warnings, shared)
				}
			} else if len(res.Warnings) != 0 {
				t.Fatalf("%s, %s: warnings %q", tc.name, v, res.Warnings)
			}
		}
	}
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
		if want := ncp(r, jtLo, jtHi); math.Abs(res.Utility.Value-want) > 1e-6*want {
			t.Fatalf("%s: NCP %v, want %v", v, res.Utility.Value, want)
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
