package ambiguity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
)

func TestCancelled(t *testing.T) {
	in := censusInput(t, 3000)
	in.Values = model.Values{"alpha": "0.5", "beta": "0.25"}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Method{}).Run(ctx, in); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled run returns %v", err)
	}
}

func TestProgress(t *testing.T) {
	in := censusInput(t, 3000)
	in.Values = model.Values{"alpha": "0.5", "beta": "0.25"}
	last := -1.0
	in.Progress = func(x float64) {
		if x < last || x > 1 {
			t.Errorf("progress %v after %v", x, last)
		}
		last = x
	}
	if _, err := (Method{}).Run(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if last <= 0 {
		t.Errorf("no progress reported")
	}
	in.Progress = nil
}

// TestNames: names the release files need are refused, and every QI gets
// its own plain file name.
func TestNames(t *testing.T) {
	load := func(header string) *model.Table {
		tb, err := csvfile.Load(strings.NewReader(header+"\n1,2,3\n4,5,6\n"), csvfile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	for _, c := range []struct {
		header string
		roles  model.Roles
		param  string
	}{
		{"GroupID,b,s", model.Roles{QIs: []string{"GroupID", "b"}, SA: "s"}, "qi"},
		{"a,b,Frequency", model.Roles{QIs: []string{"a", "b"}, SA: "Frequency"}, "sa"},
		{"a,b,GroupID", model.Roles{QIs: []string{"a", "b"}, SA: "GroupID"}, "sa"},
		{"a,b,s", model.Roles{SA: "s"}, "qi"},
		{"a,b,s", model.Roles{QIs: []string{"a"}, SA: "x"}, "sa"},
	} {
		in := &method.Input{Table: load(c.header), Roles: c.roles, Values: model.Values{"alpha": "1", "beta": "1"}}
		_, err := (Method{}).Run(context.Background(), in)
		var pe *model.ParamError
		if !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("%s %+v: %v, want a ParamError on %s", c.header, c.roles, err, c.param)
		}
	}
	got := atFileNames([]string{"a/b", "a_b", "zip code", "st", "ünï"})
	want := []string{"at_a_b.csv", "at_a_b_2.csv", "at_zip_code.csv", "at_st.csv", "at__n_.csv"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("file names %v, want %v", got, want)
	}
}

// TestSeedNumbersGroups: with a fixed seed the preview shows the GroupIDs
// the release will carry.
func TestSeedNumbersGroups(t *testing.T) {
	in := censusInput(t, 3000)
	in.Values = model.Values{"alpha": "0.5", "beta": "0.25", "seed": "11"}
	res, err := (Method{}).Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	rel, rows, err := res.Release(11)
	if err != nil {
		t.Fatal(err)
	}
	// The audit's group map lists group 1's rows first: they are the
	// preview's group with ID 1.
	var g1 []int32
	for _, g := range res.Groups {
		if g.ID == 1 {
			g1 = g.Rows
		}
	}
	set := map[int]bool{}
	for _, r := range g1 {
		set[int(r)] = true
	}
	for _, r := range rows[auditGroups][:len(g1)] {
		if !set[r] {
			t.Fatalf("group 1 of the release is not the preview's group 1")
		}
	}
	if len(rel.Files) != 5 {
		t.Errorf("%d files", len(rel.Files))
	}
}

// TestPresenceChart: the bars are upper-inclusive, as their "<=" labels
// say. Algorithm 2 on Figure 1(a) at alpha = beta = 0.5 gives presences
// 1/6, 1/4 and 1/2 (TestAlgorithm2Trace): 1/6 is in "<=0.2", 1/4 exactly
// on the bound of "<=0.25" (not in "<=0.3"), 1/2 = alpha in the last bar.
func TestPresenceChart(t *testing.T) {
	for _, c := range []struct {
		p, alpha float64
		bin      int
	}{{0.25, 0.5, 4}, {0.05, 0.5, 0}, {0.0500001, 0.5, 1}, {0.5, 0.5, 9}, {0.3, 1, 2}, {0.3000001, 1, 3}, {0, 0.5, 0}, {0.7, 0.5, 9}, {0.1, 0.2, 4}} {
		if b := presenceBin(c.p, c.alpha); b != c.bin {
			t.Errorf("presence %v at alpha %v: bar %d, want %d", c.p, c.alpha, b, c.bin)
		}
	}
	in := &method.Input{Table: patients(t), Roles: patientRoles, Values: model.Values{"alpha": "0.5", "beta": "0.5"}}
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	pres := res.Charts()[0]
	want := []float64{0, 0, 0, 1, 1, 0, 0, 0, 0, 1}
	if fmt.Sprint(pres.Series[0].Values) != fmt.Sprint(want) || pres.Labels[3] != "<=0.2" || pres.Labels[4] != "<=0.25" || pres.Labels[9] != "<=0.5" {
		t.Errorf("bars %v labelled %v, want %v", pres.Series[0].Values, pres.Labels, want)
	}
}

// TestInfeasibleAlphaHint: with sex alone (2 values) and groups of
// ceil(1/0.25) = 4 records, a group's join has at most 2 combinations,
// so presence is at least 4/2 = 2: no alpha in (0,1] helps, and the hint
// says to add quasi-identifiers or raise beta (groups of 2 reach 2/2 = 1)
// instead of "raise alpha to 2". Within (0,1] the hint names the alpha.
func TestInfeasibleAlphaHint(t *testing.T) {
	in := censusInput(t, 3000)
	in.Roles.QIs = []string{"sex"}
	in.Values = model.Values{"alpha": "0.5", "beta": "0.25"}
	_, err := (Method{}).Run(context.Background(), in)
	var pe *model.ParamError
	if !errors.As(err, &pe) || pe.Param != "alpha" {
		t.Fatalf("%v, want a ParamError on alpha", err)
	}
	if !strings.Contains(pe.Reason, "lowest possible presence is 2 (4 records), above 1: no alpha in (0,1] can be met") ||
		strings.Contains(pe.Hint, "raise alpha") ||
		pe.Hint != "add quasi-identifiers with more distinct values, or raise beta to 1/2 = 0.5, where groups of 2 records can reach presence 1 (with alpha >= 1)" {
		t.Errorf("reason %q, hint %q", pe.Reason, pe.Hint)
	}
	in.Roles.QIs = []string{"sex", "race"}
	in.Values = model.Values{"alpha": "0.5", "beta": "0.1"}
	_, err = (Method{}).Run(context.Background(), in)
	if !errors.As(err, &pe) || pe.Param != "alpha" || !strings.HasPrefix(pe.Hint, "raise alpha to at least 1,") {
		t.Errorf("sex, race at beta 0.1: %v", err)
	}
}
