// Package kja is k-join-anonymity (Sacharidis, Mouratidis, Papadias,
// "k-Anonymity in the Presence of External Databases"): k-anonymity
// generalization that also groups microdata tuples (MT) with tuples of a
// public database (PD) the attacker may know anyway, so that G-boxes
// shrink while every box still hides a victim among at least k JT tuples
// (Theorem 2: breach probability 1/|g| <= 1/k). Two k-anonymity
// algorithms, Mondrian and TopDown (Section 2.2), are the baselines and
// are adapted by the two methodologies of Section 4, Direct and
// Refinement. Sensitive values are published apart, per sensitive group
// (Section 3.2), so that public tuples never receive a sensitive value.
//
// JT joins MT and PD on the identifier (--id, Section 3.1); a public row
// no identifier joins that equals a microdata tuple on every QI may be
// that person and is counted as that person (pairByQIs), so every JT
// tuple is a distinct person; a column both tables hold that identifies
// MT's rows without --id is refused (the identifier joins exactly).
// Every sensitive group holds at least k MT tuples (Section 3.2): Direct
// merges its boxes into such groups (groupBoxes).
// With a public table every variant, the plain baselines too, normalises
// NCP by JT's domain, so the six NCPs compare.
//
// Performance budgets are SPEC 8's, held by benchmarks (not timed tests):
// plain Mondrian and TopDown on Adult, mondrian-direct on a million JT
// rows. bench_test.go says which benchmark holds which; the figures are
// in docs/performance.md.
package kja

import (
	"context"
	"fmt"
	"math"
	"privlab/algorithms/kja/format"
	"slices"
	"strconv"
	"strings"

	"privlab/algorithms/figure"
	"privlab/algorithms/method"
	"privlab/algorithms/partition"
	"privlab/algorithms/release"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/releasedir"
)

// Method is k-join-anonymity as a registered method.
type Method struct{}

// Name is the method's command-line name.
const Name = "kja"

// Variants: the four KJA adaptations and the two k-anonymity baselines.
const (
	MondrianDirect = "mondrian-direct"
	MondrianRefine = "mondrian-refine"
	TopDownDirect  = "topdown-direct"
	TopDownRefine  = "topdown-refine"
	MondrianPlain  = "mondrian"
	TopDownPlain   = "topdown"
)

// Variants lists the variants in menu order (the first is the default).
var Variants = []string{MondrianDirect, MondrianRefine, TopDownDirect, TopDownRefine, MondrianPlain, TopDownPlain}

// Parameter names.
const (
	paramK     = string(format.ParamK)
	paramSplit = string(format.ParamSplit)
	// Split rules of Mondrian.
	SplitWidest     = "widest"
	SplitRoundRobin = "round-robin"
)

// kParam is the k of k-join-anonymity: every box holds at least k JT
// tuples.
var kParam = method.GroupSize("5", "minimum group size (k-anonymity)", "Sacharidis et al., Definition 6")

var splitParam = model.ParamSpec{Name: paramSplit, Kind: model.ParamChoice, Choices: []string{SplitWidest, SplitRoundRobin},
	Default: SplitWidest, Header: true,
	Help:  "Mondrian's split dimension: widest normalised range, or round-robin as Sacharidis et al. (Section 2.2) describe it",
	Why:   "round-robin is the paper's rule; the widest normalised range gives lower NCP on the universe and on Adult (see the package's study), so it is the default",
	Sweep: SplitWidest + "," + SplitRoundRobin}

// Figure positions, in Spec().Figures order.
const (
	FigSize = iota
	FigBreach
	FigMT
	FigExternal
)

// Spec declares the method.
func (Method) Spec() method.Spec {
	return method.Spec{
		Name:     Name,
		Title:    "k-join-anonymity: k-anonymity with a public database (Mondrian, TopDown; Direct, Refinement)",
		Paper:    "Sacharidis, Mouratidis, Papadias, k-Anonymity in the Presence of External Databases (IEEE TKDE), Sections 2-4",
		Variants: Variants,
		Params:   []model.ParamSpec{kParam, splitParam, groupingParam, model.SeedParam},
		Figures: []method.Figure{
			{Key: method.SizeKey, Label: "|g|", Rule: method.AtLeast, Against: paramK, Digits: -1,
				Help: "JT tuples (microdata and public) in the box: an attacker cannot tell them apart (Definition 6)"},
			{Key: "breach", Label: "p_br", Rule: method.AtMost, PerGroup: true, Digits: 3,
				Help: "breach probability 1/|g| of a victim in the box; at most 1/k (Theorem 2)"},
			{Key: "mt", Label: "MT", Digits: -1,
				Help: "microdata tuples in the box (private: shown here only, never published)"},
			{Key: "ext", Label: "PD", Digits: -1,
				Help: "public-database tuples in the box (private: shown here only, never published)"},
		},
		Files:       []string{format.FileJAT, format.FileSI},
		Insensitive: "dropped: the release holds the G-boxes of the quasi-identifiers and the sensitive groups only",
		NeedsSA:     true,
		Public:      method.PublicOptional,
		// Without a public database, plain Mondrian k-anonymity: the
		// baseline the KJA variants refine (Section 2.2).
		NoPublicVariant: MondrianPlain,
		// Plain Mondrian k-anonymity, or its refinement with the public
		// database when there is one (Section 4).
		Compare: func(k int, _ *model.Table, _ model.Roles, public bool) (string, model.Values) {
			if public {
				return MondrianRefine, model.Values{paramK: strconv.Itoa(k)}
			}
			return MondrianPlain, model.Values{paramK: strconv.Itoa(k)}
		},
		// The advisor's grid: k from 2 to 500 on Compare's variant.
		Grid: func(t *model.Table, _ model.Roles, public bool) []method.GridPoint {
			variant := MondrianPlain
			if public {
				variant = MondrianRefine
			}
			return method.GroupSizeGrid(t.Rows, variant, nil, paramK, nil)
		},
		// Section 5 of Sacharidis et al. runs the universe data at k = 50.
		ForDataset:  map[string]model.Values{"universe": {paramK: "50"}},
		Charts:      "Boxes",
		ChartParams: []string{paramK, paramSplit},
		Certifies: "every published box holds at least k JT tuples and at least one microdata tuple, and every JT tuple is a distinct person " +
			"(a public row joins the microdata on the identifier; one no identifier joins that equals a microdata tuple on every QI is counted as that person, " +
			"so without an identifier a person whose QI values differ between the tables could count twice), " +
			"so a victim's breach probability is at most 1/k whatever public database the attacker has (Theorem 2), which check confirms only " +
			"with the original and the public table (it exits 3 without them); every sensitive group holds at least k microdata tuples (Section 3.2: under Direct, " +
			"neighbouring boxes merged), and si.csv holds exactly the microdata's sensitive values; it does not hide sensitive values from " +
			"homogeneous groups (as k-anonymity does not)",
		Example: method.Example{Input: "dataset:universe", Public: "dataset:universe-public", Variant: MondrianDirect,
			Roles:  model.Roles{IDs: []string{"id"}, QIs: []string{"age", "income", "family-size", "education-years"}, SA: "occupation"},
			Params: model.Values{paramK: "20", "seed": "1"},
			Query:  "COUNT(*) WHERE age BETWEEN 30 AND 50 AND income >= 20000 AND occupation = 'professional'"},
		Study: study,
	}
}

// Config is kja's parameters, decoded once from their text (Decode).
type Config struct {
	K        int    // every box holds at least K JT tuples (Definition 6)
	Split    string // Mondrian's split rule: SplitWidest or SplitRoundRobin
	Grouping string // the first round's grouping (GroupingAlgorithm or column:NAME)
	Seed     uint64 // TopDown's seeds; crypto-random unless fixed
	// Values are the validated texts, defaults filled in (the manifest
	// and the figures' limits state them as given).
	Values model.Values
}

// Decode validates values against kja's declaration for a table of rows
// rows and reads them.
func Decode(values model.Values, rows int) (Config, error) {
	v, err := Method{}.Spec().Validate(values, rows)
	if err != nil {
		return Config{}, err
	}
	c := Config{K: format.ParamK.Of(v), Split: format.ParamSplit.Of(v), Grouping: format.ParamGrouping.Of(v), Values: v}
	if seed, fixed, err := model.ParseSeed(v[model.SeedParam.Name]); err == nil && fixed {
		c.Seed = seed
	} else {
		c.Seed = model.CryptoSeed()
	}
	return c, nil
}

// config is a parsed variant.
type config struct {
	variant   string
	algorithm string // mondrian | topdown
	method    string // plain | direct | refinement
	k         int
	split     string
	seed      uint64
	// given is the first-round grouping taken from a column (nil: the
	// algorithm forms it; see grouping.go).
	given   [][]int32
	givenBy string // the column
}

const (
	plainKA    = format.PlainKA
	directKA   = format.DirectKA
	refineKA   = format.RefineKA
	algMondr   = "mondrian"
	algTopDown = "topdown"
)

func parseVariant(v string) (alg, meth string) {
	alg, rest, _ := strings.Cut(v, "-")
	switch rest {
	case "direct":
		return alg, directKA
	case "refine":
		return alg, refineKA
	}
	return alg, plainKA
}

func (c config) kAlgorithm() kAlgorithm {
	if c.algorithm == algTopDown {
		return topDown(c.seed)
	}
	rule := partition.Widest
	if c.split == SplitRoundRobin {
		rule = partition.RoundRobin
	}
	return mondrian(rule)
}

// Run anonymizes MT (with PD for the KJA variants).
func (Method) Run(ctx context.Context, in *method.Input) (*method.Result, error) {
	r, err := newRun(ctx, in)
	if err != nil {
		return nil, err
	}
	return r.result(Method{}.Spec())
}

// newRun validates the input and runs the variant.
func newRun(ctx context.Context, in *method.Input) (*run, error) {
	spec := Method{}.Spec()
	c, err := Decode(in.Values, in.Table.Rows)
	if err != nil {
		return nil, err
	}
	values := c.Values
	cfg := config{variant: in.VariantOr(spec), k: c.K, split: c.Split, seed: c.Seed}
	if !slices.Contains(Variants, cfg.variant) {
		return nil, &model.ParamError{Param: "variant", Value: cfg.variant, Reason: "unknown variant of " + Name,
			Hint: "variants: " + strings.Join(Variants, ", ")}
	}
	cfg.algorithm, cfg.method = parseVariant(cfg.variant)
	if cfg.given, err = givenGroups(in, c.Grouping, cfg); err != nil {
		return nil, err
	}
	cfg.givenBy, _ = method.ParseColumnGrouping(c.Grouping)
	if in.Table.Column(in.Roles.SA) == nil {
		return nil, &model.ParamError{Param: "sa", Value: in.Roles.SA, Reason: "no such column",
			Hint: "k-join-anonymity publishes the sensitive values apart, per sensitive group (Section 3.2)"}
	}
	if in.Roles.SA == "SG" {
		return nil, &model.ParamError{Param: "sa", Value: in.Roles.SA, Reason: "the release uses the column name SG for the sensitive groups",
			Hint: "rename the column"}
	}
	// The baselines anonymize MT alone; a public table given to them only
	// sets the domain NCP is normalised by, JT's, as for the KJA variants,
	// so that every variant's NCP is comparable (see jt.mtOnly).
	use := pdCounts
	if cfg.method == plainKA {
		use = pdDomain
	} else if in.Public == nil {
		return nil, &model.ParamError{Param: "public",
			Reason: "variant " + cfg.variant + " joins the table with a public database, and none is given",
			Hint:   "the public table has the same QI columns, and an identifier column joins it with the table",
			Fixes: []model.Fix{{Setting: model.SetPublic},
				{Setting: model.SetVariant, Value: MondrianPlain, Why: "(plain k-anonymity)"}, {Setting: model.SetVariant, Value: TopDownPlain, Why: "(plain k-anonymity)"}}}
	}
	progress := func(f float64) {
		if in.Progress != nil {
			in.Progress(f)
		}
	}
	t, err := buildJT(in, in.Public, use)
	if err != nil {
		return nil, err
	}
	progress(0.1)
	r, err := execute(ctx, in, t, cfg, values, progress)
	if err != nil {
		return nil, err
	}
	progress(0.95)
	return r, nil
}

// execute runs the configured variant on JT.
func execute(ctx context.Context, in *method.Input, t *jt, cfg config, values model.Values, progress func(float64)) (*run, error) {
	alg := cfg.kAlgorithm()
	first := alg
	if cfg.given != nil {
		first = given(cfg.given)
	}
	var boxes []outBox
	var sgs int
	var err error
	switch cfg.method {
	case plainKA:
		boxes, sgs, err = plain(ctx, t, first, cfg.k)
	case directKA:
		boxes, sgs, err = direct(ctx, t, alg, cfg.k)
	default:
		boxes, sgs, err = refinement(ctx, t, first, alg, cfg.k, progress, nil)
	}
	if err != nil {
		return nil, err
	}
	return &run{in: in, cfg: cfg, t: t, boxes: boxes, sgs: sgs, values: values}, nil
}

// run is the state a Result's closures share.
type run struct {
	in     *method.Input
	cfg    config
	t      *jt
	boxes  []outBox
	sgs    int
	values model.Values
	// sgMT counts the MT tuples of every sensitive group.
	sgMT []int
	ix   *index
	res  *method.Result
}

// metrics are the information loss of a release (Sacharidis et al.,
// Sections 2.1 and 3.3): NCP sums each MT tuple's normalised box
// perimeter, DM the number of MT tuples in its box.
type metrics struct {
	NCP, DM float64
	// GCP is NCP per MT tuple and QI (0 = no loss, 1 = every QI over
	// its whole domain): figure.NCP, what the release calls NCP; NCP is
	// the paper's sum, figure.NCPSum.
	GCP float64
}

func (r *run) metrics() metrics {
	var m metrics
	for _, b := range r.boxes {
		m.NCP += float64(b.mt) * r.t.perimeter(b.b)
		m.DM += float64(b.mt) * float64(b.mt)
	}
	if r.t.mt > 0 && r.t.d > 0 {
		m.GCP = m.NCP / float64(r.t.mt*r.t.d)
	}
	return m
}

func (r *run) result(spec method.Spec) (*method.Result, error) {
	t, k := r.t, r.cfg.k
	res := &method.Result{Spec: spec, Values: r.values, RowsIn: t.mt, Published: t.mt, Workload: workload.CountRange}
	r.sgMT = make([]int, r.sgs)
	for _, b := range r.boxes {
		r.sgMT[b.sg] += b.mt
	}
	minSize, minSG, external, published := math.MaxInt, math.MaxInt, 0, 0
	for i, b := range r.boxes {
		size := len(b.tuples)
		rows := make([]int32, b.mt)
		copy(rows, b.tuples[:b.mt])
		g := method.Group{ID: i + 1, Rows: rows, QI: r.boxLabels(b.b), SAHist: release.SAHist(r.in, rows),
			Figures: []float64{float64(size), 1 / float64(size), float64(b.mt), float64(size - b.mt)},
			Limits:  []float64{0, 1 / float64(k), 0, 0}}
		g.Judge(spec, r.values)
		res.Groups = append(res.Groups, g)
		minSize = min(minSize, size)
		external += size - b.mt
		published += size
	}
	for _, n := range r.sgMT {
		minSG = min(minSG, n)
	}
	if len(r.boxes) == 0 {
		minSize, minSG = 0, 0
	}
	m := r.metrics()
	kText := format.ParamK.Text(r.values)
	res.Summary = []releasedir.Figure{
		{Name: "smallest box (JT tuples)", Short: "min |g|", Value: float64(minSize), Limit: kText, OK: minSize >= k},
		{Name: "largest breach probability", Short: "max p_br", Value: 1 / math.Max(1, float64(minSize)), Limit: "1/" + kText, OK: minSize >= k},
		{Name: "boxes without a microdata tuple", Short: "boxes w/o MT", Value: 0, Limit: "0", OK: true},
		{Name: "boxes", Value: float64(len(r.boxes)), OK: true},
		{Name: "sensitive groups", Value: float64(r.sgs), OK: true},
		{Name: "JT tuples published", Value: float64(published), OK: true},
		{Name: "public tuples published", Value: float64(external), OK: true},
		{Name: "smallest sensitive group (MT tuples)", Value: float64(minSG), OK: true},
		figure.NCP.Figure(m.GCP),
		figure.NCPSum.Figure(m.NCP),
		{Name: "DM", Value: m.DM, OK: true},
	}
	res.Utility = figure.NCP.Figure(m.GCP)
	res.Notes = r.notes()
	res.Files = []releasedir.FileEntry{{Name: format.FileJAT, Rows: published}, {Name: format.FileSI, Rows: t.mt}}
	r.ix = r.index()
	r.res = res
	res.Answerer = r.ix
	res.Detail = r.detail
	res.Release = r.release
	res.Charts = r.charts
	return res, nil
}

// notes say what the variant did with the tables.
func (r *run) notes() []string {
	t, c := r.t, r.cfg
	var out []string
	if c.given != nil {
		out = append(out, fmt.Sprintf("the k-anonymous grouping of the %d microdata tuples is given by column %s (%d groups), not formed by %s", t.mt, c.givenBy, len(c.given), c.algorithm))
	}
	switch c.method {
	case plainKA:
		if c.given != nil {
			out = append(out, "its boxes are published as they are (the baseline of Section 2.2)")
		} else {
			out = append(out, fmt.Sprintf("%s k-anonymity on the %d microdata tuples alone (the baseline of Section 2.2)", c.algorithm, t.mt))
		}
		if r.in.Public != nil {
			out = append(out, "the public table is not anonymized with the microdata: it only widens the domain NCP is normalised by")
		}
	default:
		how := "Direct: " + c.algorithm + " on all of JT, boxes without a microdata tuple discarded"
		switch {
		case c.method == refineKA && c.given != nil:
			how = "Refinement: the given groups of MT, then " + c.algorithm + " on the JT tuples inside each box"
		case c.method == refineKA:
			how = "Refinement: " + c.algorithm + " on MT, then again on the JT tuples inside each box"
		}
		out = append(out, fmt.Sprintf("%s (Section 4); JT holds %d microdata and %d public tuples", how, t.mt, len(t.pd)))
		if len(t.joinCols) > 0 {
			out = append(out, fmt.Sprintf("MT and PD joined on %s: %d public rows are microdata individuals", strings.Join(t.joinCols, ","), t.joined))
			if t.differ > 0 {
				out = append(out, fmt.Sprintf("%d joined individuals have other QI values in PD than in MT; MT's are used", t.differ))
			}
			if t.duplicates > 0 {
				out = append(out, fmt.Sprintf("%d public rows repeat an identifier and are read once", t.duplicates))
			}
			if t.qiPaired > 0 {
				out = append(out, fmt.Sprintf("%d public rows without an identifier equal a microdata tuple on every QI and are counted as that person, not as another", t.qiPaired))
			}
		} else {
			out = append(out, fmt.Sprintf("no identifier joins the tables, so a public row equal to a microdata tuple on every QI may be that person: "+
				"%d such rows (at each QI point at most as many as it has microdata tuples) are counted as the microdata person, not as another JT tuple, "+
				"and the other %d public rows as other individuals; every JT tuple is then a distinct person whoever PD holds, if a person in both tables has the same QI values in each "+
				"(an identifier column, when one is named, joins them instead)",
				t.qiPaired, len(t.pd)))
		}
		if t.unknown > 0 {
			out = append(out, fmt.Sprintf("%d public rows have a value outside a QI's hierarchy and are left out", t.unknown))
		}
	}
	if r.in.Public != nil {
		out = append(out, "NCP is normalised by JT's domain (microdata and public tuples), in every variant, so the variants' NCP compare")
	} else {
		out = append(out, "NCP is normalised by the microdata's domain")
	}
	if c.algorithm == algMondr {
		out = append(out, "Mondrian split dimension: "+c.split)
	}
	return out
}

// boxLabels describes a box per QI: a value, or lowest..highest.
func (r *run) boxLabels(b box) []string {
	out := make([]string, r.t.d)
	for a := range out {
		ax := &r.t.axes[a]
		lo, hi := ax.text(b.lo[a]), ax.text(b.hi[a])
		switch {
		case lo == hi:
			out[a] = lo
		case ax.numeric:
			out[a] = model.RangeLabel(lo, hi)
		default:
			out[a] = lo + ".." + hi
		}
	}
	return out
}
