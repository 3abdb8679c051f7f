// Package sampling is the sampling and local-recoding framework of Sattar,
// Li, Ding, Liu and Vincent ("A general framework for privacy preserving
// data publishing"): a record is published only when the adversary's
// confidence of linking it to a victim in the release (observed
// confidence, Eq. 2) is at most the confidence of seeing the same record
// in a random data set drawn from public knowledge (expected confidence,
// Eq. 1). The table is sampled at rate beta, every QI gets its minimum
// generalization, and violating records are generalized bottom-up one
// level at a time (local recoding, Section 5.2) or suppressed when their
// distortion (Definition 10) would exceed delta' (Algorithm 1).
package sampling

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"privlab/algorithms/sampling/format"
	"sort"
	"strings"

	"privlab/algorithms/method"
	"privlab/algorithms/release"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/releasedir"
)

// Method is the sampling framework as a registered method.
type Method struct{}

// Name is the method's command-line name.
const Name = "sampling"

// Variants: which attribute a step generalizes.
const (
	VariantPaper       = "paper"
	VariantWithinLimit = "within-limit"
)

// Figure positions, in Spec().Figures order.
const (
	FigObserved = iota
	FigExpected
	FigMargin
	FigCap
	FigDistortion
	FigNearCap
)

// nearCapShare is how close to its cap a record counts as near it: its
// observed confidence is at least 95% of its expected confidence.
const nearCapShare = 0.95

// gridRates are the sampling rates of the advisor's grid, from weak to
// strong privacy: fewer records sampled, a lower observed confidence
// (Sattar et al., Eq. 2).
var gridRates = []string{"0.95", "0.9", "0.8", "0.7", "0.6", "0.5", "0.4", "0.3"}

// grid is the advisor's grid: the sampling rates at the default
// distortion.
func grid(*model.Table, model.Roles, bool) []method.GridPoint {
	out := make([]method.GridPoint, 0, len(gridRates))
	for _, r := range gridRates {
		out = append(out, method.GridPoint{Values: model.Values{paramRate: r}})
	}
	return out
}

// Spec declares the method.
func (Method) Spec() method.Spec {
	return method.Spec{
		Name:    Name,
		Title:   "Sampling and local recoding: observed confidence capped by expected confidence",
		Paper:   "Sattar, Li, Ding, Liu, Vincent, Sections 3-5",
		NeedsSA: true,
		// paper: the attribute Definition 11 picks, suppressed when its
		// step exceeds delta'; within-limit: the largest left domain size
		// among the steps that stay within delta' (see recoder).
		Variants: []string{VariantPaper, VariantWithinLimit},
		Params: []model.ParamSpec{rateParam, maxDistParam, minGenParam,
			marginalsParam, model.SeedParam},
		Figures: []method.Figure{
			{Key: "obs", Label: "obs conf", Digits: 3, Rule: method.AtMost, PerGroup: true,
				Help: "observed confidence beta·#s/|E| (Eq. 2) of the group's record closest to its cap; the cap is that record's expected confidence"},
			{Key: "exp", Label: "exp conf", Digits: 3,
				Help: "expected confidence 1-(1-Pr(t))^n (Eq. 1) of the same record: its own limit"},
			{Key: "margin", Label: "margin", Digits: 3, Rule: method.AtLeast, Limit: 0,
				Help: "smallest expected - observed confidence over the group's records (Eq. 3 holds when >= 0)"},
			{Key: "cap", Label: "% of cap", Digits: 0,
				Help: "observed / expected confidence of the group's closest record, in percent"},
			{Key: "dist", Label: "distortion", Digits: 3, Rule: method.AtMost, Against: paramMaxDist,
				Help: "distortion of the group's records (Definition 10): mean over the QIs of 1 - level/max level"},
			{Key: "near", Label: "near cap", Digits: -1,
				Help: "records of the group whose observed confidence is at least 95% of their expected confidence (their cap, Eq. 3): sort by it to find the records closest to their limit"},
		},
		Files:       []string{format.FilePublished},
		Insensitive: "dropped: the release holds the generalized quasi-identifiers and the sensitive attribute only",
		Charts:      "Sampling",
		ChartParams: []string{paramRate, paramMaxDist},
		Certifies: "every published record's observed confidence beta·#s/|E| is at most its expected confidence 1-(1-Pr(t))^n " +
			"under the public marginals the manifest lists (Eq. 3), and its distortion is at most delta'; " +
			"it assumes the quasi-identifiers and the sensitive value independent (Definition 5), and sampling makes an individual's presence uncertain, not hidden",
		Example: method.Example{Input: "dataset:census",
			Roles:  model.Roles{QIs: []string{"age", "sex", "education", "marital-status", "race", "native-country"}, SA: "occupation"},
			Params: model.Values{paramRate: "0.9", paramMaxDist: "0.6", "seed": "3"},
			Query:  "COUNT(*) WHERE age BETWEEN 30 AND 39 AND sex = 'Female' AND occupation = 'Sales'"},
		Study:     study,
		Baselines: []method.Baseline{mondrian},
		Grid:      grid,
	}
}

// run is the state a Result's closures share.
type run struct {
	in      *method.Input
	values  model.Values
	beta    float64
	maxDist float64
	qiCols  []*model.Column
	sa      *model.Column
	attrs   []Attribute
	tax     []*taxonomy
	leaf    [][]int32 // per QI: column code -> taxonomy leaf
	saVals  []Value   // the sensitive values' public probabilities, by value
	saP     []float64 // Pr(s) per code of the SA column
	margins marginals
	minGen  map[string]int
	rec     *recoder
	plain   bool // the recoder's plain looks (recoder.plain; tests)
	sampled int
	// pub lists the recoder's non-empty groups, in Result.Groups order.
	pub []int32
	res *method.Result
}

// Run samples, generalizes and suppresses (Algorithm 1).
func (Method) Run(ctx context.Context, in *method.Input) (*method.Result, error) {
	r, err := execute(ctx, in)
	if err != nil {
		return nil, err
	}
	return r.res, nil
}

// execute is Run keeping the run's state (tests read the recoder's step
// and pass counts from it).
func execute(ctx context.Context, in *method.Input) (*run, error) {
	return executeWith(ctx, in, false)
}

// executeWith is execute, with the recoder's plain looks when plain is
// set (the test that the shortcuts change nothing).
func executeWith(ctx context.Context, in *method.Input, plain bool) (*run, error) {
	spec := Method{}.Spec()
	cfg, err := Decode(in.Values, in.Table.Rows)
	if err != nil {
		return nil, err
	}
	r := &run{in: in, values: cfg.Values, beta: cfg.Rate.Float(), maxDist: cfg.MaxDistortion.Float(), plain: plain}
	if err := r.prepare(); err != nil {
		return nil, err
	}
	if err := r.anonymize(ctx, cfg.Seed); err != nil {
		return nil, err
	}
	r.result(spec)
	return r, nil
}

// prepare reads the columns, the public marginals and the taxonomies.
func (r *run) prepare() error {
	in := r.in
	if len(in.Roles.QIs) == 0 {
		return &model.ParamError{Param: "qi", Reason: "sampling needs at least one quasi-identifier", Fixes: []model.Fix{{Setting: model.SetQI}}}
	}
	cols, err := in.Table.MustColumns("qi", in.Roles.QIs)
	if err != nil {
		return err
	}
	r.qiCols = cols
	if r.sa = in.Table.Column(in.Roles.SA); r.sa == nil {
		return &model.ParamError{Param: "sa", Value: in.Roles.SA, Reason: "no such column", Fixes: []model.Fix{{Setting: model.SetSA}}}
	}
	used := append(append([]string(nil), in.Roles.QIs...), in.Roles.SA)
	if src := strings.TrimSpace(format.ParamMarginals.Of(r.values)); src == "" || src == format.MarginalsTable {
		r.margins = tableMarginals(in.Table, used)
		if in.Whole != nil {
			r.margins = wholeMarginals(in.Whole, used)
		}
	} else if r.margins, err = readMarginals(src, in.Table, used); err != nil {
		return err
	}
	for i, name := range in.Roles.QIs {
		h := in.Hierarchies[name]
		if h == nil {
			if h, err = hierarchy.Build("auto", cols[i]); err != nil {
				return err
			}
		}
		leafOf, err := h.MapColumn(cols[i])
		if err != nil {
			return &model.ParamError{Param: "hierarchy " + name, Reason: err.Error(), Hint: "the hierarchy must list every value of the column"}
		}
		pre := preorder(h)
		leaf := make([]int32, len(leafOf))
		for code, n := range leafOf {
			leaf[code] = pre[n]
		}
		r.leaf = append(r.leaf, leaf)
		prob := r.margins.lookup(name)
		a := exportAttribute(h, name, func(n int) float64 { return prob(h.Nodes[n].Label) })
		t, err := newTaxonomy(a)
		if err != nil {
			return &model.ParamError{Param: "hierarchy " + name, Reason: err.Error(),
				Hint: "a release names each generalized value by its label, so labels must be unique and the values' probabilities a distribution"}
		}
		r.attrs = append(r.attrs, a)
		r.tax = append(r.tax, t)
	}
	prob := r.margins.lookup(in.Roles.SA)
	r.saP = make([]float64, len(r.sa.Dict))
	seen := map[string]bool{}
	for code, v := range r.sa.Dict {
		r.saP[code] = prob(v)
		seen[v] = true
		r.saVals = append(r.saVals, Value{Value: v, P: r.saP[code]})
	}
	for v, p := range r.margins.p[in.Roles.SA] {
		if !seen[v] {
			r.saVals = append(r.saVals, Value{Value: v, P: p})
		}
	}
	sort.Slice(r.saVals, func(i, j int) bool { return r.saVals[i].Value < r.saVals[j].Value })
	g, _ := parseMinGen(format.ParamMinGeneralization.Of(r.values))
	if r.minGen, err = g.resolve(in.Roles.QIs, r.tax); err != nil {
		return err
	}
	return nil
}

// anonymize is Algorithm 1: sample (step 1), minimum generalization (step
// 3), then local recoding and suppression (steps 4-19).
func (r *run) anonymize(ctx context.Context, seed uint64) error {
	in := r.in
	d, leaf := len(r.tax), r.leaf
	// Step 1-2: a simple random sample of n = floor(beta n') records, so
	// the chance of any record to be published is at most beta
	// (Definition 7).
	rows := in.Table.Rows
	r.sampled = format.ParamRate.Of(r.values).Floor(rows) // exactly: 0.9 x 10 is 9
	rng := model.NewRand(seed ^ 0x736d706c696e6721)       // its own stream, not the shuffle's
	perm := make([]int32, rows)
	for i := range perm {
		perm[i] = int32(i)
	}
	for i := 0; i < r.sampled; i++ {
		j := i + rng.Intn(rows-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	sample := perm[:r.sampled]
	// Step 3: minimum generalization.
	levels := make([]int, d)
	for i, q := range in.Roles.QIs {
		levels[i] = r.minGen[q]
	}
	rec, err := newRecoder(r.tax, r.beta, format.ParamMaxDistortion.Of(r.values), r.saP)
	if err != nil {
		return err
	}
	rec.withinLimit = in.VariantOr(Method{}.Spec()) == VariantWithinLimit
	rec.plain = r.plain
	r.rec = rec
	nodes := make([]int32, d)
	minDist := math.Inf(1)
	for k, row := range sample {
		if k&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for i, c := range r.qiCols {
			nodes[i] = r.tax[i].up(leaf[i][c.Codes[row]], levels[i])
		}
		n0 := len(rec.supp)
		rec.add(row, nodes, int32(r.sa.Codes[row]))
		if len(rec.supp) > n0 {
			g := rec.groupOf(nodes)
			minDist = math.Min(minDist, rec.groups[g].dist)
		}
	}
	if r.sampled > 0 && len(rec.supp) == r.sampled {
		return &model.ParamError{Param: paramMaxDist, Value: format.ParamMaxDistortion.Text(r.values),
			Reason: fmt.Sprintf("the minimum generalization (%s) alone has distortion %.3f, so no record can be published", format.ParamMinGeneralization.Of(r.values), minDist),
			Fixes: []model.Fix{{Setting: model.SetParam, Param: paramMaxDist, Change: model.Raise, Value: fmt.Sprintf("%.3f", minDist)},
				{Setting: model.SetParam, Param: paramMinGen, Change: model.Lower}}}
	}
	if in.Progress != nil {
		in.Progress(0.3)
	}
	if err := rec.run(ctx, r.sampled); err != nil {
		return err
	}
	for gi := range rec.groups {
		if rec.groups[gi].size > 0 {
			r.pub = append(r.pub, int32(gi))
		}
	}
	if in.Progress != nil {
		in.Progress(1)
	}
	return nil
}

// cellFigures are the figures of one published cell.
type cellFigures struct {
	observed, expected, margin float64
}

// nearCap reports whether the cell's records are within 5% of their cap:
// observed >= 95% of expected confidence.
func (f cellFigures) nearCap() bool {
	return f.expected > 0 && f.observed >= nearCapShare*f.expected
}

func (r *run) cellFigures(c *cell) cellFigures {
	g := &r.rec.groups[c.group]
	obs := ObservedConfidence(r.beta, len(c.rows), g.size)
	exp := ExpectedConfidence(RecordProbability(r.groupMasses(c.group), r.saP[c.sa]), r.published())
	return cellFigures{observed: obs, expected: exp, margin: exp - obs}
}

// groupMasses lists Pr(q'_i) of a group's generalized values.
func (r *run) groupMasses(g int32) []float64 {
	nodes := r.rec.groups[g].nodes
	out := make([]float64, len(nodes))
	for i, x := range nodes {
		out[i] = r.tax[i].mass[x]
	}
	return out
}

func (r *run) published() int { return r.rec.published(r.sampled) }

// result builds the Result: one group per equivalence group of the
// published set, its figures those of its record closest to the cap.
func (r *run) result(spec method.Spec) *method.Result {
	rec := r.rec
	n := r.published()
	res := &method.Result{Spec: spec, Values: r.values, RowsIn: r.in.Table.Rows, Published: n,
		Suppressed: len(rec.supp), Workload: workload.CountIn}
	worstMargin, worstDist, sumDist, near := math.Inf(1), 0.0, 0.0, 0
	distOK := true // every published group within delta', exactly
	for i, gi := range r.pub {
		g := &rec.groups[gi]
		var rows []int32
		best := cellFigures{margin: math.Inf(1)}
		groupNear := 0
		for _, ci := range g.cells {
			c := &rec.cells[ci]
			if len(c.rows) == 0 {
				continue
			}
			rows = append(rows, c.rows...)
			f := r.cellFigures(c)
			if f.margin < best.margin {
				best = f
			}
			if f.nearCap() {
				groupNear += len(c.rows)
			}
		}
		mg := method.Group{ID: i + 1, Rows: rows, QI: r.labels(gi), SAHist: release.SAHist(r.in, rows),
			Figures: []float64{best.observed, best.expected, best.margin, capShare(best), g.dist, float64(groupNear)},
			Limits:  []float64{best.expected, 0, 0, 0, 0, 0},
			Exact:   []*big.Rat{nil, nil, nil, nil, rec.scale.rat(g.units), nil}}
		distOK = distOK && rec.scale.within(rec.delta, g.units)
		mg.Judge(spec, r.values)
		res.Groups = append(res.Groups, mg)
		worstMargin = math.Min(worstMargin, best.margin)
		worstDist = math.Max(worstDist, g.dist)
		sumDist += g.dist * float64(g.size)
		near += groupNear
	}
	if len(r.pub) == 0 {
		worstMargin = 0
	}
	avgDist := sumDist / math.Max(1, float64(n))
	rows := float64(max(1, r.in.Table.Rows))
	res.Summary = []releasedir.Figure{
		{Name: "worst margin (expected - observed confidence)", Short: "margin", Value: worstMargin, Limit: ">= 0",
			OK: worstMargin >= 0, Bar: true},
		{Name: "max distortion", Short: "max δ", Value: worstDist, Limit: format.ParamMaxDistortion.Text(r.values), OK: distOK},
		{Name: "published %", Value: 100 * float64(n) / rows, OK: true},
		{Name: "suppressed %", Short: "suppr %", Value: 100 * float64(len(rec.supp)) / rows, OK: true, Bar: true},
		{Name: "unsampled %", Value: 100 * float64(r.in.Table.Rows-r.sampled) / rows, OK: true},
		{Name: "average distortion", Value: avgDist, OK: true},
		{Name: "average group size (Avg.k)", Value: float64(n) / math.Max(1, float64(len(r.pub))), OK: true},
		{Name: "records within 5% of their cap", Value: float64(near), OK: true},
	}
	res.Utility = releasedir.Figure{Name: "average distortion", Short: "avg δ", Value: avgDist, OK: true}
	res.Notes = r.notes()
	res.Files = []releasedir.FileEntry{{Name: format.FilePublished, Rows: n}}
	r.res = res
	res.Answerer = r.index()
	res.Detail = r.detail
	res.Charts = r.charts
	res.Release = r.release
	return res
}

// capShare is observed / expected in percent (0 when both are 0).
func capShare(f cellFigures) float64 {
	if f.expected <= 0 {
		if f.observed > 0 {
			return math.Inf(1)
		}
		return 0
	}
	return 100 * f.observed / f.expected
}

// labels are a group's generalized values.
func (r *run) labels(g int32) []string {
	nodes := r.rec.groups[g].nodes
	out := make([]string, len(nodes))
	for i, x := range nodes {
		out[i] = r.tax[i].label[x]
	}
	return out
}

func (r *run) notes() []string {
	rows := r.in.Table.Rows
	out := []string{
		fmt.Sprintf("sampling rate %s: %d of %d records sampled; %d published, %d suppressed, %d not sampled (Algorithm 1, %d steps in %d passes)",
			model.FormatNumber(r.beta), r.sampled, rows, r.published(), len(r.rec.supp), rows-r.sampled, r.rec.steps, r.rec.passes),
	}
	var mg []string
	for _, q := range r.in.Roles.QIs {
		if l := r.minGen[q]; l > 0 {
			mg = append(mg, fmt.Sprintf("%s %d level(s) up", q, l))
		}
	}
	if len(mg) == 0 {
		mg = []string{"none"}
	}
	out = append(out, "minimum generalization: "+strings.Join(mg, ", "))
	if r.margins.source == "table" {
		out = append(out, "public marginals: the table's own (as the paper's experiments, Section 6); the manifest publishes them")
	} else {
		out = append(out, "public marginals: from the marginals file")
	}
	return append(out, r.margins.notes...)
}
