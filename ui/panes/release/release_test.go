package release

// Golden screens of the pane alone at 80x24 and 120x34 with the ASCII
// colour profile. Regenerate with: go test ./ui/panes/release -update

import (
	"context"
	"strings"
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/ui/common"
	"privlab/ui/panes/panetest"
	"privlab/ui/session"
)

// received is the census dataset's release under distribution with a
// fixed seed, exported to ./out in a fresh folder and read back against
// its input, as the workbench receives it.
func received(t *testing.T) *common.State {
	t.Helper()
	t.Chdir(t.TempDir())
	st := panetest.State(t, "dataset:census", "distribution")
	st.Project.Params["seed"] = "7"
	prep, err := st.Env.Prepare(st.Project, st.Table)
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Export(prep, res, "out", pipeline.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	ans, man, err := pipeline.OpenRelease("out")
	if err != nil {
		t.Fatal(err)
	}
	st.ReceivedDir = "out"
	st.Received = session.ReadReceived("out", man, ans, st.Table, nil, "against its input")
	return st
}

// TestGoldenSizes: the release's summary, check and classes, then the
// whole check report (c), at both sizes.
func TestGoldenSizes(t *testing.T) {
	for _, size := range panetest.Sizes {
		t.Run(size.Name, func(t *testing.T) {
			p := New(received(t))
			p.Refresh()
			p.SetSize(size.W, size.H)
			panetest.Golden(t, "release_"+size.Name, p.View())
			p.Update(panetest.Runes("c"))
			panetest.Golden(t, "report_"+size.Name, p.View())
		})
	}
}

// TestReadingSaysSo: before the release is read the pane says it is
// being read; a release that cannot be read shows why.
func TestReadingSaysSo(t *testing.T) {
	st := panetest.State(t, "dataset:census", "distribution")
	p := New(st)
	p.SetSize(80, 24)
	if got := p.View(); got != "reading the release …" {
		t.Errorf("view %q", got)
	}
	if _, _, err := pipeline.OpenRelease(t.TempDir()); err != nil {
		st.ReceivedErr = err
	}
	if got := p.View(); st.ReceivedErr == nil || strings.Contains(got, "reading") {
		t.Errorf("an unreadable release shows %q", got)
	}
}
