package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/model"
)

// received is a release someone handed over, opened in the workbench
// (privlab DIR, or a directory picked with ctrl+o): its manifest, the
// independent check of its files (against the original when one is
// loaded), its groups as its files hold them, and an answerer for the
// Query pane.
type received struct {
	Dir      string
	Manifest *model.Manifest
	Answerer method.Answerer
	Check    []string
	CheckOK  bool
	CheckErr error
	// Groups counts the rows of every file per group id (the first column
	// named GroupID, ClassID or SG).
	Groups []receivedGroup
	Files  []string // files with a group column, in manifest order
}

type receivedGroup struct {
	ID   string
	Rows []int // per Files entry
}

type openReleaseMsg struct{ dir string }

type releaseOpenedMsg struct {
	rel *received
	err error
}

// openReleaseCmd reads and checks a release in the background.
func openReleaseCmd(dir string, original *model.Table) tea.Cmd {
	return guarded(func() tea.Msg {
		ans, man, err := pipeline.OpenRelease(dir)
		if err != nil {
			return releaseOpenedMsg{err: err}
		}
		r := &received{Dir: dir, Manifest: man, Answerer: ans}
		rep, err := pipeline.Check(dir, original, nil)
		if err != nil {
			r.CheckErr = err
		} else {
			r.Check, r.CheckOK = rep.Strings(), rep.OK()
		}
		r.Groups, r.Files = groupsOf(dir, man)
		return releaseOpenedMsg{rel: r}
	}, func(err error) tea.Msg { return releaseOpenedMsg{err: err} })
}

// groupsOf counts each listed CSV file's rows per group id.
func groupsOf(dir string, man *model.Manifest) ([]receivedGroup, []string) {
	index := map[string]int{}
	var groups []receivedGroup
	var files []string
	for _, f := range man.Files {
		if !strings.HasSuffix(f.Name, ".csv") || filepath.Base(f.Name) != f.Name {
			continue
		}
		t, err := model.LoadFile(filepath.Join(dir, f.Name), model.LoadOptions{Delimiter: ',', MissingTokens: []string{}})
		if err != nil {
			continue
		}
		var col *model.Column
		for _, name := range []string{"GroupID", "ClassID", "SG"} {
			if col = t.Column(name); col != nil {
				break
			}
		}
		if col == nil {
			continue
		}
		fi := len(files)
		files = append(files, f.Name)
		for r := 0; r < t.Rows; r++ {
			id := col.Value(r)
			g, ok := index[id]
			if !ok {
				g = len(groups)
				index[id] = g
				groups = append(groups, receivedGroup{ID: id})
			}
			for len(groups[g].Rows) <= fi {
				groups[g].Rows = append(groups[g].Rows, 0)
			}
			groups[g].Rows[fi]++
		}
	}
	for i := range groups {
		for len(groups[i].Rows) < len(files) {
			groups[i].Rows = append(groups[i].Rows, 0)
		}
	}
	sort.SliceStable(groups, func(a, b int) bool {
		x, okX := model.ParseNumber(groups[a].ID)
		y, okY := model.ParseNumber(groups[b].ID)
		if okX && okY {
			return x < y
		}
		return groups[a].ID < groups[b].ID
	})
	return groups, files
}

// releasePane shows a received release.
type releasePane struct {
	st     *State
	offset int
}

func newReleasePane(st *State) *releasePane { return &releasePane{st: st} }

func (p *releasePane) title() string   { return "Release" }
func (p *releasePane) capturing() bool { return false }
func (p *releasePane) refresh()        {}

func (p *releasePane) shortHelp() []key.Binding {
	k := p.st.Keys
	return []key.Binding{k.Up, k.Down}
}

func (p *releasePane) fullHelp() []key.Binding { return p.shortHelp() }

func (p *releasePane) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	r := p.st.Received
	if !ok || r == nil {
		return nil
	}
	switch {
	case key.Matches(k, p.st.Keys.Up):
		if p.offset > 0 {
			p.offset--
		}
	case key.Matches(k, p.st.Keys.Down):
		if p.offset < len(r.Groups)-1 {
			p.offset++
		}
	}
	return nil
}

func (p *releasePane) view(w, h int) string {
	st, s := p.st, p.st.Styles
	r := st.Received
	if r == nil {
		if st.ReceivedErr != nil {
			return s.Error.Render(wrap(st.ReceivedErr.Error(), w))
		}
		return s.Muted.Render("reading the release …")
	}
	m := r.Manifest
	var b strings.Builder
	b.WriteString(s.Title.Render(fit(fmt.Sprintf("Release %s · %s (%s)", r.Dir, m.Method, m.Paper), w)) + "\n")
	var params []string
	for _, k := range sortedParamKeys(m.Parameters) {
		params = append(params, k+"="+m.Parameters[k])
	}
	b.WriteString(fit(fmt.Sprintf("QIs %s · SA %s · %d records in, %d published, %d suppressed · %d groups · %s",
		strings.Join(m.QIs, ","), orNone(m.SA), m.RowsIn, m.Published, m.Suppressed, m.Groups, strings.Join(params, " ")), w) + "\n")
	switch {
	case r.CheckErr != nil:
		b.WriteString(s.Error.Render(wrap("✗ the release cannot be checked: "+r.CheckErr.Error(), w)) + "\n")
	case r.CheckOK:
		against := "from its files alone"
		if st.Table != nil {
			against = "against " + st.Table.Name
		}
		b.WriteString(s.OK.Render(fit("✓ the release passes every check "+against+" ("+fmt.Sprint(len(r.Check))+" lines)", w)) + "\n")
	default:
		b.WriteString(s.Error.Render(fit("✗ the release FAILS its check:", w)) + "\n")
	}
	for _, l := range r.Check {
		if strings.HasPrefix(l, "FAIL") {
			b.WriteString(s.Error.Render(fit("  "+l, w)) + "\n")
		}
	}
	if m.Certifies != "" {
		b.WriteString(s.Muted.Render(wrap("A passing check certifies that "+m.Certifies+".", w)) + "\n")
	}
	b.WriteString("\n")
	if len(r.Files) == 0 {
		b.WriteString(s.Muted.Render("no file of this release names a group") + "\n")
		return b.String()
	}
	hdr := fmt.Sprintf("%-10s", "group")
	for _, f := range r.Files {
		hdr += fmt.Sprintf(" %14s", clip(f, 14))
	}
	b.WriteString(s.Label.Render(fit(hdr, w)) + "\n")
	rows := h - strings.Count(b.String(), "\n") - 1
	for i := p.offset; i < len(r.Groups) && i < p.offset+rows; i++ {
		g := r.Groups[i]
		line := fmt.Sprintf("%-10s", clip(g.ID, 10))
		for _, n := range g.Rows {
			line += fmt.Sprintf(" %14s", thousands(n))
		}
		b.WriteString(fit(line, w) + "\n")
	}
	return b.String()
}

func sortedParamKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// isRelease reports whether dir is a release directory.
func isRelease(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "manifest.json"))
	return err == nil && !st.IsDir()
}

// originalFor is the loaded table as the received release's check and
// queries compare with: rows the release's missing-value policy leaves out
// are left out (nil without a table).
func (st *State) originalFor() *model.Table {
	return st.Table
}

// truthFor is the original for a received release's query answers: the
// rows its missing-value policy publishes.
func (st *State) truthFor() *model.Table {
	r := st.Received
	if st.Table == nil || r == nil {
		return nil
	}
	policy, _ := model.ParseMissingPolicy(r.Manifest.MissingValues)
	roles := model.Roles{QIs: r.Manifest.QIs, SA: r.Manifest.SA}
	if _, err := st.Table.MustColumns("original", roles.Used()); err != nil {
		return nil
	}
	t, _ := st.Table.HandleMissing(roles.Used(), policy)
	return t
}
