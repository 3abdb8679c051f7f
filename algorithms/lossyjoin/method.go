// Package lossyjoin is (alpha,k)-anonymity by lossy join (Wong, Liu, Yin,
// Huang, Fu, Pei): the table is partitioned into QID-ECs that satisfy
// (alpha,k) by top-down specialization over the QI hierarchies
// (Algorithm 1, Section 6), and instead of one generalized table two
// tables are published (Section 5): NSS, the exact QI values with each
// record's ClassID, and SS, each record's ClassID with its sensitive
// value. Their join on ClassID is lossy: a class of a records gives a^2
// join rows, so every individual is linked to the bag of its class's
// sensitive values (Theorem 1).
//
// Variants: lossy (the method), alpha (the same QID-ECs published as one
// generalized table, the (alpha,k)-anonymity of Wong et al. 2006 the paper
// calls Alpha) and anatomy (Xiao and Tao's l-diverse buckets with
// l = ceil(1/alpha), formed without regard to QI values, published as
// NSS/SS) — the three algorithms Section 7 compares.
package lossyjoin

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"privlab/algorithms/lossyjoin/format"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/figure"
	"privlab/algorithms/method"
	"privlab/algorithms/release"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/releasedir"
)

// Method is (alpha,k)-anonymity by lossy join as a registered method.
type Method struct{}

// Name is the method's command-line name.
const Name = "lossyjoin"

// Variants.
const (
	VariantLossy   = "lossy"
	VariantAlpha   = "alpha"
	VariantAnatomy = "anatomy"
)

// Figure positions, in Spec().Figures order.
const (
	FigSize = iota
	FigFraction
	FigDistinct
)

// Published file names.
const (
	FileNSS         = format.FileNSS
	FileSS          = format.FileSS
	FileGeneralized = format.FileGeneralized
	FileDomains     = format.FileDomains
	// ClassID is the join attribute of NSS and SS (Section 5).
	ClassID = format.ClassID
)

// Remark is the annotation Section 5 asks the release to carry.
const Remark = "Each row of nss.csv and each row of ss.csv corresponds to one record of the original table. " +
	"Joining the two tables on ClassID does not give the original table: the join is lossy, a class of a records " +
	"gives a*a join rows, so each individual is linked to the bag of sensitive values of its class (Wong et al., Section 5)."

// Criterion says how Algorithm 1 picks the attribute to specialize.
const Criterion = "most child partitions kept after merging back violating children (ties: most tuples specialized, then QI order)"

// RemainderRule says where this implementation departs from Algorithm 1's
// line 13 (see topdown.go): the release's notes state it.
const RemainderRule = "remainder: the tuples moved back to a partition in steps 8-10 keep its generalization and are specialized further " +
	"on the other quasi-identifiers (never again on the one just split), where Algorithm 1's line 13 (Wong et al., Section 6) " +
	"puts the remainder straight into the output; so classes are finer, and every class has its own generalization"

// The parameters of (alpha,k)-anonymity (Wong et al., Definition 1).
var (
	kParam = method.GroupSize("2", "minimum class size: every individual shares its bag of sensitive values with at least k-1 others (Definition 1)",
		"Wong et al., Definition 1")
	alphaParam = model.ParamSpec{Name: format.ParamAlpha.Name(), Kind: model.ParamFloat, Min: 0, Max: 1, MinOpen: true, Default: "0.33", Step: 0.05, Header: true, Common: true,
		Help: "largest fraction of one sensitive value in a class ((alpha,k)-anonymity, Definition 1)",
		Why:  "it is a probability bound: (alpha,k)-anonymity (Wong et al., Definition 1)"}
)

// Config is lossyjoin's parameters, decoded once from their text
// (Decode).
type Config struct {
	K     int         // every class holds at least K records
	Alpha model.Bound // no sensitive value makes up more than Alpha of a class, exactly
	Seed  uint64      // Anatomy's random buckets
	// Values are the validated texts, defaults filled in (the manifest
	// and the figures' limits state them as given).
	Values model.Values
}

// Decode validates values against lossyjoin's declaration for a table
// of rows rows and reads them.
func Decode(values model.Values, rows int) (Config, error) {
	v, err := Method{}.Spec().Validate(values, rows)
	if err != nil {
		return Config{}, err
	}
	seed, _, _ := model.ParseSeed(v[model.SeedParam.Name])
	return Config{K: format.ParamK.Of(v), Alpha: format.ParamAlpha.Of(v), Seed: seed, Values: v}, nil
}

// compareSettings make lossyjoin comparable with the other methods: the
// group size k, and alpha at its default unless the most frequent
// sensitive value's share is higher (no (alpha,k)-anonymous partition
// exists below it, Definition 1), then that share rounded up.
func compareSettings(k int, t *model.Table, roles model.Roles, _ bool) (string, model.Values) {
	alpha := 0.33
	if c := t.Column(roles.SA); c != nil && t.Rows > 0 {
		top := 0
		for _, n := range c.Counts() {
			top = max(top, n)
		}
		alpha = math.Max(alpha, math.Ceil(100*float64(top)/float64(t.Rows))/100)
	}
	return VariantLossy, model.Values{"k": strconv.Itoa(k), "alpha": strconv.FormatFloat(math.Min(1, alpha), 'g', -1, 64)}
}

// grid is the advisor's grid: k from 2 to 500 with Compare's alpha (no
// (alpha,k)-anonymous partition exists below the top share of a
// sensitive value, Definition 1).
func grid(t *model.Table, roles model.Roles, public bool) []method.GridPoint {
	variant, values := compareSettings(2, t, roles, public)
	delete(values, "k")
	return method.GroupSizeGrid(t.Rows, variant, values, "k", nil)
}

// Spec declares the method.
func (Method) Spec() method.Spec {
	return method.Spec{
		Name:     Name,
		Title:    "(alpha,k)-anonymity by lossy join: exact QIs and sensitive values in two tables joined by class",
		Paper:    "Wong, Liu, Yin, Huang, Fu, Pei, (alpha,k)-anonymity based privacy preservation by lossy join, Sections 4-7",
		Variants: []string{VariantLossy, VariantAlpha, VariantAnatomy},
		Params:   []model.ParamSpec{kParam, alphaParam, model.SeedParam},
		Figures: []method.Figure{
			{Key: method.SizeKey, Label: "records", Digits: -1, Rule: method.AtLeast, Against: "k",
				Help: "records in the class: each is linked to the class's bag of sensitive values together with size-1 others"},
			{Key: "frac", Label: "max SA frac", Digits: 3, Rule: method.AtMost, Against: "alpha",
				Help: "the largest share of one sensitive value in the class: an attacker's confidence in any member's value"},
			{Key: "distinct", Label: "SA values", Digits: -1,
				Help: "distinct sensitive values in the class"},
		},
		Files: []string{FileNSS, FileSS, FileGeneralized + " <variant alpha>", FileDomains + " <variant alpha>"},
		Insensitive: "dropped: nss.csv holds the quasi-identifiers and ClassID, ss.csv ClassID and the sensitive attribute " +
			"(variant alpha: generalized.csv holds the generalized quasi-identifiers and the sensitive attribute)",
		NeedsSA:     true,
		Compare:     compareSettings,
		Grid:        grid,
		Charts:      "Classes",
		ChartParams: []string{"k", "alpha"},
		Certifies: "every class holds at least k records and no sensitive value makes up more than alpha of a class, " +
			"recomputed from the published files (generalized (alpha,k)-anonymity, Definition 1); the quasi-identifiers are " +
			"published exactly (variants lossy and anatomy), so membership in the table is not hidden",
		Example: method.Example{Input: "dataset:jobs",
			Roles:  model.Roles{QIs: []string{"job", "birth", "postcode"}, SA: "illness"},
			Params: model.Values{"k": "2", "alpha": "0.5", "seed": "1"},
			Query:  "COUNT(*) WHERE job = 'clerk' AND illness = 'flu'"},
		Study: study,
	}
}

// run is the state a Result's closures share.
type run struct {
	in      *method.Input
	variant string
	prob    *problem
	classes []class // vec is nil for anatomy
	classOf []int32 // per table row
	sa      *model.Column
	saH     *hierarchy.Hierarchy
	k       int
	alpha   model.Bound
	l       int
	values  model.Values
	res     *method.Result
	// ncp is the normalized certainty penalty of the classes'
	// generalization (NaN for anatomy).
	ncp float64
	// joinRows is the size of the lossy join: the sum of squared class
	// sizes.
	joinRows int
}

// Run partitions the table into (alpha,k)-anonymous classes and builds the
// result of the variant.
func (Method) Run(ctx context.Context, in *method.Input) (*method.Result, error) {
	spec := Method{}.Spec()
	cfg, err := Decode(in.Values, in.Table.Rows)
	if err != nil {
		return nil, err
	}
	values := cfg.Values
	variant := in.VariantOr(spec)
	switch variant {
	case VariantLossy, VariantAlpha, VariantAnatomy:
	default:
		return nil, &model.ParamError{Param: "variant", Value: variant, Reason: "unknown variant of " + Name,
			Hint: "variants: " + strings.Join(spec.Variants, ", ")}
	}
	for _, q := range in.Roles.QIs {
		if q == ClassID {
			return nil, &model.ParamError{Param: "qi", Value: q, Reason: "a quasi-identifier may not be called ClassID (the release uses that name)"}
		}
	}
	if in.Roles.SA == ClassID {
		return nil, &model.ParamError{Param: "sa", Value: ClassID, Reason: "the sensitive attribute may not be called ClassID (the release uses that name)"}
	}
	if len(in.Roles.QIs) == 0 {
		return nil, &model.ParamError{Param: "qi", Reason: "no quasi-identifiers", Fixes: []model.Fix{{Setting: model.SetQI}}}
	}
	k, alpha := cfg.K, cfg.Alpha
	p, err := newProblem(in.Table, in.Roles.QIs, in.Hierarchies, in.Roles.SA, k, alpha)
	if err != nil {
		return nil, err
	}
	p.alphaText = format.ParamAlpha.Text(values)
	r := &run{in: in, variant: variant, prob: p, sa: in.Table.Column(in.Roles.SA), saH: in.Hierarchies[in.Roles.SA],
		k: k, alpha: alpha, values: values, l: anatomyL(alpha), ncp: math.NaN()}
	rows := make([]int32, in.Table.Rows)
	for i := range rows {
		rows[i] = int32(i)
	}
	if err := r.feasible(); err != nil {
		return nil, err
	}
	if variant == VariantAnatomy {
		groups, err := anatomize(ctx, p, rows, r.l, model.NewRand(cfg.Seed), r.sa.Dict)
		if err != nil {
			return nil, err
		}
		for _, g := range groups {
			r.classes = append(r.classes, class{rows: g})
		}
	} else {
		if r.classes, err = p.specialize(ctx, rows, in.Progress); err != nil {
			return nil, err
		}
	}
	return r.result(spec)
}

// feasible explains an impossible (alpha,k) before running (SPEC 2.5):
// the whole table is the coarsest class, so it must satisfy (alpha,k)
// (k at most the table's rows is the declaration's range, kParam).
func (r *run) feasible() error {
	n := r.in.Table.Rows
	counts := make([]int, r.prob.m)
	top := 0
	for _, v := range r.prob.sa {
		counts[v]++
		if counts[v] > counts[top] {
			top = int(v)
		}
	}
	if !feasible(n, counts[top], r.k, r.alpha) {
		name := "(missing)"
		if top < len(r.sa.Dict) {
			name = r.sa.Dict[top]
		}
		return &model.ParamError{Param: format.ParamAlpha.Name(), Value: format.ParamAlpha.Text(r.values),
			Reason: fmt.Sprintf("no (alpha,k)-anonymous partition exists: %s = %q holds %d of %d rows (%.1f%%), above alpha even in one class of all records",
				r.in.Roles.SA, name, counts[top], n, 100*float64(counts[top])/float64(n)),
			Hint: fmt.Sprintf("raise alpha to at least %.3f or choose another sensitive attribute", float64(counts[top])/float64(n))}
	}
	return nil
}

// result builds the groups, their figures and the summary.
func (r *run) result(spec method.Spec) (*method.Result, error) {
	in := r.in
	n := in.Table.Rows
	res := &method.Result{Spec: spec, Values: r.values, RowsIn: n, Published: n, Workload: workload.CountIn}
	r.res = res
	r.classOf = make([]int32, n)
	counts := make([]int32, r.prob.m)
	saPos := r.saPositions()
	minSize, maxFrac := math.MaxInt, 0.0
	fracOK := true // every class's largest share is within alpha, exactly
	joinRows := 0
	ncpSum := 0.0
	for i, c := range r.classes {
		g, maxCount := r.classGroup(i, spec, counts, saPos)
		size := len(c.rows)
		frac := float64(maxCount) / float64(size)
		fracOK = fracOK && r.alpha.Allows(maxCount, size)
		res.Groups = append(res.Groups, g)
		minSize = min(minSize, size)
		maxFrac = math.Max(maxFrac, frac)
		joinRows += size * size
		if c.vec != nil {
			ncpSum += float64(size) * r.classNCP(c.vec)
		}
	}
	if len(r.classes) == 0 {
		minSize = 0
	}
	r.joinRows = joinRows
	if r.variant != VariantAnatomy {
		r.ncp = ncpSum / math.Max(1, float64(n))
	}
	kText, aText := format.ParamK.Text(r.values), format.ParamAlpha.Text(r.values)
	res.Summary = []releasedir.Figure{
		// The worst cases of (alpha,k) are always in the summary bar.
		{Name: "smallest class", Short: "min class", Value: float64(minSize), Limit: kText, OK: minSize >= r.k, Bar: true},
		{Name: "largest SA fraction in a class", Short: "max SA frac", Value: maxFrac, Limit: aText,
			OK: fracOK, Bar: true},
		{Name: "classes", Value: float64(len(r.classes)), OK: true},
		{Name: "average class size", Value: float64(n) / math.Max(1, float64(len(r.classes))), OK: true},
	}
	if r.variant == VariantAlpha {
		res.Utility = figure.NCP.Figure(r.ncp)
		res.Summary = append(res.Summary, figure.NCP.Figure(r.ncp))
		res.Files = []releasedir.FileEntry{{Name: FileGeneralized, Rows: n}, {Name: FileDomains, Rows: len(r.domainRows())}}
		res.Notes = append(res.Notes, "alpha: the classes' generalized quasi-identifiers are published in one table (Wong et al. 2006, the paper's Alpha)")
	} else {
		res.Utility = releasedir.Figure{Name: "lossy join rows per record", Short: "join/rec", Value: float64(joinRows) / math.Max(1, float64(n)), OK: true}
		res.Summary = append(res.Summary, releasedir.Figure{Name: "lossy join rows", Value: float64(joinRows), OK: true},
			releasedir.Figure{Name: "lossy join rows per record", Value: res.Utility.Value, OK: true})
		res.Files = []releasedir.FileEntry{{Name: FileNSS, Rows: n}, {Name: FileSS, Rows: n}}
	}
	if r.variant != VariantAnatomy {
		res.Notes = append(res.Notes, "attribute choice: "+Criterion, RemainderRule)
	}
	switch r.variant {
	case VariantLossy:
		wouldBe := figure.NCP.Figure(r.ncp)
		wouldBe.Name += " had the classes been generalized (Alpha)"
		res.Summary = append(res.Summary, wouldBe)
	case VariantAnatomy:
		res.Notes = append(res.Notes, fmt.Sprintf("anatomy: l = ceil(1/alpha) = %d distinct sensitive values per bucket, buckets formed without regard to the quasi-identifiers (Xiao and Tao)", r.l))
	}
	res.Answerer = r.answerer()
	res.Detail = r.detail
	res.Charts = r.charts
	res.Release = r.release
	return res, nil
}

// classGroup is class i's preview entry: its size, its largest SA share
// (exactly too) and its number of distinct SA values (Wong et al. 2006,
// Definition 2), judged against the parameters. It records the class of
// each of its rows, and returns the count of its most frequent SA value.
// counts is a zeroed scratch per SA code, zeroed again on return; saPos
// the SA codes' leaf positions (nil: no histogram).
func (r *run) classGroup(i int, spec method.Spec, counts []int32, saPos []int32) (method.Group, int) {
	c := r.classes[i]
	maxCount, distinct := 0, 0
	for _, row := range c.rows {
		r.classOf[row] = int32(i)
		v := r.prob.sa[row]
		if counts[v] == 0 {
			distinct++
		}
		counts[v]++
		maxCount = max(maxCount, int(counts[v]))
	}
	for _, row := range c.rows {
		counts[r.prob.sa[row]] = 0
	}
	size := len(c.rows)
	frac := float64(maxCount) / float64(size)
	g := method.Group{ID: i + 1, Rows: c.rows, QI: r.summary(c),
		Figures: []float64{float64(size), frac, float64(distinct)},
		Exact:   []*big.Rat{nil, big.NewRat(int64(maxCount), int64(size)), nil}}
	if saPos != nil {
		pos := make([]int32, len(c.rows))
		for j, row := range c.rows {
			pos[j] = saPos[r.sa.Codes[row]]
		}
		g.SAHist = release.HistBins(len(r.saH.Leaves), pos, 8)
	}
	g.Judge(spec, r.values)
	return g, maxCount
}

// saPositions maps each SA code to its leaf position (nil without a
// hierarchy that covers the column).
func (r *run) saPositions() []int32 {
	if r.saH == nil {
		return nil
	}
	leafOf, err := r.saH.MapColumn(r.sa)
	if err != nil {
		return nil
	}
	out := make([]int32, len(leafOf))
	for code, l := range leafOf {
		out[code] = int32(r.saH.LeafPos(l))
	}
	return out
}

// summary describes a class's QIs: its generalization (Table 3's row for
// the class) for the top-down variants; for Anatomy, whose buckets have
// no generalization, the value, the range or the lowest common
// generalization of its members.
func (r *run) summary(c class) []string {
	out := make([]string, len(r.prob.attrs))
	for q := range r.prob.attrs {
		a := &r.prob.attrs[q]
		if c.vec != nil {
			out[q] = a.h.Nodes[c.vec[q]].Label
			continue
		}
		out[q] = r.lca(q, c.rows)
	}
	return out
}

// lca is the value shared by rows, the numeric range, or the label of the
// lowest common ancestor of their leaves.
func (r *run) lca(q int, rows []int32) string {
	a := &r.prob.attrs[q]
	col := r.in.Table.Column(r.in.Roles.QIs[q])
	first := a.codes[rows[0]]
	same := true
	common := a.path[first]
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range rows {
		code := a.codes[row]
		if code != first {
			same = false
		}
		p := a.path[code]
		i := 0
		for i < len(common) && i < len(p) && common[i] == p[i] {
			i++
		}
		common = common[:i]
		if col.Kind == model.Numeric && col.Codes[row] != model.Missing {
			v := col.Nums[col.Codes[row]]
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	switch {
	case same:
		return col.Value(int(rows[0]))
	case col.Kind == model.Numeric && lo <= hi:
		return model.FormatNumber(lo) + "-" + model.FormatNumber(hi)
	case len(common) > 0:
		return a.h.Nodes[common[len(common)-1]].Label
	}
	return "*"
}

// classNCP is the normalized certainty penalty of a generalization vector
// averaged over the QIs: (range of the node) / (range of the domain), with
// a categorical range counted as leaves - 1 (SPEC 2.3).
func (r *run) classNCP(vec []int32) float64 {
	s := 0.0
	for q, node := range vec {
		h := r.prob.attrs[q].h
		if d := h.Range(0); d > 0 {
			s += h.Range(int(node)) / d
		}
	}
	return s / float64(len(vec))
}

// detail shows a class as published and as it was: its NSS rows and SS rows
// (or its generalized rows), how many rows the lossy join makes of it, and
// its members' original records.
func (r *run) detail(i, limit int) method.Detail {
	c := r.classes[i]
	qis := r.in.Roles.QIs
	sa := r.in.Roles.SA
	id := fmt.Sprint(i + 1)
	a := len(c.rows)
	d := method.Detail{Title: "ClassID " + id + " in the release"}
	count, vals := r.bagOf(c)
	d.Sections = append(d.Sections, method.Section{Notes: r.classNotes(c, count, vals)})
	qiCols := make([]*model.Column, len(qis))
	for q, name := range qis {
		qiCols[q] = r.in.Table.Column(name)
	}
	if r.variant == VariantAlpha {
		gen := method.Section{Title: "generalized.csv rows of the class (published)", Header: append(append([]string(nil), qis...), sa), Total: a}
		for j, row := range c.rows {
			if j >= limit {
				break
			}
			line := r.summary(c)
			gen.Rows = append(gen.Rows, append(line, r.sa.Value(int(row))))
		}
		d.Sections = append(d.Sections, gen)
	} else {
		d.Sections = append(d.Sections, r.joinSections(c, id, qiCols, limit)...)
	}
	orig := method.Section{Title: "original records (private: never published together)", Header: append(append([]string(nil), qis...), sa), Total: a}
	for j, row := range c.rows {
		if j >= limit {
			break
		}
		var line []string
		for _, col := range qiCols {
			line = append(line, col.Value(int(row)))
		}
		orig.Rows = append(orig.Rows, append(line, r.sa.Value(int(row))))
	}
	chart := method.Section{Title: "share of each sensitive value in the class"}
	chart.Labels = append(chart.Labels, vals...)
	share := make([]float64, len(vals))
	limitLine := make([]float64, len(vals))
	for j, v := range vals {
		share[j] = float64(count[v]) / float64(a)
		limitLine[j] = r.alpha.Float()
	}
	chart.Series = []method.Series{{Name: "share", Values: share}, {Name: "alpha", Values: limitLine, Largest: true}}
	d.Sections = append(d.Sections, orig, chart)
	return d
}

// bagOf is a class's bag of sensitive values: each value's count, and the
// values by frequency (ties by value).
func (r *run) bagOf(c class) (map[string]int, []string) {
	count := map[string]int{}
	for _, row := range c.rows {
		count[r.sa.Value(int(row))]++
	}
	vals := make([]string, 0, len(count))
	for v := range count {
		vals = append(vals, v)
	}
	sort.Slice(vals, func(x, y int) bool {
		if count[vals[x]] != count[vals[y]] {
			return count[vals[x]] > count[vals[y]]
		}
		return vals[x] < vals[y]
	})
	return count, vals
}

// classNotes say what a class is: its QID-EC (variants lossy and alpha),
// its bag of sensitive values against alpha, and how it is published.
func (r *run) classNotes(c class, count map[string]int, vals []string) []string {
	a := len(c.rows)
	var notes []string
	if c.vec != nil {
		var parts []string
		for q, node := range c.vec {
			parts = append(parts, r.in.Roles.QIs[q]+"="+r.prob.attrs[q].h.Nodes[node].Label)
		}
		notes = append(notes, "QID-EC: "+strings.Join(parts, ", "))
	}
	var shares []string
	for _, v := range vals {
		shares = append(shares, fmt.Sprintf("%s %d/%d", v, count[v], a))
	}
	notes = append(notes, fmt.Sprintf("bag of %s: %s (max share %.3f, alpha %s)", r.in.Roles.SA, strings.Join(shares, ", "),
		float64(count[vals[0]])/float64(a), format.ParamAlpha.Text(r.values)))
	if r.variant == VariantAlpha {
		notes = append(notes, "published in generalized.csv with the generalized quasi-identifiers above and the exact sensitive values")
	} else {
		notes = append(notes, fmt.Sprintf("lossy join on ClassID: %d x %d = %d join rows for %d records; the whole release: %d join rows for its %d records (as Table 7's 12 rows from 6)",
			a, a, a*a, a, r.joinRows, r.in.Table.Rows))
	}
	return notes
}

// joinSections are a class's nss.csv rows and its ss.csv rows (sorted, as
// their order says nothing), at most limit of each.
func (r *run) joinSections(c class, id string, qiCols []*model.Column, limit int) []method.Section {
	qis := r.in.Roles.QIs
	a := len(c.rows)
	nss := method.Section{Title: "nss.csv rows of the class (published)", Header: append(append([]string(nil), qis...), ClassID), Total: a}
	ss := method.Section{Title: "ss.csv rows of the class (published, in no particular order)", Header: []string{ClassID, r.in.Roles.SA}, Total: a}
	for j, row := range c.rows {
		if j >= limit {
			break
		}
		var line []string
		for _, col := range qiCols {
			line = append(line, col.Value(int(row)))
		}
		nss.Rows = append(nss.Rows, append(line, id))
	}
	sorted := make([]string, 0, a)
	for _, row := range c.rows {
		sorted = append(sorted, r.sa.Value(int(row)))
	}
	sort.Strings(sorted)
	for j, v := range sorted {
		if j >= limit {
			break
		}
		ss.Rows = append(ss.Rows, []string{id, v})
	}
	return []method.Section{nss, ss}
}

// charts draws the table's sensitive distribution against alpha (a value
// above alpha makes (alpha,k) infeasible), the class sizes and the
// classes' largest sensitive shares.
func (r *run) charts() []method.Section {
	n := r.in.Table.Rows
	counts := make([]int, r.prob.m)
	for _, v := range r.prob.sa {
		counts[v]++
	}
	order := make([]int, 0, len(counts))
	for v, c := range counts {
		if c > 0 {
			order = append(order, v)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] > counts[order[b]] })
	if len(order) > 12 {
		order = order[:12]
	}
	table := method.Section{Title: fmt.Sprintf("%s in the table vs alpha (most frequent values)", r.in.Roles.SA)}
	var share, lim []float64
	for _, v := range order {
		name := "(missing)"
		if v < len(r.sa.Dict) {
			name = r.sa.Dict[v]
		}
		table.Labels = append(table.Labels, name)
		share = append(share, float64(counts[v])/float64(max(1, n)))
		lim = append(lim, r.alpha.Float())
	}
	table.Series = []method.Series{{Name: "share", Values: share}, {Name: "alpha", Values: lim, Largest: true}}

	sizes := method.Section{Title: "classes by size"}
	const bins = 10
	sizeCount := make([]float64, bins+1)
	for _, c := range r.classes {
		sizeCount[min(bins, max(0, len(c.rows)-r.k))]++
	}
	for i := 0; i <= bins; i++ {
		label := fmt.Sprint(r.k + i)
		if i == bins {
			label += "+"
		}
		sizes.Labels = append(sizes.Labels, label)
	}
	sizes.Series = []method.Series{{Name: "classes", Values: sizeCount}}

	fracs := method.Section{Title: "classes by largest sensitive share"}
	fracCount := make([]float64, 10)
	for _, g := range r.res.Groups {
		fracCount[min(9, int(g.Figures[FigFraction]*10-1e-9))]++
	}
	for i := range fracCount {
		// (lo, hi]: the first bucket holds the shares up to 0.1.
		fracs.Labels = append(fracs.Labels, model.FormatNumber(float64(i)/10)+"-"+model.FormatNumber(float64(i+1)/10))
	}
	fracs.Series = []method.Series{{Name: "classes", Values: fracCount}}
	return []method.Section{table, sizes, fracs}
}
