package sampling

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/method"
	"privlab/algorithms/sampling/format"
	"privlab/model"
)

// Tour is the teaching tour of Sattar et al.: Table 2 and its minimum
// generalization (Table 3), then Section 3's record probability and
// expected confidence (Definition 5, Eq. 1: 0.00375, 0.313, 0.977), the
// group confidence of Definition 9 ({A,A,A,B,B,C}), the distortion of
// Definition 10 (0.625), and Algorithm 1 deciding record by record
// whether observed confidence (Eq. 2) stays below expected (Eq. 3).
func (Method) Tour() method.Tour {
	return method.Tour{
		Title:  "Sampling and generalization on Table 2 and a population with Section 3's marginals",
		Paper:  "Sattar, Li, Ding, Liu, Vincent, Sections 3-5",
		Setups: []method.Setup{table2, population},
		Steps:  []method.TourStep{tourTable2, tourExpected, tourObserved, tourDistortion, tourRecords, tourAttack},
	}
}

var (
	// table2 is the paper's Table 2 with Section 4's minimum rule: ages
	// in intervals of at least five years.
	table2 = method.Setup{Input: "dataset:clinic",
		Roles:  model.Roles{IDs: []string{"name"}, QIs: []string{"age", "sex", "zipcode"}, SA: "disease"},
		Params: model.Values{paramMinGen: "age=1", "seed": "1"}}
	// population realises Section 3's marginals as a table's own; the
	// paper's settings beta = 0.9, delta' = 0.6 (Section 6).
	population = method.Setup{Input: "dataset:clinic-population",
		Roles:  model.Roles{IDs: []string{"name"}, QIs: []string{"age", "sex"}, SA: "disease"},
		Params: model.Values{paramRate: "0.9", paramMaxDist: "0.6", "seed": "1"}}
)

// runOf runs a setup keeping the run's state.
func runOf(ctx context.Context, lab *method.TourLab, s method.Setup) (*run, error) {
	in, err := lab.Prepare(s)
	if err != nil {
		return nil, err
	}
	return execute(ctx, in)
}

// minimum is a row's nodes after the minimum generalization (step 3).
func (r *run) minimum(row int) []int32 {
	out := make([]int32, len(r.tax))
	for i, c := range r.qiCols {
		out[i] = r.tax[i].up(r.leaf[i][c.Codes[row]], r.minGen[r.in.Roles.QIs[i]])
	}
	return out
}

// labelsOf writes nodes as their labels.
func (r *run) labelsOf(nodes []int32) []string {
	out := make([]string, len(nodes))
	for i, x := range nodes {
		out[i] = r.tax[i].label[x]
	}
	return out
}

// probability is Pr(t) of Definition 5 for generalized nodes and a
// sensitive code.
func (r *run) probability(nodes []int32, sa uint32) float64 {
	qs := make([]float64, len(nodes))
	for i, x := range nodes {
		qs[i] = r.tax[i].mass[x]
	}
	return RecordProbability(qs, r.saP[sa])
}

func tourTable2(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	r, err := runOf(ctx, lab, table2)
	if err != nil {
		return method.Step{}, err
	}
	t := r.in.Table
	sec := method.Section{Title: "Table 2 and, after the minimum generalization, Table 3",
		Header: append(append(t.Names(), "age (Table 3)"), "sex, zipcode")}
	for row := 0; row < t.Rows; row++ {
		var line []string
		for _, c := range t.Columns {
			line = append(line, c.Value(row))
		}
		gen := r.labelsOf(r.minimum(row))
		sec.Rows = append(sec.Rows, append(line, gen[0], strings.Join(gen[1:], ", ")))
	}
	res := r.res
	// Table 2 publishes no record: the preview beside the step shows the
	// next steps' table, where Algorithm 1 publishes (issue 35 polish: the
	// first step's preview was empty).
	pop, err := runOf(ctx, lab, population)
	if err != nil {
		return method.Step{}, err
	}
	return method.Step{
		Title: "Table 2: the data, generalized at least as the law asks",
		Cite:  "Table 2; Section 4, Definitions 7 and 8; Table 3",
		Text: []string{
			"Name identifies a record and is removed; age, sex and zip code are quasi-identifiers, disease is sensitive. " +
				"The publisher samples the table at rate beta (Definition 7: a victim's record is published with probability " +
				"beta) and must publish ages in intervals of at least five years (Section 4), which gives Table 3.",
			fmt.Sprintf("On these %d records Algorithm 1 (beta = %s, delta' = %s) samples %d, publishes %d and suppresses %d: "+
				"in so small a table no generalization within delta' brings a record's observed confidence down to its "+
				"expected one. The next steps use a larger table.",
				t.Rows, model.FormatNumber(r.beta), model.FormatNumber(r.maxDist), r.sampled, res.Published, res.Suppressed),
			fmt.Sprintf("The preview beside this step already runs on that larger table (%s, %d records, Section 3's marginals): "+
				"Algorithm 1 publishes %d of them and suppresses %d.",
				population.Input, pop.in.Table.Rows, pop.res.Published, pop.res.Suppressed),
		},
		Sections: []method.Section{sec},
		Setup:    population,
	}, nil
}

// ann is the record of Section 3's example in the population table.
func (r *run) ann() (int, error) {
	c := r.in.Table.Column("name")
	for row := 0; row < r.in.Table.Rows; row++ {
		if c.Value(row) == "Ann" {
			return row, nil
		}
	}
	return 0, fmt.Errorf("the population has no record of Ann")
}

func tourExpected(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	r, err := runOf(ctx, lab, population)
	if err != nil {
		return method.Step{}, err
	}
	row, err := r.ann()
	if err != nil {
		return method.Step{}, err
	}
	nodes := r.minimum(row)
	p := r.probability(nodes, r.sa.Codes[row])
	var factors []string
	for i, x := range nodes {
		factors = append(factors, fmt.Sprintf("Pr(%s) = %s", r.tax[i].label[x], short(r.tax[i].mass[x])))
	}
	factors = append(factors, fmt.Sprintf("Pr(%s) = %s", r.sa.Value(row), short(r.saP[r.sa.Codes[row]])))
	sec := method.Section{Title: "Eq. 1: expected confidence 1 - (1 - Pr(t))^n", Header: []string{"n", "expected confidence"}}
	for _, n := range []int{r.published(), 100, 1000} {
		sec.Rows = append(sec.Rows, []string{fmt.Sprint(n), fmt.Sprintf("%.3f", ExpectedConfidence(p, n))})
	}
	t := strings.Join(r.labelsOf(nodes), ", ") + ", " + r.sa.Value(row)
	return method.Step{
		Title: "Expected confidence: what the public marginals let anyone expect",
		Cite:  "Section 3, Definitions 5 and 6, Eq. 1",
		Text: []string{
			"The adversary knows the population's marginals and takes the attributes as independent (Definition 5). " +
				"This table's own marginals are Section 3's, so Ann's record t = {" + t + "} has " + strings.Join(factors, ", ") +
				fmt.Sprintf(": Pr(t) = %s.", short(p)),
			fmt.Sprintf("A hypothetical data set of n records drawn from the population holds t with probability 1 - (1 - Pr(t))^n "+
				"(Eq. 1): %.3f for n = 100 and %.3f for n = 1000, the paper's example. A record in a large data set is expected anyway.",
				ExpectedConfidence(p, 100), ExpectedConfidence(p, 1000)),
		},
		Sections: []method.Section{sec},
		Setup:    population,
	}, nil
}

func tourObserved(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	group := []string{"A", "A", "A", "B", "B", "C"}
	count := map[string]int{}
	for _, s := range group {
		count[s]++
	}
	beta := format.ParamRate.Float(population.Params)
	sec := method.Section{Title: "the group {A, A, A, B, B, C}",
		Header: []string{"value", "#s", "group confidence", "observed, beta = 1", fmt.Sprintf("observed, beta = %s", model.FormatNumber(beta))}}
	var confs []string
	for _, v := range []string{"A", "B", "C"} {
		g := GroupConfidence(count[v], len(group))
		confs = append(confs, fmt.Sprintf("%.2f%%", 100*g))
		sec.Rows = append(sec.Rows, []string{v, fmt.Sprint(count[v]), method.Ratio(g),
			fmt.Sprintf("%.4f", ObservedConfidence(1, count[v], len(group))), fmt.Sprintf("%.4f", ObservedConfidence(beta, count[v], len(group)))})
	}
	return method.Step{
		Title: "Observed confidence: what the release shows",
		Cite:  "Section 4, Definition 9, Eq. 2",
		Text: []string{
			"In an equivalence group with the sensitive values {A, A, A, B, B, C}, a victim known to be in the group has " +
				"A, B or C with confidence " + strings.Join(confs, ", ") + " (Definition 9).",
			"The victim's record is published only with probability beta, so the observed confidence is beta x #s / |E| " +
				"(Eq. 2). The privacy criterion (Eq. 3) asks it to stay at or below the expected confidence of the record.",
		},
		Sections: []method.Section{sec},
		Setup:    population,
	}, nil
}

func tourDistortion(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	d := Distortion([]float64{LevelTerm(3, 4), LevelTerm(0, 1)})
	r, err := runOf(ctx, lab, population)
	if err != nil {
		return method.Step{}, err
	}
	sec := method.Section{Title: "the published records' distortion (Eq. 4) on this table's taxonomies",
		Header: append(append([]string(nil), r.in.Roles.QIs...), "records", "distortion")}
	for _, gi := range r.pub {
		g := &r.rec.groups[gi]
		sec.Rows = append(sec.Rows, append(r.labelsOf(g.nodes), fmt.Sprint(g.size), fmt.Sprintf("%.3f", g.dist)))
	}
	sort.SliceStable(sec.Rows, func(a, b int) bool { return sec.Rows[a][len(sec.Rows[a])-1] < sec.Rows[b][len(sec.Rows[b])-1] })
	return method.Step{
		Title: "Distortion: how far a record is generalized",
		Cite:  "Section 5.1, Definition 10, Eq. 4",
		Text: []string{
			"Distortion averages, over the quasi-identifiers, 1 - (current level / maximal level), with the root at level 0.",
			fmt.Sprintf("Section 5.1's record {age 25, sex male} published as {age 20-40, sex any}: age goes from level 4 to 3, "+
				"sex from 1 to 0, so ((1 - 3/4) + (1 - 0/1)) / 2 = %s. A record whose distortion would exceed delta' "+
				"(0.6 in the paper's experiments) is suppressed instead (Algorithm 1, steps 12-13).", model.FormatNumber(d)),
		},
		Sections: []method.Section{sec},
		Setup:    population,
	}, nil
}

// outcome is where Algorithm 1 left one sampled record.
type outcome struct {
	cell       int32 // -1: suppressed
	suppressed bool
}

// outcomes maps every sampled row to its cell or its suppression.
func (r *run) outcomes() map[int32]outcome {
	out := map[int32]outcome{}
	for ci := range r.rec.cells {
		for _, row := range r.rec.cells[ci].rows {
			out[row] = outcome{cell: int32(ci)}
		}
	}
	for _, row := range r.rec.supp {
		out[row] = outcome{cell: -1, suppressed: true}
	}
	return out
}

// atMinimum are the observed and expected confidence of every sampled
// record at its minimum generalization (step 3), before any recoding.
func (r *run) atMinimum(rows []int32) map[int32][2]float64 {
	size, count := map[string]int{}, map[string]int{}
	key := func(row int32) string { return fmt.Sprint(r.minimum(int(row))) }
	for _, row := range rows {
		size[key(row)]++
		count[key(row)+"|"+r.sa.Value(int(row))]++
	}
	out := map[int32][2]float64{}
	for _, row := range rows {
		obs := ObservedConfidence(r.beta, count[key(row)+"|"+r.sa.Value(int(row))], size[key(row)])
		exp := ExpectedConfidence(r.probability(r.minimum(int(row)), r.sa.Codes[row]), r.sampled)
		out[row] = [2]float64{obs, exp}
	}
	return out
}

func tourRecords(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	r, err := runOf(ctx, lab, population)
	if err != nil {
		return method.Step{}, err
	}
	where := r.outcomes()
	var sampled []int32
	var unsampled []string
	for row := 0; row < r.in.Table.Rows; row++ {
		if _, ok := where[int32(row)]; ok {
			sampled = append(sampled, int32(row))
		} else {
			unsampled = append(unsampled, r.in.Table.Column("name").Value(row))
		}
	}
	first := r.atMinimum(sampled)
	sec := method.Section{Title: "Algorithm 1, record by record: Eq. 3 at the minimum generalization, and where the record ends",
		Header: []string{"name", r.sa.Name, "at first", "obs", "exp", "Eq. 3", "published as", "obs", "exp"}}
	gen, supp := 0, 0
	for _, row := range sampled {
		f := first[row]
		ok := "holds"
		if !Satisfies(f[0], f[1]) {
			ok = "fails"
		}
		line := []string{r.in.Table.Column("name").Value(int(row)), r.sa.Value(int(row)),
			strings.Join(r.labelsOf(r.minimum(int(row))), " "), fmt.Sprintf("%.3f", f[0]), fmt.Sprintf("%.3f", f[1]), ok}
		o := where[row]
		if o.suppressed {
			supp++
			sec.Rows = append(sec.Rows, append(line, "suppressed", "", ""))
			continue
		}
		c := &r.rec.cells[o.cell]
		fig := r.cellFigures(c)
		pub := strings.Join(r.labelsOf(r.rec.groups[c.group].nodes), " ")
		if pub != line[2] {
			gen++
		}
		sec.Rows = append(sec.Rows, append(line, pub, fmt.Sprintf("%.3f", fig.observed), fmt.Sprintf("%.3f", fig.expected)))
	}
	return method.Step{
		Title: "Algorithm 1: generalize until observed <= expected",
		Cite:  "Section 5, Algorithm 1; Eq. 3; Definition 11",
		Text: []string{
			fmt.Sprintf("Algorithm 1 samples %d of the %d records (beta = %s; not sampled: %s), generalizes ages to their "+
				"minimum, and checks Eq. 3 record by record. A record whose observed confidence exceeds its expected one is "+
				"generalized one level on the attribute of largest left domain size (Definition 11), which enlarges its "+
				"group (lowering the observed) and its Pr(t) (raising the expected).",
				r.sampled, r.in.Table.Rows, model.FormatNumber(r.beta), strings.Join(unsampled, ", ")),
			fmt.Sprintf("%d records end generalized beyond the minimum, %d are suppressed because the next step would take their "+
				"distortion above delta' = %s, and every published record satisfies Eq. 3 with n = %d published records.",
				gen, supp, model.FormatNumber(r.maxDist), r.published()),
		},
		Sections: []method.Section{sec},
		Setup:    population,
	}, nil
}

// short writes a probability with at most ten significant digits
// (0.15000000000000002 is 0.15).
func short(x float64) string { return strconv.FormatFloat(x, 'g', 10, 64) }
