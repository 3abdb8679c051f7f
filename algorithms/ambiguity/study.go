package ambiguity

import (
	"context"
	"errors"
	"fmt"
	"math"

	"privlab/algorithms/ambiguity/format"
	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/model"
)

// studyQueries is the number of queries per workload batch of the study.
const studyQueries = 100

// mondrian is the generalization the study and the tour compare with,
// declared in the Spec (Baselines) and run by name through the lab.
var mondrian = method.Baseline{Method: "kja", Variant: "mondrian",
	Why: "Wang, Sections 1.1 and 8: multi-dimensional k-anonymity (Mondrian) is the generalization the ambiguity scheme is compared with"}

// study reproduces the shape of Wang's Section 8.3: the average relative
// error of COUNT(*) WHERE <conditions on 1-3 QIs> AND S = v at
// selectivity 1%, 5% and 10% (Section 8.1), on the ambiguity scheme and
// on a generalized table (Mondrian with k = the scheme's average group
// size, rounded; Mondrian's groups hold at least k records and more on
// average, which the study prints); then the error as beta varies
// (Figure 8). Theorem 6.1 says ambiguity should win; its proof builds the
// ambiguity scheme on the generalized table's own groups, so the study
// also answers with that scheme ("Thm 6.1") and says in which rows it
// beats generalization. Each table closes with how many rows
// generalization wins: on census and Adult it wins every row against
// Algorithm 2's scheme (whose groups must cover many values to reach
// alpha-presence), contrary to Theorem 6.1, and the study says so rather
// than leave the columns to be read.
func study(ctx context.Context, lab *method.Lab) ([]method.Section, error) {
	in := lab.Input
	res, err := lab.Run(ctx, Name, "", in.Values, in)
	if err != nil {
		return nil, err
	}
	base, note := baseline(ctx, lab, res)
	dims := min(3, len(in.Roles.QIs))
	main := method.Section{
		Title:  "Wang, Section 8.3: average relative error of COUNT(*) WHERE <qd QIs> AND S = v",
		Header: []string{"qd", "selectivity", "queries", "ambiguity", "generalization", "better", "Thm 6.1", "Thm 6.1 vs generalization"},
	}
	main.Notes = append(main.Notes, fmt.Sprintf("ambiguity: alpha %s, beta %s, %d groups of %.2f records on average",
		format.ParamAlpha.Text(in.Values), format.ParamBeta.Text(in.Values), len(res.Groups), res.Utility.Value))
	if note != "" {
		main.Notes = append(main.Notes, note)
	}
	same := sameGroups(in, base)
	if same != nil {
		main.Notes = append(main.Notes, theorem61Note(in, base, same)...)
	}
	var vsAlgorithm2, vsTheorem61 tally
	steps := float64(dims * 3)
	done := 0.0
	step := func() {
		done++
		if lab.Progress != nil {
			lab.Progress(done / (steps + 4))
		}
	}
	for qd := 1; qd <= dims; qd++ {
		for _, s := range []float64{0.01, 0.05, 0.10} {
			opt := workload.Options{Shape: workload.CountIn, Queries: studyQueries, Seed: 1, Dims: qd, Selectivity: s, SAPoint: true}
			a, n, err := workloadError(in, res, opt)
			if err != nil {
				return nil, err
			}
			row := []string{fmt.Sprint(qd), fmt.Sprintf("%g%%", s*100), fmt.Sprint(n), fmtErr(a)}
			g, cells := compare(in, base, opt, a)
			row = append(row, cells...)
			vsAlgorithm2.add(a, g)
			if same != nil {
				x, _, err := workloadError(in, &method.Result{Answerer: same}, opt)
				if err != nil {
					return nil, err
				}
				row = append(row, fmtErr(x), vsTheorem61.add(x, g))
			}
			main.Rows = append(main.Rows, row)
			step()
		}
	}
	closing := method.Section{Notes: []string{vsAlgorithm2.line("Algorithm 2's scheme")}}
	if same != nil {
		closing.Notes = append(closing.Notes, vsTheorem61.theorem61())
	}
	sweep, err := betaSweep(ctx, lab, dims, step)
	if err != nil {
		return nil, err
	}
	return append([]method.Section{main, closing}, sweep...), nil
}

// betaSweep is Wang's Figure 8: the error as beta varies, at qd =
// min(2, QIs), s = 5%, beside generalization's; step is called after
// each feasible beta.
func betaSweep(ctx context.Context, lab *method.Lab, dims int, step func()) ([]method.Section, error) {
	in := lab.Input
	sweep := method.Section{
		Title:  "Wang, Figure 8: error vs beta (qd " + fmt.Sprint(min(2, dims)) + ", selectivity 5%)",
		Header: []string{"beta", "groups", "avg size", "ambiguity", "generalization (k, avg size)", "better"},
	}
	var swept tally
	opt := workload.Options{Shape: workload.CountIn, Queries: studyQueries, Seed: 1, Dims: min(2, dims), Selectivity: 0.05, SAPoint: true}
	for _, beta := range []string{"0.5", "0.25", "0.2", "0.1"} {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := in.Values.Clone()
		v[format.ParamBeta.Name()] = beta
		r, err := lab.Run(ctx, Name, "", v, in)
		if err != nil {
			sweep.Rows = append(sweep.Rows, []string{beta, "—", "—", "infeasible", "", ""})
			continue
		}
		a, _, err := workloadError(in, r, opt)
		if err != nil {
			return nil, err
		}
		b, _ := baseline(ctx, lab, r)
		g, cmp := compare(in, b, opt, a)
		swept.add(a, g)
		if b != nil {
			cmp[0] = fmt.Sprintf("%s (%s, %.2f)", cmp[0], b.Values[method.GroupSizeParam], averageSize(b))
		}
		sweep.Rows = append(sweep.Rows, append([]string{beta, fmt.Sprint(len(r.Groups)), fmt.Sprintf("%.2f", r.Utility.Value), fmtErr(a)}, cmp...))
		step()
	}
	return []method.Section{sweep, {Notes: []string{swept.line("Algorithm 2's scheme")}}}, nil
}

// tally counts the rows of a table where both releases were measured.
type tally struct{ rows, generalization, ambiguity, ties int }

// add counts one row (the ambiguity scheme's error a against
// generalization's g) and returns how it went for a.
func (t *tally) add(a, g float64) string {
	if math.IsNaN(a) || math.IsNaN(g) {
		return ""
	}
	t.rows++
	switch {
	case a > g:
		t.generalization++
		return "LOSES"
	case a < g:
		t.ambiguity++
		return "wins"
	}
	t.ties++
	return "tie"
}

// line is the closing line of a table: how many rows generalization wins.
func (t tally) line(what string) string {
	if t.rows == 0 {
		return "no row compares with generalization"
	}
	s := fmt.Sprintf("generalization wins %d of %d rows against %s", t.generalization, t.rows, what)
	if t.ties > 0 {
		s += fmt.Sprintf(" (%d ties)", t.ties)
	}
	if t.generalization == t.rows {
		s += ": contrary to the paper, which says ambiguity always has the smaller error (Theorem 6.1; Section 8.3)"
	}
	return s
}

// theorem61 is the closing line of the Theorem 6.1 column.
func (t tally) theorem61() string {
	if t.rows == 0 {
		return "no row compares the Theorem 6.1 scheme with generalization"
	}
	if t.generalization == 0 && t.ties == 0 {
		return fmt.Sprintf("the Theorem 6.1 scheme (the generalization's own groups) beats generalization in all %d rows, as the theorem says", t.rows)
	}
	return fmt.Sprintf("the Theorem 6.1 scheme (the generalization's own groups) does not beat generalization in %d of %d rows (marked LOSES or tie), "+
		"although Theorem 6.1 says it always does", t.generalization+t.ties, t.rows)
}

// theorem61Note describes the scheme of the generalization's own groups:
// its size and worst presence. Mondrian groups records by their QI
// values, so a group can repeat a combination and hold more records than
// its join has combinations J = prod_i |G_ATi|; there Theorem 5.1's
// |G|/J, which assumes |G| distinct combinations among J, exceeds 1 and
// is no probability. The note gives that figure as such, and the worst
// d_G/J, d_G being the group's distinct combinations (at most J).
func theorem61Note(in *method.Input, base *method.Result, same *scheme) []string {
	r := &run{in: in}
	if r.resolve() != nil {
		return nil
	}
	worstRaw, worst, over := 0.0, 0.0, 0
	seen := map[string]bool{}
	key := make([]byte, 0, 64)
	g := -1 // same's groups are base's non-empty ones, in order
	for _, grp := range base.Groups {
		if len(grp.Rows) == 0 {
			continue
		}
		g++
		j := same.join(g)
		clear(seen)
		for _, row := range grp.Rows {
			key = key[:0]
			for _, c := range r.qiCols {
				v := c.Codes[row]
				key = append(key, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
			}
			seen[string(key)] = true
		}
		if float64(same.size[g]) > j {
			over++
		}
		worstRaw = math.Max(worstRaw, float64(same.size[g])/j)
		worst = math.Max(worst, float64(len(seen))/j)
	}
	lines := []string{fmt.Sprintf("Thm 6.1: the ambiguity scheme of the generalization's own %d groups (Wang, proof of Theorem 6.1); "+
		"counting each group's distinct QI combinations d_G, its worst presence d_G/prod|G_ATi| is %.3g (alpha %s)", same.groups, worst, format.ParamAlpha.Text(in.Values))}
	if over > 0 {
		lines = append(lines, fmt.Sprintf("  %d of its groups repeat QI combinations and hold more records than their join has combinations: "+
			"Theorem 5.1's |G|/prod|G_ATi| (which assumes |G| distinct combinations) reaches %.3g there and is no probability", over, worstRaw))
	}
	return lines
}

// averageSize is the average number of records per group of a result.
func averageSize(res *method.Result) float64 {
	n := 0
	for _, g := range res.Groups {
		n += len(g.Rows)
	}
	return float64(n) / math.Max(1, float64(len(res.Groups)))
}

// baseline runs the generalization baseline with k = the scheme's average
// group size; a note says why it is missing, or what it built.
func baseline(ctx context.Context, lab *method.Lab, res *method.Result) (*method.Result, string) {
	k := max(2, int(math.Round(res.Utility.Value)))
	k = min(k, lab.Input.Table.Rows)
	b, err := lab.Run(ctx, mondrian.Method, mondrian.Variant, model.Values{method.GroupSizeParam: fmt.Sprint(k)}, lab.Input)
	if err != nil {
		var pe *model.ParamError
		if errors.As(err, &pe) && pe.Param == "method" {
			return nil, fmt.Sprintf("generalization baseline (%s) not available", mondrian)
		}
		return nil, fmt.Sprintf("generalization baseline (%s, k = %d) failed: %v", mondrian, k, err)
	}
	return b, fmt.Sprintf("generalization: %s with k = %d (the scheme's average group size, rounded); its %d groups hold %.2f records on average",
		mondrian, k, len(b.Groups), averageSize(b))
}

// compare measures the baseline on the same workload: its error (NaN
// when there is none) and the cells: its error and which release answers
// better.
func compare(in *method.Input, base *method.Result, opt workload.Options, amb float64) (float64, []string) {
	if base == nil {
		return math.NaN(), []string{"n/a", ""}
	}
	g, _, err := workloadError(in, base, opt)
	if err != nil {
		return math.NaN(), []string{"error: " + err.Error(), ""}
	}
	better := "ambiguity"
	switch {
	case math.IsNaN(amb) || math.IsNaN(g):
		better = ""
	case g < amb:
		better = "generalization"
	case g == amb:
		better = "tie"
	}
	return g, []string{fmtErr(g), better}
}

// workloadError answers a workload on a result: mean relative error and
// the queries measured (NaN when none could be).
func workloadError(in *method.Input, res *method.Result, opt workload.Options) (float64, int, error) {
	if res.Answerer == nil {
		return 0, 0, fmt.Errorf("%s answers no queries", res.Spec.Name)
	}
	qs, err := workload.Generate(in.Table, in.Roles, opt)
	if err != nil {
		return 0, 0, err
	}
	w, err := workload.Evaluate(in.Table, res.Answerer, qs)
	if err != nil {
		return 0, 0, err
	}
	if w.Queries == 0 {
		return math.NaN(), 0, nil
	}
	return w.MeanErr, w.Queries, nil
}

func fmtErr(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.4f", x)
}

// sameGroups is the ambiguity scheme of the baseline's groups (nil
// without a baseline or when its groups are not rows of the input).
func sameGroups(in *method.Input, base *method.Result) *scheme {
	if base == nil || len(base.Groups) == 0 {
		return nil
	}
	r := &run{in: in}
	if r.resolve() != nil {
		return nil
	}
	groups := make([][]int32, 0, len(base.Groups))
	for _, g := range base.Groups {
		for _, row := range g.Rows {
			if row < 0 || int(row) >= in.Table.Rows || r.sa.IsMissing(int(row)) {
				return nil
			}
			for _, c := range r.qiCols {
				if c.IsMissing(int(row)) {
					return nil
				}
			}
		}
		if len(g.Rows) > 0 {
			groups = append(groups, g.Rows)
		}
	}
	return newScheme(in.Roles.QIs, in.Roles.SA, groups, r.qiCols, r.sa)
}
