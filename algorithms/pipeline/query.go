package pipeline

// Answers: one query on the truth and a release, and a random workload.

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/verify"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// FormatFigure prints a figure exactly where it is whole, with two
// decimals from 1 on, and to four significant digits in fixed notation
// below (model.FormatFixed: 0.00002841, never 2.841e-05).
func FormatFigure(x float64) string { return fmtFig(x) }

func fmtFig(x float64) string {
	switch {
	case math.IsInf(x, 0) || math.IsNaN(x):
		return fmt.Sprint(x)
	case x == math.Trunc(x) && math.Abs(x) < 1e15:
		return model.FormatNumber(x)
	case math.Abs(x) >= 1:
		return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".")
	}
	return model.FormatFixed(x, 4)
}

// QueryResult is a query answered on the truth and on the release.
type QueryResult struct {
	Query  *query.Query
	Truth  query.Answer
	HasTru bool
	Answer method.Bounds
	// RelErr is (upper-lower)/truth for bounds, |est-truth|/truth for
	// estimates (NaN when undefined).
	RelErr float64
	// Warnings name condition values no row of the table has (with the
	// nearest values): comparisons are exact, case and all.
	Warnings []string
}

// Answer evaluates a query on the truth (when a table is given) and on the
// release answerer.
func Answer(text string, truth *model.Table, a method.Answerer) (*QueryResult, error) {
	q, err := query.Parse(text)
	if err != nil {
		return nil, err
	}
	out := &QueryResult{Query: q, RelErr: math.NaN()}
	if truth != nil {
		out.Warnings = unknownValues(q, truth)
		if out.Truth, err = q.Truth(truth); err != nil {
			return nil, err
		}
		out.HasTru = true
	}
	if out.Answer, err = a.Answer(q); err != nil {
		return nil, err
	}
	if out.HasTru && !out.Truth.Empty && out.Truth.Value != 0 {
		if out.Answer.HasBounds {
			out.RelErr = (out.Answer.High - out.Answer.Low) / math.Abs(out.Truth.Value)
		} else if out.Answer.HasEst {
			out.RelErr = math.Abs(out.Answer.Estimate-out.Truth.Value) / math.Abs(out.Truth.Value)
		}
	}
	return out, nil
}

// PublishedValueWarnings warns, without the original, about values of
// conditions on categorical columns that the release in dir publishes
// exactly (record-level QI cells that are not generalized, and the
// sensitive attribute's values) and does not hold: the same warning as
// with the original, from the published domain.
func PublishedValueWarnings(q *query.Query, dir string) []string {
	_, v, err := ReleaseRisk(dir, 0)
	if err != nil {
		return nil
	}
	var cols []*model.Column
	if v.SA != "" && !v.SANumeric {
		cols = append(cols, &model.Column{Name: v.SA, Dict: v.SAValues})
	}
	if v.Cells != nil && !v.Generalized {
		for i, q := range v.QIs {
			if _, ok := model.ParseNumber(firstOr(v.Cells[i])); !ok {
				cols = append(cols, &model.Column{Name: q, Dict: v.Cells[i]})
			}
		}
	}
	if len(cols) == 0 {
		return nil
	}
	return unknownValues(q, &model.Table{Columns: cols})
}

func firstOr(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}

// unknownValues warns about values of = / != / IN conditions on
// categorical columns that no row holds, suggesting the nearest values
// (the same letters in another case first, then small edit distances).
func unknownValues(q *query.Query, t *model.Table) []string {
	var out []string
	for _, p := range q.Preds {
		c := t.Column(p.Column)
		if c == nil || c.Kind == model.Numeric || (p.Op != query.OpEq && p.Op != query.OpNe && p.Op != query.OpIn) {
			continue
		}
		have := make(map[string]bool, len(c.Dict))
		for _, v := range c.Dict {
			have[v] = true
		}
		for _, l := range p.Values {
			if have[l.Text] {
				continue
			}
			msg := fmt.Sprintf("no row has %s = '%s'", p.Column, l.Text)
			if near := nearest(l.Text, c.Dict, 3); len(near) > 0 {
				msg += "; did you mean '" + strings.Join(near, "', '") + "'?"
			}
			out = append(out, msg)
		}
	}
	return out
}

// nearest returns up to n values closest to s: equal but for case, then
// within an edit distance of a third of its length (at least 2).
func nearest(s string, values []string, n int) []string {
	type cand struct {
		v string
		d int
	}
	var cs []cand
	limit := max(2, len([]rune(s))/3)
	for _, v := range values {
		d := editDistance(strings.ToLower(s), strings.ToLower(v))
		if strings.EqualFold(s, v) {
			d = 0
		} else if d == 0 {
			d = 1
		}
		if d <= limit {
			cs = append(cs, cand{v, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].v < cs[j].v
	})
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].v)
	}
	return out
}

// editDistance is the Levenshtein distance between two strings (runes).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// OpenRelease reads an exported release of any registered method; a
// partitioned release (SPEC 3.9) answers with its partitions together
// (unionAnswerer).
func OpenRelease(dir string) (method.Answerer, *releasedir.Manifest, error) {
	m, man, err := releaseMethod(dir)
	if err != nil {
		return nil, nil, err
	}
	if man.Partitioned != nil {
		u := unionAnswerer{}
		for _, part := range man.Partitioned.Parts {
			a, err := m.OpenRelease(filepath.Join(dir, filepath.Base(part.Dir)))
			if err != nil {
				return nil, nil, err
			}
			u = append(u, a)
		}
		return u, man, nil
	}
	a, err := m.OpenRelease(dir)
	return a, man, err
}

// unionAnswerer answers a COUNT query on a partitioned release: the
// partitions hold disjoint records, so their counts, bounds and estimates
// add up. Other aggregates do not add up and are refused.
type unionAnswerer []method.Answerer

func (u unionAnswerer) Answer(q *query.Query) (method.Bounds, error) {
	if q.Agg != query.Count {
		return method.Bounds{}, &model.ParamError{Param: "query", Value: q.Text, Reason: "a partitioned release answers COUNT queries (its partitions' answers add up; a " + q.Agg.String() + " does not)",
			Hint: "ask COUNT(*), or ask one partition's release, DIR/part-NNNNN"}
	}
	sum := method.Bounds{HasBounds: true, HasEst: true, Empty: true}
	var notes []string
	for _, a := range u {
		b, err := a.Answer(q)
		if err != nil {
			return method.Bounds{}, err
		}
		sum.Empty = sum.Empty && b.Empty
		if b.Empty {
			continue
		}
		sum.HasBounds, sum.HasEst = sum.HasBounds && b.HasBounds, sum.HasEst && b.HasEst
		sum.Low, sum.High, sum.Estimate = sum.Low+b.Low, sum.High+b.High, sum.Estimate+b.Estimate
		if b.Note != "" && !slices.Contains(notes, b.Note) {
			notes = append(notes, b.Note)
		}
	}
	if sum.Empty {
		return method.Bounds{Empty: true}, nil
	}
	sum.Note = strings.Join(notes, "; ")
	return sum, nil
}

// releaseMethod is the manifest of the release in dir and the method it
// names.
func releaseMethod(dir string) (method.Method, *releasedir.Manifest, error) {
	man, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, nil, err
	}
	m, err := catalog.Lookup(man.Method)
	if err != nil {
		return nil, nil, err
	}
	return m, man, nil
}

// openReleaseShared is OpenRelease reading the files as the checks on
// files parse them, when the method can (method.TablesOpener): check
// --original answers the workload from the tables its checker reads
// rather than parsing every file twice.
func openReleaseShared(dir string, files *verify.Shared) (method.Answerer, *releasedir.Manifest, error) {
	m, man, err := releaseMethod(dir)
	if err != nil {
		return nil, nil, err
	}
	if to, ok := m.(method.TablesOpener); ok {
		if rel, err := files.Open(); err == nil {
			a, err := to.OpenReleaseTables(dir, rel.Table)
			return a, man, err
		}
	}
	a, err := m.OpenRelease(dir)
	return a, man, err
}

// Eval runs a random workload of the method's query shape.
func Eval(p *Prepared, res *method.Result, opt workload.Options) (workload.Result, error) {
	if opt.Shape == "" {
		opt.Shape = res.Workload
	}
	qs, err := workload.Generate(p.Table, p.Project.Roles, opt)
	if err != nil {
		return workload.Result{}, err
	}
	return workload.Evaluate(p.Table, res.Answerer, qs)
}
