// Package query is the Query pane: queries in the SPEC Section 4
// language answered on the original table and on the release (or a
// received release's files), with the true answer, the release's bounds
// or estimate and the relative error; up/down recall earlier queries.
package query

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/model"
	mquery "privlab/model/query"
	"privlab/ui/common"
)

// Model answers queries in the SPEC Section 4 language on the
// original table and on the release: true answer, bounds or estimate,
// relative error. Up/down recall earlier queries.
type Model struct {
	st      *common.State
	w, h    int // the pane's size (SetSize)
	input   textinput.Model
	history []string
	hpos    int
	answers []queryAnswer
	seq     int
	busy    bool
}

type queryAnswer struct {
	text string
	res  *pipeline.QueryResult
	err  error
	of   *method.Result // the release it was answered on
}

// AnswerMsg is a query answered in the background.
type AnswerMsg struct {
	seq  int
	text string
	res  *pipeline.QueryResult
	err  error
	of   *method.Result
}

// New is the pane over the workbench's state.
func New(st *common.State) *Model {
	in := textinput.New()
	in.Prompt = "query> "
	in.Placeholder = "AVG(salary) WHERE gender = 'F'"
	in.Width = 70
	return &Model{st: st, input: in}
}

func (p *Model) Title() string   { return "Query" }
func (p *Model) Capturing() bool { return p.input.Focused() }
func (p *Model) Refresh()        {}

func (p *Model) ShortHelp() []key.Binding {
	k := p.st.Keys
	if p.input.Focused() {
		return []key.Binding{k.Run, k.History, k.Example, common.Described(k.Back, common.KeyName(k.Back), "leave the input")}
	}
	return []key.Binding{k.TypeQuery}
}

func (p *Model) FullHelp() []key.Binding { return p.ShortHelp() }

// example suggests a query for the current roles.
func (p *Model) example() string {
	r := p.st.Project.Roles
	if r.SA == "" || len(r.QIs) == 0 || p.st.Table == nil {
		return "COUNT(*)"
	}
	agg := "COUNT(*)"
	if c := p.st.Table.Column(r.SA); c != nil && c.Kind == model.Numeric {
		agg = "AVG(" + quoteIdent(r.SA) + ")"
	}
	for _, q := range r.QIs {
		c := p.st.Table.Column(q)
		if c != nil && c.Kind == model.Numeric {
			lo, hi, _ := c.Range()
			a := lo + (hi-lo)/4
			b := lo + (hi-lo)/2
			return fmt.Sprintf("%s WHERE %s BETWEEN %s AND %s", agg, quoteIdent(q), model.FormatNumber(math.Round(a)), model.FormatNumber(math.Round(b)))
		}
	}
	c := p.st.Table.Column(r.QIs[0])
	if c != nil && len(c.Dict) > 0 {
		return fmt.Sprintf("%s WHERE %s = '%s'", agg, quoteIdent(r.QIs[0]), strings.ReplaceAll(c.Dict[0], "'", "''"))
	}
	return agg
}

func quoteIdent(s string) string {
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return mquery.QuoteName(s)
		}
	}
	return s
}

func (p *Model) Update(msg tea.Msg) tea.Cmd {
	st := p.st
	switch msg := msg.(type) {
	case AnswerMsg:
		if msg.seq != p.seq {
			return nil
		}
		p.busy = false
		p.answers = append([]queryAnswer{{text: msg.text, res: msg.res, err: msg.err, of: msg.of}}, p.answers...)
		if len(p.answers) > 20 {
			p.answers = p.answers[:20]
		}
		return nil
	case tea.KeyMsg:
		k := st.Keys
		if !p.input.Focused() {
			if key.Matches(msg, k.TypeQuery) {
				p.input.Placeholder = p.example()
				p.input.Focus()
				return textinput.Blink
			}
			return nil
		}
		switch {
		case key.Matches(msg, k.Back):
			p.input.Blur()
			return nil
		case key.Matches(msg, k.History):
			p.recall(msg.Type == tea.KeyUp)
			return nil
		case key.Matches(msg, k.Example):
			if p.input.Value() == "" {
				p.input.SetValue(p.example())
				p.input.CursorEnd()
			}
			return nil
		case key.Matches(msg, k.Run):
			text := strings.TrimSpace(p.input.Value())
			if text == "" {
				// The grey example is a placeholder, not a query: enter
				// on an empty line runs nothing (the example key fills
				// it in).
				st.Notify("no query typed: %s fills in the example", common.KeyName(k.Example))
				return nil
			}
			if len(p.history) == 0 || p.history[len(p.history)-1] != text {
				p.history = append(p.history, text)
			}
			p.hpos = len(p.history)
			p.input.SetValue("")
			if rec := st.Received; rec != nil {
				// A received release answers from its files.
				p.seq++
				p.busy = true
				seq, truth, ans := p.seq, st.TruthFor(), rec.Answerer
				return common.Guarded(func() tea.Msg {
					r, err := answer(text, truth, ans)
					return AnswerMsg{seq: seq, text: text, res: r, err: err}
				}, func(err error) tea.Msg { return AnswerMsg{seq: seq, text: text, err: err} })
			}
			if st.Result == nil || st.Prep == nil {
				p.answers = append([]queryAnswer{{text: text, err: fmt.Errorf("no release yet: wait for the preview")}}, p.answers...)
				return nil
			}
			p.seq++
			p.busy = true
			seq, truth, res := p.seq, st.Prep.Table, st.Result
			return common.Guarded(func() tea.Msg {
				r, err := answer(text, truth, res.Answerer)
				return AnswerMsg{seq: seq, text: text, res: r, err: err, of: res}
			}, func(err error) tea.Msg { return AnswerMsg{seq: seq, text: text, err: err, of: res} })
		}
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		return cmd
	}
	return nil
}

// recall moves through the earlier queries: up to older ones, down to
// newer ones and past the newest to an empty input.
func (p *Model) recall(older bool) {
	switch {
	case older && p.hpos > 0:
		p.hpos--
		p.input.SetValue(p.history[p.hpos])
	case !older && p.hpos < len(p.history)-1:
		p.hpos++
		p.input.SetValue(p.history[p.hpos])
	case !older:
		p.hpos = len(p.history)
		p.input.SetValue("")
	}
	p.input.CursorEnd()
}

func answer(text string, truth *model.Table, a method.Answerer) (*pipeline.QueryResult, error) {
	if a == nil {
		return nil, fmt.Errorf("this method's release does not answer queries")
	}
	return pipeline.Answer(text, truth, a)
}

// SetSize sets the cells the pane is drawn in.
func (p *Model) SetSize(w, h int) { p.w, p.h = w, h }

// View draws the pane at its size.
func (p *Model) View() string {
	w := p.w
	s, k := p.st.Styles, p.st.Keys
	var b strings.Builder
	b.WriteString(s.Title.Render("Query the release") + s.Muted.Render("  COUNT(*) | SUM | AVG | MIN | MAX (sa) [WHERE col = v | != | < | <= | > | >= | BETWEEN a AND b | IN (..) {AND ...}]") + "\n")
	if p.input.Focused() {
		b.WriteString(p.input.View() + "\n")
		b.WriteString(s.Muted.Render(common.KeyName(k.Run)+" run · "+common.KeyName(k.History)+" history · "+common.KeyName(k.Example)+" example · "+common.KeyName(k.Back)+" leave the input") + "\n")
	} else {
		b.WriteString(s.Muted.Render(typeQuery(k)+" to type a query, e.g. "+common.Safe(p.example())) + "\n\n")
	}
	if p.busy {
		b.WriteString(s.Muted.Render("answering…") + "\n")
	}
	for _, a := range p.answers {
		stale := ""
		if p.st.Received == nil && a.of != p.st.Result {
			stale = s.Muted.Render("  (answered for earlier settings)")
		}
		b.WriteString("\n" + s.Label.Render("> ") + common.Safe(a.text) + stale + "\n")
		if a.err != nil {
			// The explanation wraps to the pane (its hint read in full);
			// the query and its caret stay one block of their own, not
			// padded to the explanation's width.
			b.WriteString(s.Error.Render(common.Wrap(p.st.Explain(a.err), w)) + "\n")
			if qe, ok := a.err.(*mquery.Error); ok {
				b.WriteString(s.Error.Render(model.TermLines(qe.Caret())) + "\n")
			}
			continue
		}
		r := a.res
		line := ""
		count := r.Query.Agg == mquery.Count
		if r.HasTru {
			if r.Truth.Empty && count {
				line += "true 0"
			} else if r.Truth.Empty {
				line += "true: (no row)"
			} else {
				line += fmt.Sprintf("true %s (%s rows)", pipeline.FormatFigure(r.Truth.Value), common.Thousands(r.Truth.Count))
			}
		}
		an := r.Answer
		switch {
		case an.Empty && count:
			line += " · release 0 (exact)"
		case an.Empty:
			line += " · release: (no row)"
		case an.HasBounds && an.Low == an.High:
			line += fmt.Sprintf(" · release %s (exact)", pipeline.FormatFigure(an.Low))
		case an.HasBounds:
			line += fmt.Sprintf(" · release [%s, %s]", pipeline.FormatFigure(an.Low), pipeline.FormatFigure(an.High))
		case an.HasEst:
			line += fmt.Sprintf(" · release ≈ %s", pipeline.FormatFigure(an.Estimate))
		}
		if !math.IsNaN(r.RelErr) {
			if an.HasBounds {
				line += fmt.Sprintf(" · bound width/true %.4f", r.RelErr)
			} else {
				line += fmt.Sprintf(" · rel. error %.4f", r.RelErr)
			}
		}
		b.WriteString(line + "\n")
		for _, m := range r.Warnings {
			b.WriteString(s.Warn.Render(common.Fit("! "+common.Safe(m), w)) + "\n")
		}
	}
	return b.String()
}

// typeQuery names the keys that open the query input ("enter (or /)").
func typeQuery(k common.KeyMap) string {
	out := common.KeyName(k.TypeQuery)
	if keys := k.TypeQuery.Keys(); len(keys) > 1 {
		out += " (or " + strings.Join(keys[1:], ", ") + ")" // the help names the first
	}
	return out
}
