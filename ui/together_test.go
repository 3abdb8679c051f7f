package ui

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
)

// TestExportAttacksTogether: the project lists the releases exported
// from its input; the Export plan of the next release shows it attacked
// together with them, the figures privlab attack DIR1 DIR2 prints once
// it is exported, and leaves out an earlier release the same settings
// made (with itself a release would confirm its own beliefs).
func TestExportAttacksTogether(t *testing.T) {
	inDir(t, t.TempDir(), func() {
		a := ready(t, "dataset:employees", 160, 60)
		press(t, a, "7", "enter")
		settle(t, a, nil)
		cwd, _ := os.Getwd()
		first := filepath.Join(cwd, "release-employees-distribution") // in the working directory: no project file
		if want := []pipeline.ExportedRelease{{Dir: first, Input: "dataset:employees"}}; !slices.Equal(a.st.Project.Exported, want) {
			t.Fatalf("the project lists %v as exported, want %v", a.st.Project.Exported, want)
		}
		if a.st.Together != nil || strings.Contains(a.View(), "together with") {
			t.Fatalf("a first release is attacked together with %+v:\n%s", a.st.Together, a.View())
		}
		a.st.Project.Params["grouping"] = "level:zipcode=2"
		a.st.Changed()
		settle(t, a, a.schedule())
		tg := a.st.Together
		if tg == nil || a.st.TogetherErr != nil || tg.Earlier != 1 || len(tg.Skipped) != 0 {
			t.Fatalf("together %+v, error %v", tg, a.st.TogetherErr)
		}
		// Distribution's two groupings each give salary a belief of at
		// most the target's 0.25, a bound that is each release's own P'
		// and so bounds nothing; together 6/19 for some people, and the 9
		// people unique on their zip code and gender in both are singled
		// out.
		want := "together with 1 earlier release: 9 people singled out"
		if view := a.View(); !strings.Contains(view, want) {
			t.Fatalf("the plan does not say %q:\n%s", want, view)
		}
		if f := tg.Findings[1]; f.Measured != 6.0/19 || !math.IsNaN(f.Bound) || f.Holds() != -1 {
			t.Fatalf("inference together %+v", f)
		}
		press(t, a, "e", "ctrl+u", "second", "enter", "enter")
		settle(t, a, nil)
		k := &risk.Knowledge{Original: a.st.Prep.Source}
		_, cli, err := pipeline.AttackTogether([]string{filepath.Join(cwd, "second"), first}, k)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range cli {
			g := tg.Findings[i]
			if f.Attack != g.Attack || fmt.Sprint(f.Measured) != fmt.Sprint(g.Measured) || f.Records != g.Records || f.Verdict() != g.Verdict() {
				t.Errorf("the plan showed %s %v on %d (%s), privlab attack gives %v on %d (%s)", g.Attack, g.Measured, g.Records, g.Verdict(), f.Measured, f.Records, f.Verdict())
			}
		}
		delete(a.st.Project.Params, "grouping")
		a.st.Changed()
		settle(t, a, a.schedule())
		// Back to the first release's settings: that release is left out,
		// the second is attacked with it.
		tg = a.st.Together
		skipped := []string{first + " (made with this release's settings: the same release)"}
		if tg == nil || tg.Earlier != 1 || !slices.Equal(tg.Skipped, skipped) || tg.Findings[1].Measured != 6.0/19 {
			t.Fatalf("together %+v, want 1 earlier release and %v left out", tg, skipped)
		}
		if !strings.Contains(a.View(), "left out: "+first) {
			t.Fatalf("the plan does not say which release it left out:\n%s", a.View())
		}
	})
}
