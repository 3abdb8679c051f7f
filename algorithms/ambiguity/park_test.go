package ambiguity

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
)

// smallInput loads rows "q1,q2,s" with the roles QIs q1, q2 and SA s.
func smallInput(t *testing.T, rows string, alpha, beta string) *method.Input {
	t.Helper()
	tb, err := csvfile.Load(strings.NewReader("q1,q2,s\n"+rows), csvfile.LoadOptions{Name: "small"})
	if err != nil {
		t.Fatal(err)
	}
	return &method.Input{Table: tb, Roles: model.Roles{QIs: []string{"q1", "q2"}, SA: "s"},
		Values: model.Values{"alpha": alpha, "beta": beta, "seed": "1"}}
}

// groupsOf lists every group's rows as "r0 r1 ...".
func groupsOf(res *method.Result) []string {
	var out []string
	for _, g := range res.Groups {
		var rows []string
		for _, r := range g.Rows {
			rows = append(rows, fmt.Sprint("r", r))
		}
		out = append(out, strings.Join(rows, " "))
	}
	return out
}

// TestParkAndContinue follows Step 2 by hand where its first group
// cannot reach alpha (alpha = beta = 0.5, groups start with 2 records):
//
//	r0 (1,x,a)  r1 (1,x,b)  r2 (1,y,b)  r3 (2,y,a)
//
// Buckets a = {r0, r3}, b = {r1, r2}. Group 1 starts with r0 (head of
// a); from b, r2 is new on q2 only: presence 2/(1*2) = 1 > 0.5 with
// every non-empty bucket used. Stopping there (the old reading) leaves
// no group at all, so every record would be suppressed. Parking r0 and
// going on: b is now the largest bucket, its head r1 (1,x) takes r3
// (2,y), new on both: 2/(2*2) = 1/2, a group. Step 2 ends (only b is
// non-empty); Step 3 has r2 (b) and the parked r0 (a), both of which the
// group already holds: 2 suppressed.
func TestParkAndContinue(t *testing.T) {
	in := smallInput(t, "1,x,a\n1,x,b\n1,y,b\n2,y,a\n", "0.5", "0.5")
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(groupsOf(res), " | "); got != "r1 r3" {
		t.Errorf("groups %s, want r1 r3", got)
	}
	if res.Groups[0].Figures[FigPresence] != 0.5 || res.Suppressed != 2 || res.Published != 2 {
		t.Errorf("presence %v, %d suppressed, %d published; want 1/2, 2, 2", res.Groups[0].Figures[FigPresence], res.Suppressed, res.Published)
	}
	notes := strings.Join(res.Notes, "\n")
	if !strings.Contains(notes, "Step 2 gave up on 1 groups") || !strings.Contains(notes, "Step 2 built 1 groups, Step 3 placed 0 residues, 2 records suppressed") {
		t.Errorf("notes %s", notes)
	}
	// Half the records are suppressed: the result warns.
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "50% of the records are suppressed (2 of 4)") {
		t.Errorf("warnings %q", res.Warnings)
	}
	checkGroups(t, in, res)
}

// TestParkedSeedIsAResidue: a parked seed goes to Step 3 like any
// residue and joins a group that lacks its sensitive value (alpha = beta
// = 0.5):
//
//	r0 (2,z,c)  r1 (1,z,c)  r2 (1,y,b)  r3 (1,z,a)  r4 (3,y,a)
//
// Buckets, largest first: c = {r0, r1}, a = {r3, r4}, b = {r2}. Group 1:
// r0, then r4 from a (new on both): 2/(2*2) = 1/2. Next, r1 (1,z) takes
// r3 (1,z): 2/1, then r2 (1,y): 3/(1*2), with every bucket used: r1 is
// parked. Then r2 (head of b, now the largest) takes r3: 2/(1*2) = 1,
// with every bucket used: r2 is parked, and Step 2 ends (only a is
// non-empty). Step 3: r3 (a) finds no group without a; the parked r2 (b)
// joins group 1: 3/(3*2) = 1/2; the parked r1 (c) finds no group
// without c. Group {r0, r4, r2}, 2 suppressed.
func TestParkedSeedIsAResidue(t *testing.T) {
	in := smallInput(t, "2,z,c\n1,z,c\n1,y,b\n1,z,a\n3,y,a\n", "0.5", "0.5")
	res, err := Method{}.Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(groupsOf(res), " | "); got != "r0 r4 r2" {
		t.Errorf("groups %s, want r0 r4 r2", got)
	}
	notes := strings.Join(res.Notes, "\n")
	if res.Suppressed != 2 || !strings.Contains(notes, "Step 2 gave up on 2 groups") || !strings.Contains(notes, "Step 3 placed 1 residues") {
		t.Errorf("%d suppressed, notes %s", res.Suppressed, notes)
	}
	if res.Groups[0].Figures[FigPresence] != 0.5 {
		t.Errorf("presence %v, want 1/2", res.Groups[0].Figures[FigPresence])
	}
	checkGroups(t, in, res)
}
