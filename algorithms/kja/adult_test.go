package kja

import (
	"context"
	"strings"
	"testing"

	"privlab/algorithms/verify"
	"privlab/model"
)

// TestAdultMondrian runs plain Mondrian on Adult (30,162 rows, 8 QIs,
// categorical ones in ARX hierarchy order), k = 10, under both split
// rules, and checks the release. Its NCP is the figure users compare with
// other tools: the test logs it (NCP summed over the records, and per
// record and QI, which tools report as a percentage).
func TestAdultMondrian(t *testing.T) {
	in := adultInput(t)
	if in.Table.Rows != 30162 {
		t.Fatalf("%d rows, want 30,162", in.Table.Rows)
	}
	ncp := map[string]float64{}
	for _, split := range []string{SplitWidest, SplitRoundRobin} {
		in.Variant, in.Values = MondrianPlain, model.Values{"k": "10", "split": split, "seed": "1"}
		r, err := newRun(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		m := r.metrics()
		ncp[split] = m.NCP
		minSize := len(r.boxes[0].tuples)
		for _, b := range r.boxes {
			minSize = min(minSize, len(b.tuples))
		}
		t.Logf("Adult, Mondrian (%s), k = 10: %d groups (smallest %d), NCP %.1f, NCP per record and QI %.4f (%.2f%%), DM %.0f",
			split, len(r.boxes), minSize, m.NCP, m.GCP, 100*m.GCP, m.DM)
		if minSize < 10 {
			t.Fatalf("a group of %d", minSize)
		}
		dir, audit := exportRelease(t, r, 1)
		rep, err := checkRelease(dir, verify.Options{Original: in.Table, Audit: audit})
		if err != nil || !rep.OK() {
			t.Fatalf("%v\n%s", err, strings.Join(rep.Strings(), "\n"))
		}
	}
	if ncp[SplitWidest] > ncp[SplitRoundRobin] {
		t.Errorf("the widest rule (NCP %.1f) does worse than round-robin (%.1f) on Adult", ncp[SplitWidest], ncp[SplitRoundRobin])
	}
}

// TestAdultStudy is the paper's study on Adult (no public table: MT and PD
// are drawn from Adult itself, JT = PD), with the default grid.
func TestAdultStudy(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the study takes a few seconds")
	}
	in := adultInput(t)
	secs, err := Study(context.Background(), in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range secs {
		b.WriteString("\n" + s.Title + "\n")
		for _, n := range s.Notes {
			b.WriteString("  " + n + "\n")
		}
		if len(s.Header) > 0 {
			b.WriteString("  " + strings.Join(s.Header, "\t") + "\n")
		}
		for _, r := range s.Rows {
			b.WriteString("  " + strings.Join(r, "\t") + "\n")
		}
	}
	t.Log(b.String())
	if len(secs) < 10 {
		t.Fatalf("%d sections", len(secs))
	}
}
