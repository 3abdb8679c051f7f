// Package ambiguity implements Hui (Wendy) Wang's ambiguity scheme: the
// records are partitioned into QI-groups, and every quasi-identifier is
// published in its own auxiliary table of (value, GroupID) pairs beside a
// sensitive table of (GroupID, value, Frequency) (Definition 3.3). An
// attacker who joins the tables on GroupID gets every combination of a
// group's values, so a record is present with probability |G| / prod_i
// |G_ATi| (alpha-presence, Theorem 5.1) and carries a sensitive value v
// with probability c_v / |G| given that it is (beta-association, Theorem
// 5.2). Algorithm 2 (Section 7) builds (alpha, beta)-private groups
// greedily; Algorithm 1 (Section 6) estimates count queries.
package ambiguity

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"privlab/algorithms/ambiguity/format"
	"strconv"
	"strings"
	"sync"

	"privlab/algorithms/method"
	"privlab/algorithms/release"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/releasedir"
)

// Method is the ambiguity scheme as a registered method.
type Method struct{}

// Name is the method's command-line name.
const Name = "ambiguity"

// Figure positions, in Spec().Figures order.
const (
	FigPresence = iota
	FigAssociation
	FigJoin
	FigDistinct
)

// Summary figure names (the manifest's worst cases and utility; the
// checker recomputes them under the same names).
const (
	worstPresence    = "max presence probability"
	worstAssociation = "max association probability"
	utilityName      = "average group size"
	// The figures across groups (see acrossGroups): informational, outside
	// the paper's model, stated in the manifest beside the utility. The
	// workbench's preview shows a name's first 28 characters: they say
	// what the figure is, and that the second is outside the model.
	coveredByMany    = "records covered by >1 group (input records, published or not)"
	combinedPresence = "outside Wang's model: max combined presence 1-prod(1-p_G) over the groups covering a record"
)

// suppressionWarning is the fraction of suppressed records above which a
// result warns that the release says little.
const suppressionWarning = 0.10

// The bounds of (alpha, beta)-privacy (Wang, Definition 4.3).
var (
	alphaParam = model.ParamSpec{Name: format.ParamAlpha.Name(), Kind: model.ParamFloat, Min: 0, Max: 1, MinOpen: true, Default: "0.5", Step: 0.05, Header: true, Common: true,
		Help: "largest allowed fraction of one sensitive value in a group / presence bound",
		Why:  "it is a probability bound: alpha-presence (Wang, Definition 4.1)"}
	betaParam = model.ParamSpec{Name: format.ParamBeta.Name(), Kind: model.ParamFloat, Min: 0, Max: 1, MinOpen: true, Default: "0.5", Step: 0.05, Header: true, Common: true,
		Help: "largest allowed association probability",
		Why:  "it is a probability bound: beta-association (Wang, Definition 4.2)"}
)

// Config is ambiguity's parameters, decoded once from their text
// (Decode).
type Config struct {
	Alpha model.Bound // alpha-presence, held exactly
	Beta  model.Bound // beta-association, held exactly
	// Values are the validated texts, defaults filled in (the manifest
	// and the figures' limits state them as given; form reads the
	// grouping from them, grouping.go).
	Values model.Values
}

// Decode validates values against ambiguity's declaration for a table of
// rows rows and reads them.
func Decode(values model.Values, rows int) (Config, error) {
	v, err := Method{}.Spec().Validate(values, rows)
	if err != nil {
		return Config{}, err
	}
	return Config{Alpha: format.ParamAlpha.Of(v), Beta: format.ParamBeta.Of(v), Values: v}, nil
}

// gridBounds are the alpha = beta bounds of the advisor's grid, from weak
// to strong privacy.
var gridBounds = []float64{0.9, 0.7, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15}

// grid is the advisor's grid: alpha = beta stepping down, each beta one
// the sensitive attribute can meet (a group holds ceil(1/beta) distinct
// sensitive values, Theorem 7.2).
func grid(t *model.Table, roles model.Roles, _ bool) []method.GridPoint {
	distinct := 0
	if c := t.Column(roles.SA); c != nil {
		distinct = c.Distinct()
	}
	var out []method.GridPoint
	for _, b := range gridBounds {
		if int(math.Ceil(1/b-1e-9)) > distinct {
			continue
		}
		x := strconv.FormatFloat(b, 'g', -1, 64)
		out = append(out, method.GridPoint{Values: model.Values{"alpha": x, "beta": x}})
	}
	return out
}

// Spec declares the method.
func (Method) Spec() method.Spec {
	return method.Spec{
		Name:    Name,
		Title:   "Ambiguity: per-attribute auxiliary tables hiding presence and association",
		Paper:   "Hui (Wendy) Wang, Ambiguity: Hide the Presence of Individuals and Their Privacy with Low Information Loss, Sections 3-7",
		NeedsSA: true,
		Params:  []model.ParamSpec{alphaParam, betaParam, groupingParam, model.SeedParam},
		Figures: []method.Figure{
			{Key: "presence", Label: "Pr(t in T)", Against: "alpha", Rule: method.AtMost, Digits: 3,
				Help: "presence probability |G| / prod_i |G_ATi| of every record the group covers (Theorem 5.1)"},
			{Key: "assoc", Label: "Pr(t,s|t)", Against: "beta", Rule: method.AtMost, Digits: 3,
				Help: "largest association probability c/|G| of a sensitive value given presence (Theorem 5.2)"},
			{Key: "join", Label: "join", Digits: -1,
				Help: "prod_i |G_ATi|: the combinations the join of the group's auxiliary tables yields"},
			{Key: "distinct", Label: "SA values", Digits: -1,
				Help: "distinct sensitive values in the group: at least ceil(1/beta) (Theorem 7.2)"},
		},
		Presence: func(values model.Values) (float64, string) {
			return format.ParamAlpha.Of(values).Float(), "alpha = " + format.ParamAlpha.Text(values) + " (Wang, Theorem 5.1)"
		},
		Files:       []string{"at_<qi>.csv", format.FileST},
		Insensitive: "dropped: the release holds one value table per quasi-identifier and the sensitive table only",
		Charts:      "Presence",
		ChartParams: []string{"alpha", "beta"},
		Certifies: "every record a group covers is present with probability |G|/prod_i|G_ATi| <= alpha and has any sensitive value " +
			"with probability c/|G| <= beta given presence (Wang, Theorems 5.1-5.2), and every group holds ceil(1/beta) distinct " +
			"sensitive values (Theorem 7.2); the probabilities assume an attacker who knows nothing beyond the release and reads " +
			"one group at a time: Theorem 5.1 bounds presence within a group, and a record whose values also appear in other groups' " +
			"tables is covered by each of them, so an attacker who combines the groups may believe it present with up to " +
			"1 - prod_G (1 - p_G), which can exceed alpha and is stated beside the release as a figure outside the paper's model; " +
			"the correlations between attributes are deliberately not preserved",
		Example: method.Example{Input: "dataset:patients",
			Roles:  model.Roles{IDs: []string{"name"}, QIs: []string{"age", "gender", "zipcode"}, SA: "disease"},
			Params: model.Values{"alpha": "0.5", "beta": "0.5", "seed": "1"},
			Query:  "COUNT(*) WHERE disease = 'stroke' AND age >= 45"},
		Study:     study,
		Baselines: []method.Baseline{mondrian},
		Grid:      grid,
	}
}

// run is the state a Result's closures share.
type run struct {
	in      *method.Input
	values  model.Values
	qiCols  []*model.Column
	sa      *model.Column
	groups  [][]int32 // member rows, in construction order
	ids     []int     // the group's GroupID in the preview (see groupIDs)
	sch     *scheme
	stats   stats
	g       int // ceil(1/beta)
	atFiles []string
	// across is how the groups overlap on the input's records.
	across across
	res    *method.Result
	given  string // the column that gave the groups ("": Algorithm 2; grouping.go)
}

// Run builds the ambiguity scheme with Algorithm 2.
func (Method) Run(ctx context.Context, in *method.Input) (*method.Result, error) {
	spec := Method{}.Spec()
	cfg, err := Decode(in.Values, in.Table.Rows)
	if err != nil {
		return nil, err
	}
	values, alpha, beta := cfg.Values, cfg.Alpha, cfg.Beta
	r := &run{in: in, values: values, g: ceilInv(beta)}
	if err := r.resolve(); err != nil {
		return nil, err
	}
	c := r.codes()
	groups, st, err := r.form(ctx, c, alpha, beta)
	if err != nil {
		return nil, err
	}
	if len(groups) == 0 {
		return nil, &model.ParamError{Param: format.ParamAlpha.Name(), Value: format.ParamAlpha.Text(values),
			Reason: fmt.Sprintf("no QI-group reaches %s-presence: all %d records would be suppressed", format.ParamAlpha.Text(values), in.Table.Rows),
			Hint:   "raise alpha, add quasi-identifiers, or lower ceil(1/beta)"}
	}
	r.groups, r.stats = groups, st
	r.ids = groupIDs(len(groups), values[model.SeedParam.Name], in.IDBase)
	r.sch = r.buildScheme()
	res, err := r.result(spec)
	if err != nil {
		return nil, err
	}
	r.noteGiven(res)
	// The figures across groups cost more than the groups themselves on a
	// large table: the workbench shows the groups first.
	var mu sync.Mutex
	var figs []releasedir.Figure
	res.Deferred = func(ctx context.Context) ([]releasedir.Figure, error) {
		mu.Lock()
		defer mu.Unlock()
		if figs != nil {
			return figs, nil
		}
		a, err := r.sch.acrossGroups(ctx, r.qiCols, r.sa)
		if err != nil {
			return nil, err // cancelled: the next call computes them again
		}
		r.across = a
		figs = []releasedir.Figure{
			{Name: coveredByMany, Value: float64(a.Multi), OK: true},
			{Name: combinedPresence, Value: a.MaxCombined, OK: true},
		}
		return figs, nil
	}
	return res, nil
}

// resolve finds the columns and refuses names the release files need.
func (r *run) resolve() error {
	in := r.in
	if len(in.Roles.QIs) == 0 {
		return &model.ParamError{Param: "qi", Reason: "the ambiguity scheme needs at least one quasi-identifier", Fixes: []model.Fix{{Setting: model.SetQI}}}
	}
	if len(in.Roles.QIs) > 64 {
		return &model.ParamError{Param: "qi", Value: fmt.Sprint(len(in.Roles.QIs)), Reason: "at most 64 quasi-identifiers"}
	}
	cols, err := in.Table.MustColumns("qi", in.Roles.QIs)
	if err != nil {
		return err
	}
	r.qiCols = cols
	if r.sa = in.Table.Column(in.Roles.SA); r.sa == nil {
		return &model.ParamError{Param: "sa", Value: in.Roles.SA, Reason: "no such column", Hint: "the ambiguity scheme needs a sensitive attribute",
			Fixes: []model.Fix{{Setting: model.SetSA}}}
	}
	for _, q := range in.Roles.QIs {
		if q == "GroupID" {
			return &model.ParamError{Param: "qi", Value: q, Reason: "a quasi-identifier may not be called GroupID (the auxiliary tables use that name)"}
		}
	}
	if s := in.Roles.SA; s == "GroupID" || s == "Frequency" {
		return &model.ParamError{Param: "sa", Value: s, Reason: "the sensitive attribute may not be called GroupID or Frequency (st.csv uses those names)"}
	}
	r.atFiles = atFileNames(in.Roles.QIs)
	return nil
}

// atFileNames names the auxiliary tables at_<qi>.csv, with characters
// that cannot be in a file name replaced and clashes numbered.
func atFileNames(qis []string) []string {
	out := make([]string, len(qis))
	used := map[string]bool{format.FileST: true}
	for i, q := range qis {
		var b strings.Builder
		for _, ch := range q {
			if ch < 128 && (ch == '-' || ch == '_' || ch == '.' || ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z') {
				b.WriteRune(ch)
			} else {
				b.WriteByte('_')
			}
		}
		name := "at_" + b.String() + ".csv"
		for n := 2; used[name]; n++ {
			name = fmt.Sprintf("at_%s_%d.csv", b.String(), n)
		}
		used[name] = true
		out[i] = name
	}
	return out
}

// codes turns the table into Algorithm 2's input; records with a missing
// value take no part (the pipeline has dropped them already).
func (r *run) codes() *codes {
	t := r.in.Table
	k := len(r.qiCols)
	c := &codes{n: t.Rows, k: k, vals: make([]uint32, t.Rows*k), sa: r.sa.Codes, dom: make([]int, k),
		saDom: len(r.sa.Dict), skip: make([]bool, t.Rows)}
	for i, col := range r.qiCols {
		c.dom[i] = len(col.Dict)
		for row, code := range col.Codes {
			if code == model.Missing {
				c.skip[row] = true
				continue
			}
			c.vals[row*k+i] = code
		}
	}
	for row, code := range r.sa.Codes {
		if code == model.Missing {
			c.skip[row] = true
		}
	}
	return c
}

// feasible explains parameter values no group can meet (SPEC 2.5): beta
// needs ceil(1/beta) distinct sensitive values, and a group of h records
// with distinct sensitive values has presence at least h / prod_i min(h,
// d_i), d_i being the distinct values of QI_i.
func feasible(c *codes, alpha, beta model.Bound, r *run) error {
	seenSA := make([]bool, c.saDom)
	seen := make([][]bool, c.k)
	for i := range seen {
		seen[i] = make([]bool, c.dom[i])
	}
	ds := 0
	d := make([]int, c.k)
	for row := 0; row < c.n; row++ {
		if c.skip[row] {
			continue
		}
		if !seenSA[c.sa[row]] {
			seenSA[c.sa[row]] = true
			ds++
		}
		for i := 0; i < c.k; i++ {
			if v := c.vals[row*c.k+i]; !seen[i][v] {
				seen[i][v] = true
				d[i]++
			}
		}
	}
	if ds < r.g {
		return &model.ParamError{Param: format.ParamBeta.Name(), Value: format.ParamBeta.Text(r.values),
			Reason: fmt.Sprintf("beta-association needs groups of ceil(1/beta) = %d distinct values of %s, which has %d", r.g, r.sa.Name, ds),
			Hint:   fmt.Sprintf("raise beta to at least 1/%d = %.4g", max(ds, 1), 1/float64(max(ds, 1)))}
	}
	// lowest is the least presence a group of h records with distinct
	// sensitive values can have.
	lowestJoin := func(h int) joinSize {
		j := oneJoin()
		for _, di := range d {
			j = j.times(min(h, di))
		}
		return j
	}
	lowest := func(h int) float64 { return float64(h) / lowestJoin(h).float() }
	best, bestH := math.Inf(1), r.g
	for h := r.g; h <= ds; h++ {
		if p := lowest(h); p < best {
			best, bestH = p, h
		}
		if lowestJoin(h).within(alpha, h) {
			return nil
		}
	}
	reason := fmt.Sprintf("no group can reach alpha-presence: with distinct sensitive values the lowest possible presence is %.4g (%d records)", best, bestH)
	if best <= 1 {
		return &model.ParamError{Param: format.ParamAlpha.Name(), Value: format.ParamAlpha.Text(r.values), Reason: reason,
			Hint: fmt.Sprintf("raise alpha to at least %.4g, or add quasi-identifiers with more values", best)}
	}
	// Above 1 no alpha in (0,1] helps: the groups ceil(1/beta) asks for
	// hold more records than their values can combine into. Smaller groups
	// (a higher beta) may fit.
	hint := "add quasi-identifiers with more distinct values"
	for h := r.g - 1; h >= 2; h-- {
		if p := lowest(h); p <= 1 {
			hint += fmt.Sprintf(", or raise beta to 1/%d = %.4g, where groups of %d records can reach presence %.4g (with alpha >= %.4g)", h, 1/float64(h), h, p, p)
			break
		}
	}
	return &model.ParamError{Param: format.ParamAlpha.Name(), Value: format.ParamAlpha.Text(r.values),
		Reason: reason + fmt.Sprintf(", above 1: no alpha in (0,1] can be met, because a group of %d records has fewer than %d combinations of these quasi-identifiers' values", bestH, bestH),
		Hint:   hint}
}

// groupIDs numbers the groups as the release will: with a fixed seed the
// published GroupIDs are a permutation drawn from the seed (the first
// draw of Release), so the preview shows the ids of the files; with a
// random seed the preview numbers groups in construction order and the
// release permutes them. Construction order follows the input's row order
// and is never published. Every id is after base (method.Input.IDBase).
func groupIDs(m int, seedText string, base int) []int {
	ids := make([]int, m)
	seed, fixed, _ := model.ParseSeed(seedText)
	if !fixed {
		for j := range ids {
			ids[j] = base + j + 1
		}
		return ids
	}
	perm := model.NewRand(seed).Perm(m)
	for j := range ids {
		ids[j] = base + perm[j] + 1
	}
	return ids
}

// buildScheme turns the groups into the published tables: per QI the
// distinct values of each group, and each group's sensitive values with
// their frequencies (Definition 3.3).
func (r *run) buildScheme() *scheme {
	s := newScheme(r.in.Roles.QIs, r.in.Roles.SA, r.groups, r.qiCols, r.sa)
	return s
}

// newScheme builds the scheme of the given groups of rows (also used by
// tests to evaluate a hand-made grouping such as Figure 2). Each table's
// rows come group by group, in the order of first appearance.
func newScheme(qis []string, sa string, groups [][]int32, qiCols []*model.Column, saCol *model.Column) *scheme {
	s := &scheme{qis: qis, sa: sa, groups: len(groups), at: make([]valueTable, len(qiCols))}
	rows := 0
	for _, g := range groups {
		rows += len(g)
	}
	build := func(c *model.Column, freq bool) valueTable {
		t := valueTable{name: c.Name, kind: c.Kind, col: c, text: c.Dict, num: c.Nums, start: make([]int32, len(groups)+1),
			code: make([]int32, 0, rows), group: make([]int32, 0, rows)}
		if freq {
			t.freq = make([]int32, 0, rows)
		}
		// slot[code] is the row of code in the current group (+1), or 0.
		slot := make([]int32, len(c.Dict))
		for gi, grp := range groups {
			first := len(t.code)
			t.start[gi] = int32(first)
			for _, row := range grp {
				code := c.Codes[row]
				if x := slot[code]; x > 0 {
					if freq {
						t.freq[x-1]++
					}
					continue
				}
				t.code = append(t.code, int32(code))
				t.group = append(t.group, int32(gi))
				if freq {
					t.freq = append(t.freq, 1)
				}
				slot[code] = int32(len(t.code))
			}
			for _, code := range t.code[first:] {
				slot[code] = 0
			}
		}
		t.start[len(groups)] = int32(len(t.code))
		return t
	}
	for i, col := range qiCols {
		s.at[i] = build(col, false)
	}
	s.st = build(saCol, true)
	s.finish()
	return s
}

func (r *run) result(spec method.Spec) (*method.Result, error) {
	values := r.values
	s := r.sch
	res := &method.Result{Spec: spec, Values: values, RowsIn: r.in.Table.Rows, Workload: workload.CountIn}
	figs := s.figures()
	leafPos := r.saLeafPositions()
	rank := make([][]int32, len(r.qiCols))
	for i, col := range r.qiCols {
		rank[i] = ranks(col)
	}
	maxP, maxA, minDistinct := 0.0, 0.0, math.MaxInt
	presentOK, associatedOK := true, true // exactly, group by group
	buf := make([]uint32, 0, 64)
	jd := newJudged(s, spec, values)
	res.Groups = make([]method.Group, 0, len(r.groups))
	k := len(r.qiCols)
	qiTexts, made := make([]string, k*len(r.groups)), make(summaries, k) // every group's QI a slice of qiTexts
	for i := range made {
		made[i] = map[[3]uint32]string{}
	}
	for gi, grp := range r.groups {
		qi := r.qiSummary(gi, rank, buf, made, qiTexts[gi*k:(gi+1)*k:(gi+1)*k])
		g := method.Group{ID: r.ids[gi], Rows: grp, QI: qi, Figures: figs[gi]}
		if leafPos != nil {
			pos := make([]int32, len(grp))
			for j, row := range grp {
				pos[j] = leafPos[r.sa.Codes[row]]
			}
			g.SAHist = release.HistBins(len(r.in.Hierarchies[r.in.Roles.SA].Leaves), pos, 8)
		}
		v := jd.of(gi, &g)
		presentOK = presentOK && !v.breaksP
		associatedOK = associatedOK && !v.breaksA
		res.Groups = append(res.Groups, g)
		res.Published += s.size[gi]
		maxP = math.Max(maxP, figs[gi][FigPresence])
		maxA = math.Max(maxA, figs[gi][FigAssociation])
		minDistinct = min(minDistinct, int(s.st.count[gi]))
	}
	res.Suppressed = r.stats.Suppressed
	avg := float64(res.Published) / float64(len(r.groups))
	res.Summary = []releasedir.Figure{
		{Name: worstPresence, Short: "Pr(t∈T)", Value: maxP, Limit: format.ParamAlpha.Text(values), OK: presentOK},
		{Name: worstAssociation, Short: "assoc", Value: maxA, Limit: format.ParamBeta.Text(values), OK: associatedOK},
		{Name: "groups", Value: float64(len(r.groups)), OK: true},
		{Name: utilityName, Value: avg, OK: true},
		{Name: "min distinct sensitive values (Theorem 7.2: >= ceil(1/beta))", Value: float64(minDistinct), OK: minDistinct >= r.g},
		{Name: "residues placed by Step 3", Value: float64(r.stats.Placed), OK: true},
		{Name: "records suppressed", Value: float64(res.Suppressed), OK: true},
	}
	res.Utility = releasedir.Figure{Name: utilityName, Short: "avg |G|", Value: avg, OK: true}
	res.Notes = append(res.Notes, fmt.Sprintf("Algorithm 2: ceil(1/beta) = %d; Step 2 built %d groups, Step 3 placed %d residues, %d records suppressed",
		r.g, r.stats.Step2, r.stats.Placed, res.Suppressed))
	if r.stats.Parked > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("Step 2 gave up on %d groups that stayed above alpha with one record from every non-empty bucket: "+
			"each time the seed record was set aside for Step 3 and construction went on (Wang, Section 7, does not say what to do then)", r.stats.Parked))
	}
	if frac := float64(res.Suppressed) / float64(max(res.RowsIn, 1)); frac > suppressionWarning {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%.0f%% of the records are suppressed (%d of %d): no group could take them within alpha = %s; "+
			"raise alpha, add quasi-identifiers with more values, or raise beta", 100*frac, res.Suppressed, res.RowsIn, format.ParamAlpha.Text(values)))
		res.SuppressionWarned = true
	}
	if r.stats.Cut > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("pick: %d of %d picks took the best of the first %d candidates of a bucket (the bucket index bound was not reached)",
			r.stats.Cut, r.stats.Picks, defaultWindow))
	}
	for i, name := range r.atFiles {
		res.Files = append(res.Files, releasedir.FileEntry{Name: name, Rows: len(s.at[i].code)})
	}
	res.Files = append(res.Files, releasedir.FileEntry{Name: format.FileST, Rows: len(s.st.code)})
	r.res = res
	res.Answerer = s
	res.Detail = r.detail
	res.Charts = r.charts
	res.Release = r.release
	return res, nil
}

// verdict is how a group stands against the parameters: its exact
// figures and what method.Group.Judge and Breaks say of them.
type verdict struct {
	exact            []*big.Rat
	violation        bool
	breaksP, breaksA bool
}

// judged gives every group its exact figures and verdict, computed once
// per distinct (|G|, prod_i |G_ATi|, largest frequency, distinct
// sensitive values): the figures are functions of these counts, so
// groups that share them are judged alike and share their (read-only)
// exact values. A join beyond 2^53 (whose float64 figure could depend on
// the order of its factors) is judged group by group.
type judged struct {
	s      *scheme
	spec   method.Spec
	values model.Values
	seen   map[[4]uint64]verdict
}

func newJudged(s *scheme, spec method.Spec, values model.Values) *judged {
	return &judged{s: s, spec: spec, values: values, seen: map[[4]uint64]verdict{}}
}

// of sets g's Exact and Violation (g.Figures set) and returns its verdict.
func (j *judged) of(gi int, g *method.Group) verdict {
	s := j.s
	join := s.exactJoin(gi)
	key := [4]uint64{uint64(s.size[gi]), join.n, uint64(s.maxFreq[gi]), uint64(s.st.count[gi])}
	v, ok := j.seen[key]
	if !ok || join.big != nil || join.n > 1<<53 {
		g.Exact = s.exact(gi)
		g.Judge(j.spec, j.values)
		v = verdict{exact: g.Exact, violation: g.Violation,
			breaksP: g.Breaks(j.spec, FigPresence, j.values), breaksA: g.Breaks(j.spec, FigAssociation, j.values)}
		if join.big == nil && join.n <= 1<<53 {
			j.seen[key] = v
		}
	}
	g.Exact, g.Violation = v.exact, v.violation
	return v
}

// saLeafPositions maps SA codes to leaf positions of the SA hierarchy
// (nil without one).
func (r *run) saLeafPositions() []int32 {
	h := r.in.Hierarchies[r.in.Roles.SA]
	if h == nil {
		return nil
	}
	out := make([]int32, len(r.sa.Dict))
	for code, v := range r.sa.Dict {
		l, ok := h.Leaf(v)
		if !ok {
			return nil
		}
		out[code] = int32(h.LeafPos(l))
	}
	return out
}

// ranks orders a column's codes by value.
func ranks(c *model.Column) []int32 {
	out := make([]int32, len(c.Dict))
	for rnk, code := range c.SortedCodes() {
		out[code] = int32(rnk)
	}
	return out
}

// summaries are the texts qiSummary has made, each made once: groups
// share them (per QI, by the first and last value and their number).
type summaries []map[[3]uint32]string

// qiSummary describes each QI's auxiliary-table values of a group: the
// value, a numeric range with the number of values, or the first values
// (written into out).
func (r *run) qiSummary(gi int, rank [][]int32, buf []uint32, made summaries, out []string) []string {
	for i, col := range r.qiCols {
		vals := r.atValues(gi, i, rank[i], buf[:0])
		if len(vals) == 1 {
			out[i] = col.Dict[vals[0]]
			continue
		}
		key := [3]uint32{vals[0], vals[len(vals)-1], uint32(len(vals))}
		if text, ok := made[i][key]; ok {
			out[i] = text
			continue
		}
		n := strconv.Itoa(len(vals))
		switch {
		case col.Kind == model.Numeric:
			out[i] = col.Dict[vals[0]] + ".." + col.Dict[vals[len(vals)-1]] + " (" + n + ")"
		case len(vals) == 2:
			out[i] = col.Dict[vals[0]] + "|" + col.Dict[vals[1]]
		default:
			out[i] = col.Dict[vals[0]] + "|… (" + n + ")"
		}
		made[i][key] = out[i]
	}
	return out
}

// atValues lists the codes of QI i in group gi (its AT rows) in value
// order, appended to buf.
func (r *run) atValues(gi, i int, rank []int32, buf []uint32) []uint32 {
	at := &r.sch.at[i]
	lo, hi := at.rowsOf(gi)
	vals := buf
	for _, code := range at.code[lo:hi] {
		vals = append(vals, uint32(code))
	}
	// Insertion sort: groups hold a few values.
	for x := 1; x < len(vals); x++ {
		for y := x; y > 0 && rank[vals[y]] < rank[vals[y-1]]; y-- {
			vals[y], vals[y-1] = vals[y-1], vals[y]
		}
	}
	return vals
}

// detail shows one group as published (one table per auxiliary table and
// the sensitive table) and as original, with the paper's reasoning for
// one member (Section 1.1 and Section 5).
func (r *run) detail(gi, limit int) method.Detail {
	s := r.sch
	id := r.ids[gi]
	grp := r.groups[gi]
	d := method.Detail{}
	d.Sections = append(d.Sections, method.Section{Title: "Why (Wang, Theorems 5.1-5.2)", Notes: r.reasoning(gi)})
	for i, col := range r.qiCols {
		sec := method.Section{Title: fmt.Sprintf("AT %s (%s)", col.Name, r.atFiles[i]), Header: []string{col.Name, "GroupID"}}
		vals := r.atValues(gi, i, ranks(col), nil)
		sec.Total = len(vals)
		for j, v := range vals {
			if j >= limit {
				break
			}
			sec.Rows = append(sec.Rows, []string{col.Dict[v], fmt.Sprint(id)})
		}
		d.Sections = append(d.Sections, sec)
	}
	st := method.Section{Title: "ST (st.csv)", Header: []string{"GroupID", r.sa.Name, "Frequency"}}
	for row, g := range s.st.group {
		if int(g) == gi {
			st.Total++
			if len(st.Rows) < limit {
				st.Rows = append(st.Rows, []string{fmt.Sprint(id), s.st.text[s.st.code[row]], fmt.Sprint(s.st.freq[row])})
			}
		}
	}
	d.Sections = append(d.Sections, st)
	mem := method.Section{Title: "members as in the original (not published)", Total: len(grp)}
	idCols := r.idColumns()
	for _, c := range idCols {
		mem.Header = append(mem.Header, c.Name)
	}
	for _, c := range r.qiCols {
		mem.Header = append(mem.Header, c.Name)
	}
	mem.Header = append(mem.Header, r.sa.Name)
	for j, row := range grp {
		if j >= limit {
			break
		}
		var line []string
		for _, c := range idCols {
			line = append(line, c.Value(int(row)))
		}
		for _, c := range r.qiCols {
			line = append(line, c.Value(int(row)))
		}
		mem.Rows = append(mem.Rows, append(line, r.sa.Value(int(row))))
	}
	d.Sections = append(d.Sections, mem)
	return d
}

func (r *run) idColumns() []*model.Column {
	var out []*model.Column
	for _, name := range r.in.Roles.IDs {
		if c := r.in.Table.Column(name); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// reasoning explains the probabilities of the group's first member as
// the paper does for Alan and Alice (Sections 1.1 and 5).
func (r *run) reasoning(gi int) []string {
	s := r.sch
	row := int(r.groups[gi][0])
	who := ""
	if ids := r.idColumns(); len(ids) > 0 {
		who = ids[0].Value(row)
	}
	var vals []string
	for _, c := range r.qiCols {
		vals = append(vals, c.Name+"="+c.Value(row))
	}
	if who == "" {
		who = "t"
	}
	id := r.ids[gi]
	size := int64(s.size[gi])
	var dims []string
	join := int64(1)
	for i := range s.at {
		m := int64(s.at[i].count[gi])
		dims = append(dims, fmt.Sprint(m))
		join *= m
	}
	sa := r.sa.Value(row)
	c := int64(0)
	for x, g := range s.st.group {
		if int(g) == gi && s.st.text[s.st.code[x]] == sa {
			c = int64(s.st.freq[x])
		}
	}
	pres := fraction(size, join)
	lines := []string{
		fmt.Sprintf("%s = (%s) is covered by group %d: each value is in its AT.", who, strings.Join(vals, ", "), id),
		fmt.Sprintf("Pr(%s in T) = %s because the join of the ATs on group %d has %s = %d", who, pres, id, strings.Join(dims, "*"), join),
		fmt.Sprintf("combinations and ST says %d are real: C(%d,%d)/C(%d,%d) = %d/%d = %s (Thm 5.1).",
			size, join-1, size-1, join, size, size, join, pres),
		fmt.Sprintf("Joined with ST's %d values the group gives %d*%d = %d tuples; %s has frequency %d,", size, join, size, join*size, sa, c),
		fmt.Sprintf("so Pr((%s,%s) and %s in T) = %d*C(%d,%d)/C(%d,%d) = %s,", who, sa, who, c, join*size-1, size-1, join*size, size, fraction(c, join)),
		fmt.Sprintf("and Pr((%s,%s) | %s in T) = (%s)/(%s) = %s = c/|G| with c = %d, |G| = %d (Thm 5.2).", who, sa, who, fraction(c, join), pres, fraction(c, size), c, size),
		fmt.Sprintf("alpha = %s, beta = %s: presence %.3f, largest association %.3f.", format.ParamAlpha.Text(r.values), format.ParamBeta.Text(r.values), s.presence(gi), s.association(gi)),
	}
	return lines
}

// OpenRelease reads an exported release for answering queries from its
// files alone.
func (Method) OpenRelease(dir string) (method.Answerer, error) {
	return openScheme(dir, nil)
}

// OpenReleaseTables is OpenRelease reading the files as the tables table
// gives (method.TablesOpener): check --original's checker parsed them
// already.
func (Method) OpenReleaseTables(dir string, table func(name string) (*model.Table, error)) (method.Answerer, error) {
	return openScheme(dir, table)
}

// charts draws how the groups sit against the parameters: their presence
// probabilities in tenths of alpha, and their sizes from ceil(1/beta) up.
func (r *run) charts() []method.Section {
	s := r.sch
	alpha := format.ParamAlpha.Float(r.values)
	pres := method.Section{Title: fmt.Sprintf("groups by presence Pr(t in T), alpha = %s", format.ParamAlpha.Text(r.values))}
	counts := make([]float64, 10)
	for g := 0; g < s.groups; g++ {
		counts[presenceBin(s.presence(g), alpha)]++
	}
	for b := range counts {
		pres.Labels = append(pres.Labels, fmt.Sprintf("<=%.3g", alpha*float64(b+1)/10))
	}
	pres.Series = []method.Series{{Name: "groups", Values: counts}}
	sizes := method.Section{Title: fmt.Sprintf("groups by size |G|, ceil(1/beta) = %d", r.g)}
	top := r.g + 7
	byS := make([]float64, top-r.g+1)
	for _, n := range s.size {
		byS[min(n, top)-r.g]++
	}
	for n := r.g; n <= top; n++ {
		label := strconv.Itoa(n)
		if n == top {
			label = ">=" + label
		}
		sizes.Labels = append(sizes.Labels, label)
	}
	sizes.Series = []method.Series{{Name: "groups", Values: byS}}
	sizes.Notes = []string{fmt.Sprintf("%d records in %d groups, %d suppressed", r.res.Published, s.groups, r.res.Suppressed)}
	return []method.Section{pres, sizes}
}

// presenceBin is the bar of the presence chart a probability p falls in:
// bar b (0..9) holds (alpha*b/10, alpha*(b+1)/10], upper-inclusive as its
// label "<=" says, so p = alpha/2 is in the "<=alpha/2" bar. Values
// within rounding of a bound count as on it; p above alpha (a violating
// group) goes to the last bar.
func presenceBin(p, alpha float64) int {
	b := int(math.Ceil(p/alpha*10-1e-9)) - 1
	return min(max(b, 0), 9)
}
