package advisor

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"privlab/algorithms/advise"
	"privlab/algorithms/pipeline"
	"privlab/ui/common"
)

// Pane is the Advisor pane as the workbench shows it (common.Pane): the
// Model over the workbench's session. It gives the Model a Run of the
// session's current table and settings, marks the map stale when the
// settings it read change (QIs, sensitive attribute, hierarchies,
// population: pipeline.AdvisorMap.Stale), keeps a finished map in the
// project (the project file saves it, the export draws it) and applies
// an adopted point to the project.
type Pane struct {
	st *common.State
	m  Model
	// computing is the project a computation under way reads: its map
	// is saved with this project's digest.
	computing pipeline.Project
	running   bool
	// partial says the points shown are a cancelled or failed
	// computation's, of computing's settings, not the saved map's.
	partial bool
	// shown is the saved map the pane shows (a project opened with one).
	shown *pipeline.AdvisorMap
}

// NewPane is the Advisor pane over the workbench's state; its keys and
// styles come from the workbench's key map and style sheet.
func NewPane(st *common.State) *Pane {
	p := &Pane{st: st, m: New(nil, StylesFrom(st.Styles))}
	p.m.SetKeys(KeysFrom(st.Keys))
	p.Refresh()
	return p
}

// KeysFrom are the pane's keys as the workbench binds them: its arrows
// move along the front, enter adopts, its map key computes, its back
// key cancels. A rebinding in the workbench's key map shows here too.
func KeysFrom(k common.KeyMap) KeyMap {
	join := func(a, b key.Binding, help string) key.Binding {
		keys := append(append([]string(nil), a.Keys()...), b.Keys()...)
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(a.Help().Key+"/"+b.Help().Key, help))
	}
	return KeyMap{
		Prev:      join(k.Left, k.Up, "lower risk"),
		Next:      join(k.Right, k.Down, "lower loss"),
		Adopt:     key.NewBinding(key.WithKeys(k.Enter.Keys()...), key.WithHelp(k.Enter.Help().Key, "adopt point")),
		Recompute: k.ComputeMap,
		Cancel:    key.NewBinding(key.WithKeys(k.Back.Keys()...), key.WithHelp(k.Back.Help().Key, "cancel")),
	}
}

// followKeys takes the workbench's key map as it is now (it may be
// rebound after the pane was made).
func (p *Pane) followKeys() { p.m.SetKeys(KeysFrom(p.st.Keys)) }

// StylesFrom fills the pane's styles from the workbench's style sheet.
func StylesFrom(s *common.Styles) Styles {
	return Styles{Title: s.Title, Muted: s.Muted, Front: s.Label, Selected: s.Selected, Current: s.OK,
		Stale: s.Warn, Error: s.Error, Methods: []lipgloss.Style{s.Bars[0], s.Bars[1], s.Bars[2], s.Attack, s.Value}}
}

func (p *Pane) Title() string            { return "Advisor" }
func (p *Pane) Capturing() bool          { return false }
func (p *Pane) SetSize(w, h int)         { p.m.SetSize(w, h); p.followKeys() }
func (p *Pane) View() string             { return p.m.View() }
func (p *Pane) ShortHelp() []key.Binding { p.followKeys(); return p.m.ShortHelp() }
func (p *Pane) FullHelp() []key.Binding {
	p.followKeys()
	var out []key.Binding
	for _, col := range p.m.FullHelp() {
		out = append(out, col...)
	}
	return out
}

// Refresh follows the session: the Run reads its current table and
// settings, the current settings are marked on the map, a saved map is
// shown (once), and a map computed for other settings is marked stale.
func (p *Pane) Refresh() {
	st := p.st
	if st.Table != nil {
		p.m.SetRun(EvaluateRun(st.Env, st.Project, st.Table, nil, advise.Options{Risk: p.risk()}))
	} else {
		p.m.SetRun(nil)
	}
	variant, _ := st.Variant()
	p.m.SetCurrent(st.Project.Method, variant, st.Project.Params)
	saved := st.Project.Advisor
	if saved == nil && p.shown != nil && !p.running {
		// Another project or table: its map (none) is shown.
		p.shown, p.partial = nil, false
		p.m.SetMap(nil, -1, false)
		return
	}
	if saved != nil && saved != p.shown && !p.running {
		p.shown, p.partial = saved, false
		points, adopted := advise.SavedPoints(saved)
		p.m.SetMap(points, adopted, saved.Stale(st.Project))
		return
	}
	stale := saved != nil && saved.Stale(st.Project)
	if p.partial {
		// The points shown are of the settings the computation read.
		stale = p.computing.AdvisorDigest() != st.Project.AdvisorDigest()
	}
	if stale && !p.m.Stale() && !p.running {
		p.m.MarkStale()
	}
}

// risk is the measure the map is judged by: the saved map's, else the
// worst attack.
func (p *Pane) risk() string {
	if m := p.st.Project.Advisor; m != nil && m.Risk != "" {
		return m.Risk
	}
	return advise.RiskWorst
}

// Update hands the Model its keys and messages, notes when a
// computation starts and ends (a finished map goes into the project)
// and applies an adopted point.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if a, ok := msg.(AdoptMsg); ok {
		p.adopt(a)
		return nil
	}
	p.followKeys()
	was := p.m.Running()
	if was && !p.running {
		p.running = true
	}
	var cmd tea.Cmd
	p.m, cmd = p.m.Update(msg)
	now := p.m.Running()
	switch {
	case !was && now:
		p.running, p.computing = true, p.st.Project.Clone()
	case was && !now:
		p.running = false
		p.keep()
	}
	return cmd
}

// keep saves a finished map in the project, with the digest of the
// settings it was computed for.
func (p *Pane) keep() {
	points, complete := p.m.Points()
	if !complete {
		p.partial = true
		return // cancelled or failed: the project keeps the map it had
	}
	m := advise.SavedMap(p.computing, p.risk(), points, p.m.Adopted())
	p.shown, p.partial = m, false
	p.st.KeepAdvisorMap(m)
	if m.Stale(p.st.Project) {
		p.m.MarkStale() // the settings changed while it ran
	}
}

// adopt sets the project's method, variant and parameters to the
// adopted point's (the project's seed stays).
func (p *Pane) adopt(a AdoptMsg) {
	p.st.AdoptPoint(a.Method, a.Variant, a.Values, p.m.Adopted())
	p.shown = p.st.Project.Advisor
}
