package distribution

import (
	"context"
	"fmt"
	"math"
	"privlab/algorithms/distribution/format"
	"runtime"
	"sort"
	"strings"
	"sync"

	"privlab/algorithms/method"
	"privlab/algorithms/release"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/releasedir"
)

// Method is distribution-based anonymization as a registered method.
type Method struct{}

// Name is the method's command-line name.
const Name = "distribution"

// Figure positions, in Spec().Figures order.
const (
	FigDist = iota
	FigSOR
	FigFakes
	FigConfidence
	FigImpossible
	FigPosterior
)

// maxConfidence is the highest P'(v) a group's target may give one value:
// at 1 every tuple's value is disclosed with certainty (a degenerate
// target, e.g. a group's own distribution when the group holds one value).
const maxConfidence = 1 - 1e-6

// Spec declares the method's parameters and per-group figures.
// farEMD and farMaxAbs are the distances between the effective and the
// requested target above which the run warns that bounded weights moved
// the target (SPEC 2.4's Adult example stays well under them at 8).
const (
	farEMD    = 0.05
	farMaxAbs = 0.1
)

func (Method) Spec() method.Spec {
	return method.Spec{
		Name:    Name,
		Title:   "Distribution-based anonymization: SA generalization, permutation and fake values",
		Paper:   "Koudas, Srivastava, Yu, Zhang 2009, Sections 3-5",
		NeedsSA: true,
		Params:  []model.ParamSpec{targetParam, maxDenParam, groupingParam, fakesParam, model.SeedParam},
		Figures: []method.Figure{
			{Key: "dist", Label: "target dist", Digits: 3,
				Help: "EMD between the group's original SA distribution and the effective target"},
			{Key: "sor", Label: "sum ranges", Digits: -1,
				Help: "sum of the ranges of the group's generalized subdomains (Section 4.1)"},
			{Key: "fakes", Label: "fakes", Digits: -1,
				Help: "fake SA values added to the group (Section 5)"},
			{Key: "conf", Label: "max P'(v)", Digits: 3, Rule: method.AtMost, Limit: maxConfidence,
				Help: "the largest probability the group's target gives one value: an attacker's confidence in the likeliest value of any tuple; 1 discloses every value"},
			{Key: "zero", Label: "P'(v)=0", Digits: -1, Rule: method.AtMost, Limit: 0,
				Help: "members whose value has probability 0 under the target: their subdomain would betray them"},
			{Key: "post", Label: "posterior dev", Digits: 3, Rule: method.AtMost, Limit: 0,
				Help: "max |P(x=v | released group) - P'(v)|: 0 means every tuple's SA follows the effective target (Definition 3.2)"},
		},
		Files:       []string{format.FileQI, format.FileSA, format.FileHierarchy, format.FileDomain},
		Insensitive: "dropped: the release holds the quasi-identifiers and the generalized sensitive attribute only",
		// Groups of at least k (Mondrian), each following the table's own
		// distribution: the grouping decoupled from privacy (Section 1).
		Compare: func(k int, _ *model.Table, _ model.Roles, _ bool) (string, model.Values) {
			return "", model.Values{paramGrouping: fmt.Sprintf("mondrian:%d", k), paramTarget: "table"}
		},
		// Figure 2 of Koudas et al. 2009 generalizes the employees' salaries
		// towards the uniform distribution.
		// The advisor's grid: Mondrian groups of growing size, each
		// following the table's own distribution (as Compare sets it).
		Grid: func(t *model.Table, _ model.Roles, _ bool) []method.GridPoint {
			return method.GroupSizeGrid(t.Rows, "", model.Values{paramTarget: "table"}, paramGrouping, func(k int) string { return fmt.Sprintf("mondrian:%d", k) })
		},
		ForDataset: map[string]model.Values{"employees": {paramTarget: "uniform"},
			"census": {paramGrouping: "mondrian:50"}},
		Charts:      "Target",
		ChartParams: []string{paramTarget, paramMaxDen},
		Certifies: "every tuple's sensitive value appears to follow the effective target distribution (Definition 3.2); " +
			"the quasi-identifiers are published unchanged, so presence and re-identification are not hidden",
		Estimate: estimate,
		Example: method.Example{Input: "dataset:employees", Roles: model.Roles{QIs: []string{"zipcode", "gender"}, SA: "salary"},
			Params: model.Values{paramGrouping: "level:zipcode=2", paramTarget: "uniform", "seed": "1"},
			Query:  "AVG(salary) WHERE gender = 'F'"},
	}
}

// estimate predicts the run's time: the fake-value search dominates it,
// (t+1)^2 steps per hierarchy node for a group with budget t (Theorem 2).
// Percentage budgets need the groups' sizes, so the grouping is formed
// (it is fast next to the search it announces).
func estimate(in *method.Input) (float64, string) {
	fakes, err := ParseFakes(format.ParamFakes.Of(in.Values))
	if err != nil || !fakes.Any() {
		return 0, ""
	}
	h := in.Hierarchies[in.Roles.SA]
	nodes := 1
	if h != nil {
		nodes = len(h.Nodes)
	}
	var sizes []int
	if g, err := ParseGrouping(format.ParamGrouping.Of(in.Values)); err == nil {
		if rows, err := g.Groups(context.Background(), in); err == nil {
			for _, r := range rows {
				sizes = append(sizes, len(r))
			}
		}
	}
	if sizes == nil {
		sizes = []int{in.Table.Rows}
	}
	units, largest, most := 0.0, 0.0, 0
	for _, n := range sizes {
		t := fakes.For(n)
		units += fakeWork(t)
		largest = math.Max(largest, fakeWork(t))
		most = max(most, t)
	}
	// Groups are solved in parallel, but a group on one core.
	work := math.Max(largest, units/float64(max(1, runtime.GOMAXPROCS(0))))
	secs := work * float64(nodes) * secondsPerUnit
	return secs, fmt.Sprintf("fake values: up to %d in a group of %d groups; the search grows with the square of the budget (Koudas et al. 2009, Theorem 2)", most, len(sizes))
}

// group is one solved group.
type group struct {
	rows []int32
	// leaves holds the SA leaf node of each member, aligned with rows.
	leaves []int32
	gen    *Generalization
	ann    *Annotated // the group's target (shared unless per-group)
}

// run is the state a Result's closures share.
type run struct {
	in       *method.Input
	sa       *model.Column
	h        *hierarchy.Hierarchy
	global   *Annotated // nil with per-group targets
	perGroup bool
	target   Target
	maxDen   int
	grouping Grouping
	groups   []group
	bounds   *boundsIndex
	// tableCounts counts the table's SA values per leaf position.
	tableCounts []float64
	res         *method.Result
	once        sync.Once
}

// Run anonymizes the input: it forms the groups, builds the target of each
// and solves every group (in parallel; each group is independent).
func (Method) Run(ctx context.Context, in *method.Input) (*method.Result, error) {
	spec := Method{}.Spec()
	cfg, err := Decode(in.Values, in.Table.Rows)
	if err != nil {
		return nil, err
	}
	values, grouping, target, maxDen := cfg.Values, cfg.Grouping, cfg.Target, cfg.MaxDenominator
	sa := in.Table.Column(in.Roles.SA)
	if sa == nil {
		return nil, &model.ParamError{Param: "sa", Value: in.Roles.SA, Reason: "no such column"}
	}
	h := in.Hierarchies[in.Roles.SA]
	if h == nil {
		if h, err = hierarchy.Build("binary", sa); err != nil {
			return nil, err
		}
	}
	if err := h.CheckIntervals(); err != nil {
		return nil, &model.ParamError{Param: "hierarchy " + sa.Name, Reason: err.Error(),
			Hint: "ternary and intervals:W build trees of intervals too", Fixes: []model.Fix{{Setting: model.SetHierarchy, Attr: sa.Name, Value: "binary"}}}
	}
	leafOf, err := h.MapColumn(sa)
	if err != nil {
		return nil, &model.ParamError{Param: "hierarchy " + sa.Name, Reason: err.Error(),
			Hint: "the SA domain is the hierarchy's leaves; list every value of the column in it"}
	}
	r := &run{in: in, sa: sa, h: h, grouping: grouping, target: target, maxDen: maxDen,
		perGroup: target.Kind == TargetGroup || target.Kind == TargetGroupUniform}
	if fakes := cfg.Fakes; fakes.Any() && !h.IsBinary() {
		return nil, &model.ParamError{Param: paramFakes, Value: format.ParamFakes.Of(values), Reason: ErrFakesNeedBinary.Error(),
			Hint:  fmt.Sprintf("the hierarchy of %s has a node with %d children", sa.Name, h.MaxArity()),
			Fixes: []model.Fix{{Setting: model.SetHierarchy, Attr: sa.Name, Value: "binary"}}}
	}

	tableCounts, err := tableLeafCounts(in, sa, h, leafOf)
	if err != nil {
		return nil, err
	}
	r.tableCounts = tableCounts
	if !r.perGroup {
		masses, err := target.Masses(h, tableCounts)
		if err != nil {
			return nil, err
		}
		r.global = Annotate(h, masses, maxDen)
	}

	rowsByGroup, err := grouping.Groups(ctx, in)
	if err != nil {
		return nil, err
	}
	r.groups = make([]group, len(rowsByGroup))
	for i, rows := range rowsByGroup {
		leaves := make([]int32, len(rows))
		for j, row := range rows {
			leaves[j] = int32(leafOf[sa.Codes[row]])
		}
		r.groups[i] = group{rows: rows, leaves: leaves}
	}
	if err := r.solveAll(ctx, cfg.Fakes); err != nil {
		return nil, err
	}
	return r.result(spec, values, target)
}

// solveAll solves the groups on all cores, largest groups first.
func (r *run) solveAll(ctx context.Context, fakes Fakes) error {
	order := make([]int, len(r.groups))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(r.groups[order[a]].rows) > len(r.groups[order[b]].rows) })
	workers := runtime.GOMAXPROCS(0)
	if workers > len(order) {
		workers = len(order)
	}
	var (
		next    int
		done    float64 // units of fakeWork
		mu      sync.Mutex
		wg      sync.WaitGroup
		firstEr error
	)
	total := 0.0
	for _, g := range r.groups {
		total += fakeWork(fakes.For(len(g.rows)))
	}
	lastReport := 0.0
	// tick adds finished work and reports progress every 1% or so.
	tick := func(units float64) {
		mu.Lock()
		done += units
		if r.in.Progress != nil && done-lastReport >= total/200 {
			lastReport = done
			r.in.Progress(done / total)
		}
		mu.Unlock()
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var solver *Solver
			if !r.perGroup {
				solver = NewSolver(r.global)
			}
			for {
				mu.Lock()
				if next >= len(order) || firstEr != nil {
					mu.Unlock()
					return
				}
				gi := order[next]
				next++
				mu.Unlock()
				if err := ctx.Err(); err != nil {
					mu.Lock()
					firstEr = err
					mu.Unlock()
					return
				}
				g := &r.groups[gi]
				s := solver
				if r.perGroup {
					g.ann = r.groupTarget(g)
					s = NewSolver(g.ann)
				} else {
					g.ann = r.global
				}
				budget := fakes.For(len(g.rows))
				gen, err := s.solve(ctx, g.leaves, budget, tick)
				mu.Lock()
				if err != nil && firstEr == nil {
					firstEr = err
				}
				g.gen = gen
				mu.Unlock()
				if budget <= 0 {
					tick(1)
				}
			}
		}()
	}
	wg.Wait()
	return firstEr
}

// groupTarget is the target of one group. For "group" it is the group's
// own distribution with exact ratios: the identity target, under which
// only permutation happens (SPEC 2.4). For "group-uniform" it is uniform
// over the group's own value range (Koudas et al. 2009, Section 6.4),
// with the configured denominator bound.
func (r *run) groupTarget(g *group) *Annotated {
	counts := make([]float64, len(r.h.Leaves))
	for _, l := range g.leaves {
		counts[r.h.LeafPos(int(l))]++
	}
	m, _ := r.target.Masses(r.h, counts)
	if r.target.Kind == TargetGroup {
		// Exact integer counts: Annotate with 0 keeps the ratios exact.
		return Annotate(r.h, counts, 0)
	}
	return Annotate(r.h, m, r.maxDen)
}

// posterior returns P(x = v | released group) per leaf position: the
// average over the group's subdomains of P'(v | subdomain).
func posterior(a *Annotated, gen *Generalization) []float64 {
	h := a.H
	amount := make(map[int]float64, len(gen.Copies))
	total := 0.0
	for _, c := range gen.Copies {
		amount[int(c.Node)] += float64(c.Count)
		total += float64(c.Count)
	}
	out := make([]float64, len(h.Leaves))
	if total == 0 {
		return out
	}
	// Push each node's mass down to its leaves by the weight shares.
	var push func(n int, m float64)
	push = func(n int, m float64) {
		nd := h.Nodes[n]
		if len(nd.Children) == 0 {
			out[nd.First] += m / total
			return
		}
		for _, c := range nd.Children {
			if a.Weight[c] > 0 {
				push(c, m*a.ChildShare(c))
			}
		}
	}
	for n, m := range amount {
		push(n, m)
	}
	return out
}

// result gathers a run's groups, figures, warnings and files into the
// method's result.
func (r *run) result(spec method.Spec, values model.Values, target Target) (*method.Result, error) {
	res := &method.Result{Spec: spec, Values: values, RowsIn: r.in.Table.Rows, Published: r.in.Table.Rows,
		Workload: workload.AvgRange}
	if !r.h.Numeric {
		res.Workload = workload.CountIn
	}
	var t runTotals
	for i := range r.groups {
		mg, gt := r.groupResult(i, spec, values)
		res.Groups = append(res.Groups, mg)
		t.add(gt)
	}
	res.Summary = r.summary(t)
	res.Utility = releasedir.Figure{Name: "sum of ranges", Short: "ranges", Value: t.sumOfRanges, OK: true}
	res.Notes = append(res.Notes, fmt.Sprintf("grouping %s, target %s, max denominator %s", r.grouping, target, format.ParamMaxDenominator.Text(values)))
	res.Warnings = append(res.Warnings, r.usefulnessWarnings(t.subdomains)...)
	res.Files = []releasedir.FileEntry{{Name: format.FileQI, Rows: r.in.Table.Rows}, {Name: format.FileSA, Rows: t.subdomains},
		{Name: format.FileHierarchy, Rows: len(r.h.Nodes)}, {Name: format.FileDomain, Rows: len(r.h.Leaves)}}
	if r.perGroup {
		res.Files = append(res.Files, releasedir.FileEntry{Name: format.FileGroupWeights, Rows: len(r.groups) * len(r.h.Nodes)})
	}
	r.res = res
	res.Answerer = r
	res.Detail = r.detail
	res.Charts = r.charts
	res.Release = func(seed uint64) (*releasedir.Release, map[string][]int, error) {
		return r.release(seed, values, target)
	}
	return res, nil
}

// runTotals are a run's figures over its groups: sums and worst values.
type runTotals struct {
	sumOfRanges float64
	fakes       int
	subdomains  int
	worstPost   float64 // posterior deviation from the target
	worstDist   float64 // EMD from the group's original distribution
	worstConf   float64 // largest P'(v)
	impossible  int     // members whose own value has P'(v) = 0
}

// add counts one group's figures into the totals.
func (t *runTotals) add(g runTotals) {
	t.sumOfRanges += g.sumOfRanges
	t.fakes += g.fakes
	t.subdomains += g.subdomains
	t.worstPost = math.Max(t.worstPost, g.worstPost)
	t.worstDist = math.Max(t.worstDist, g.worstDist)
	t.worstConf = math.Max(t.worstConf, g.worstConf)
	t.impossible += g.impossible
}

// groupResult is group i's preview entry and figures: its distance from
// its original distribution, ranges, fakes, largest P'(v), members made
// impossible, and the posterior's deviation from the target (Koudas et
// al. 2009, Sections 3-5).
func (r *run) groupResult(i int, spec method.Spec, values model.Values) (method.Group, runTotals) {
	h := r.h
	g := &r.groups[i]
	orig := make([]float64, len(h.Leaves))
	for _, l := range g.leaves {
		orig[h.LeafPos(int(l))] += 1 / float64(len(g.leaves))
	}
	post := posterior(g.ann, g.gen)
	dev := 0.0
	for j := range post {
		if d := math.Abs(post[j] - g.ann.Effective[j]); d > dev {
			dev = d
		}
	}
	if dev < 1e-12 {
		dev = 0 // floating-point noise; verification checks exactly
	}
	dist := EMD(h.Numeric, orig, g.ann.Effective)
	conf, impossible := 0.0, 0
	for j, p := range g.ann.Effective {
		conf = math.Max(conf, p)
		if p == 0 && orig[j] > 0 {
			impossible += int(math.Round(orig[j] * float64(len(g.leaves))))
		}
	}
	mg := method.Group{
		ID:      i + 1,
		Rows:    g.rows,
		QI:      release.QISummary(r.in, g.rows),
		SAHist:  histBins(h, g.leaves, 8),
		Figures: []float64{dist, g.gen.SumOfRanges, float64(g.gen.NumFakes), conf, float64(impossible), dev},
	}
	for fi, f := range spec.Figures {
		if f.Violated(mg.Figures[fi], values) {
			mg.Violation = true
		}
	}
	mg.AtRoot = len(g.gen.Copies) == 1 && g.gen.Copies[0].Node == 0
	return mg, runTotals{sumOfRanges: g.gen.SumOfRanges, fakes: g.gen.NumFakes, subdomains: g.gen.Size(),
		worstPost: dev, worstDist: dist, worstConf: conf, impossible: impossible}
}

// summary is the run's summary figures: the privacy checks first, then
// size and utility, then the effective target's distance from the one
// asked for.
func (r *run) summary(t runTotals) []releasedir.Figure {
	sum := []releasedir.Figure{
		{Name: "posterior deviation (max)", Short: "posterior ≠ target", Value: t.worstPost, Limit: "0", OK: t.worstPost <= 1e-9},
		{Name: "max P'(v) in a group", Short: "max P'(v)", Value: t.worstConf, Limit: "< 1", OK: t.worstConf <= maxConfidence},
		{Name: "members with P'(v) = 0", Short: "P'(v)=0 members", Value: float64(t.impossible), Limit: "0", OK: t.impossible == 0},
		{Name: "groups", Value: float64(len(r.groups)), OK: true},
		{Name: "sum of ranges", Value: t.sumOfRanges, OK: true},
		{Name: "avg range per subdomain", Value: t.sumOfRanges / math.Max(1, float64(t.subdomains)), OK: true},
		{Name: "fake values", Value: float64(t.fakes), OK: true},
		{Name: "target distance (max EMD)", Value: t.worstDist, OK: true},
	}
	if r.global != nil {
		sum = append(sum,
			releasedir.Figure{Name: "effective vs requested target EMD", Value: r.global.EMD(), OK: true},
			releasedir.Figure{Name: "effective vs requested target max |diff|", Value: r.global.MaxAbs(), OK: true})
	}
	return sum
}

// usefulnessWarnings flags a release private but of little use: most
// values at the root, or a target far from the one asked for.
func (r *run) usefulnessWarnings(subdomains int) []string {
	var warnings []string
	atRoot := 0
	for i := range r.groups {
		for _, c := range r.groups[i].gen.Copies {
			if c.Node == 0 {
				atRoot += int(c.Count)
			}
		}
	}
	if subdomains > 0 && atRoot*2 > subdomains {
		warnings = append(warnings, fmt.Sprintf("%.0f%% of the sensitive values are generalized to the whole domain: the release says little about them",
			100*float64(atRoot)/float64(subdomains)))
	}
	if r.global != nil && (r.global.EMD() > farEMD || r.global.MaxAbs() > farMaxAbs) {
		warnings = append(warnings, fmt.Sprintf("the effective target is far from the requested one (EMD %.3f, above %.2f, or max |P'-P| %.3f, above %.2f): raise max-denominator",
			r.global.EMD(), farEMD, r.global.MaxAbs(), farMaxAbs))
	}
	return warnings
}

// histBins counts a group's SA leaves into at most bins buckets of the
// domain (the preview's sparkline).
func histBins(h *hierarchy.Hierarchy, leaves []int32, bins int) []int32 {
	pos := make([]int32, len(leaves))
	for i, l := range leaves {
		pos[i] = int32(h.LeafPos(int(l)))
	}
	return release.HistBins(len(h.Leaves), pos, bins)
}

// detail shows a group's members with their original and generalized SA
// (the first limit of them, then the fakes), and the group's original,
// target and released distributions.
func (r *run) detail(i, limit int) method.Detail {
	g := &r.groups[i]
	h := r.h
	sa := r.in.Roles.SA
	members := method.Section{
		Header: append(append([]string(nil), r.in.Roles.QIs...), sa+" original", sa+" published"),
		Total:  len(g.rows) + g.gen.NumFakes}
	for j, row := range g.rows {
		if j >= limit {
			break
		}
		var line []string
		for _, name := range r.in.Roles.QIs {
			line = append(line, r.in.Table.Column(name).Value(int(row)))
		}
		line = append(line, r.sa.Value(int(row)), r.subdomainText(int(g.gen.Assign[j])))
		members.Rows = append(members.Rows, line)
	}
	// The fakes: copies not taken by a real value.
	used := map[int32]int32{}
	for _, n := range g.gen.Assign {
		used[n]++
	}
	fakes := 0
	for _, c := range g.gen.Copies {
		for k := used[c.Node]; k < c.Count && fakes < min(g.gen.NumFakes, limit); k++ {
			line := make([]string, len(r.in.Roles.QIs))
			for q := range line {
				line[q] = "(fake)"
			}
			members.Rows = append(members.Rows, append(line, "—", r.subdomainText(int(c.Node))))
			fakes++
		}
	}
	chart := method.Section{}
	for _, l := range h.Leaves {
		chart.Labels = append(chart.Labels, h.Nodes[l].Label)
	}
	orig := make([]float64, len(h.Leaves))
	for _, l := range g.leaves {
		orig[h.LeafPos(int(l))] += 1 / float64(len(g.leaves))
	}
	chart.Series = []method.Series{
		{Name: "original", Values: orig},
		{Name: "target", Values: g.ann.Effective},
		{Name: "released", Values: posterior(g.ann, g.gen)},
	}
	d := method.Detail{}
	if g.gen.NumFakes > 0 {
		var fs []string
		for _, f := range g.gen.Fakes {
			fs = append(fs, fmt.Sprintf("%s x%d", h.Nodes[f.Node].Label, f.Count))
		}
		d.Sections = append(d.Sections, method.Section{Notes: []string{"fake values: " + strings.Join(fs, ", ")}})
	}
	d.Sections = append(d.Sections, members, chart)
	return d
}

// charts draws the table's SA distribution, the requested target and the
// effective target P' the bounded-denominator weights give, with their
// distance (SPEC 2.4). Per-group targets are drawn for the whole table.
func (r *run) charts() []method.Section {
	h := r.h
	total := 0.0
	for _, c := range r.tableCounts {
		total += c
	}
	table := make([]float64, len(r.tableCounts))
	for i, c := range r.tableCounts {
		table[i] = c / math.Max(1, total)
	}
	ann := r.global
	sec := method.Section{Title: fmt.Sprintf("%s: table vs requested vs effective P'", r.in.Roles.SA)}
	if ann == nil {
		t := Target{Kind: TargetTable}
		m, err := t.Masses(h, r.tableCounts)
		if err != nil {
			return []method.Section{{Notes: []string{err.Error()}}}
		}
		ann = Annotate(h, m, r.maxDen)
		sec.Notes = []string{r.target.String() + ": each group has its own target (shown: the whole table)"}
	} else {
		sec.Notes = []string{fmt.Sprintf("EMD(P', P) %.4f · max |P' - P| %.4f", ann.EMD(), ann.MaxAbs())}
	}
	for _, l := range h.Leaves {
		sec.Labels = append(sec.Labels, h.Nodes[l].Label)
	}
	sec.Series = []method.Series{{Name: "table", Values: table}, {Name: "requested", Values: ann.Requested}, {Name: "effective", Values: ann.Effective}}
	return []method.Section{sec}
}

func (r *run) subdomainText(n int) string {
	lo, hi := r.h.Bounds(n)
	if lo == hi {
		return lo
	}
	return "[" + lo + ", " + hi + "]"
}

// tableLeafCounts counts the table's SA values per leaf position, for the
// table target (Koudas et al. 2009, Section 3): the whole input's when
// the table is one partition of it (method.Input.Whole), so that every
// partition is held to the same target.
func tableLeafCounts(in *method.Input, sa *model.Column, h *hierarchy.Hierarchy, leafOf []int) ([]float64, error) {
	counts := make([]float64, len(h.Leaves))
	if in.Whole == nil {
		for row := 0; row < in.Table.Rows; row++ {
			if code := sa.Codes[row]; code != model.Missing {
				counts[h.LeafPos(leafOf[code])]++
			}
		}
		return counts, nil
	}
	for v, n := range in.Whole.Counts[sa.Name] {
		leaf, ok := h.Leaf(v)
		if !ok {
			return nil, &model.ParamError{Param: "hierarchy " + sa.Name, Value: v, Reason: "a value of the whole input is no leaf of the hierarchy",
				Hint: "the SA domain is the hierarchy's leaves; list every value of the column in it"}
		}
		counts[h.LeafPos(leaf)] += float64(n)
	}
	return counts, nil
}
