package ambiguity

import (
	"context"
	"errors"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
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
		tb, err := model.Load(strings.NewReader(header+"\n1,2,3\n4,5,6\n"), model.LoadOptions{})
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
