// Package check is the independent checker of sampling releases (Sattar,
// Li, Ding, Liu, Vincent): from published.csv and the public knowledge the
// manifest lists (taxonomies with the public probability of every value,
// the sensitive values' probabilities) it recomputes every record's
// observed confidence beta·#s/|E| (Eq. 2), expected confidence
// 1-(1-Pr(t))^n (Eq. 1) and distortion (Definition 10), and fails when a
// record breaks Eq. 3 or the distortion limit. It imports model and
// algorithms/verify only, never the method.
package check

import (
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/verify"
	"privlab/model"
)

const file = "published.csv"

// details is the manifest's method part as the checker reads it.
type details struct {
	SamplingRate      float64        `json:"sampling_rate"`
	MaxDistortion     float64        `json:"max_distortion"`
	RowsConsidered    int            `json:"rows_considered"`
	RowsSampled       int            `json:"rows_sampled"`
	RowsUnsampled     int            `json:"rows_unsampled"`
	RowsSuppressed    int            `json:"rows_suppressed_by_method"`
	RowsPublished     int            `json:"rows_published"`
	Marginals         string         `json:"marginals"`
	MinGeneralization map[string]int `json:"min_generalization"`
	WorstMargin       float64        `json:"worst_margin"`
	MaxDistortionSeen float64        `json:"max_distortion_published"`
	AvgDistortion     float64        `json:"avg_distortion"`
	Attributes        []attribute    `json:"public_knowledge"`
	Sensitive         []value        `json:"sensitive_marginals"`
}

type attribute struct {
	Name  string `json:"attribute"`
	Nodes []node `json:"nodes"`
}

type node struct {
	Value  string  `json:"value"`
	Parent int     `json:"parent"`
	P      float64 `json:"p"`
}

type value struct {
	Value string  `json:"value"`
	P     float64 `json:"p"`
}

// tree is one taxonomy read back.
type tree struct {
	name    string
	nodes   []node
	depth   []int
	height  int
	below   []int     // subtree height
	mass    []float64 // sum of the leaves' probabilities, in leaf order
	leaves  []int
	first   []int
	last    []int
	byLabel map[string]int
	numeric bool
	byNum   map[float64]int
}

func readTree(a attribute) (*tree, error) {
	n := len(a.Nodes)
	if n == 0 {
		return nil, fmt.Errorf("the taxonomy of %s has no nodes", a.Name)
	}
	t := &tree{name: a.Name, nodes: a.Nodes, depth: make([]int, n), below: make([]int, n), mass: make([]float64, n),
		first: make([]int, n), last: make([]int, n), byLabel: map[string]int{}}
	children := make([][]int, n)
	for i, nd := range a.Nodes {
		if _, dup := t.byLabel[nd.Value]; dup {
			return nil, fmt.Errorf("the taxonomy of %s has two nodes labelled %q", a.Name, nd.Value)
		}
		t.byLabel[nd.Value] = i
		if (i == 0) != (nd.Parent == -1) || nd.Parent >= i {
			return nil, fmt.Errorf("the taxonomy of %s: node %q has a bad parent (the root comes first, a parent before its children)", a.Name, nd.Value)
		}
		if math.IsNaN(nd.P) || nd.P < 0 || nd.P > 1 {
			return nil, fmt.Errorf("the taxonomy of %s: %q has probability %v, not in [0,1]", a.Name, nd.Value, nd.P)
		}
		if i > 0 {
			t.depth[i] = t.depth[nd.Parent] + 1
			children[nd.Parent] = append(children[nd.Parent], i)
		}
	}
	var walk func(x int)
	walk = func(x int) {
		t.first[x] = len(t.leaves)
		if len(children[x]) == 0 {
			t.leaves = append(t.leaves, x)
		}
		for _, c := range children[x] {
			walk(c)
		}
		t.last[x] = len(t.leaves) - 1
	}
	walk(0)
	sum := 0.0
	for _, l := range t.leaves {
		sum += a.Nodes[l].P
		t.height = max(t.height, t.depth[l])
		for x, up := l, 0; x >= 0; x, up = a.Nodes[x].Parent, up+1 {
			t.below[x] = max(t.below[x], up)
			if x == 0 {
				break
			}
		}
	}
	if sum > 1+1e-9 {
		return nil, fmt.Errorf("the values of %s have probabilities summing to %v > 1", a.Name, sum)
	}
	for x := range a.Nodes {
		if len(children[x]) > 0 && a.Nodes[x].P != 0 {
			return nil, fmt.Errorf("the taxonomy of %s gives the inner node %q a probability", a.Name, a.Nodes[x].Value)
		}
		m := 0.0
		for i := t.first[x]; i <= t.last[x]; i++ {
			m += a.Nodes[t.leaves[i]].P
		}
		t.mass[x] = m
	}
	t.numeric = true
	t.byNum = map[float64]int{}
	for _, l := range t.leaves {
		v, ok := model.ParseNumber(a.Nodes[l].Value)
		if !ok {
			t.numeric = false
			break
		}
		t.byNum[v] = l
	}
	return t, nil
}

// exactDistortion is Definition 10's distortion of a record generalized
// to nodes, as an exact rational: (1/d) sum_i (H_i - level_i) / H_i.
func exactDistortion(trees []*tree, nodes []int) *big.Rat {
	sum := new(big.Rat)
	for i, x := range nodes {
		if h := trees[i].height; h > 0 {
			sum.Add(sum, big.NewRat(int64(h-trees[i].depth[x]), int64(h)))
		}
	}
	if len(nodes) == 0 {
		return sum
	}
	return sum.Quo(sum, big.NewRat(int64(len(nodes)), 1))
}

// term is 1 - level/max level (Definition 10; root at level 0).
func (t *tree) term(x int) float64 {
	if t.height == 0 {
		return 0
	}
	return 1 - float64(t.depth[x])/float64(t.height)
}

// leaf finds an original value's leaf.
func (t *tree) leaf(text string) (int, bool) {
	if x, ok := t.byLabel[text]; ok && t.below[x] == 0 {
		return x, true
	}
	if t.numeric {
		if v, ok := model.ParseNumber(text); ok {
			x, ok := t.byNum[v]
			return x, ok
		}
	}
	return 0, false
}

// expected is Eq. 1, 1 - (1 - p)^n, as -expm1(n log1p(-p)).
func expected(p float64, n int) float64 {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	return -math.Expm1(float64(n) * math.Log1p(-p))
}

// tolerance absorbs floating-point noise in Eq. 3, whose expected
// confidence 1 - (1 - Pr(t))^n is computed in float64 (as the method
// computes it); toleranceText is how the check lines state it. The
// distortion bound and the sample's size are exact.
const (
	tolerance     = 1e-9
	toleranceText = "1e-9"
)

// Check verifies a sampling release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	m := rel.Manifest
	man := filepath.Join(rel.Dir, "manifest.json")
	var d details
	if err := verify.DecodeDetails(m, &d); err != nil || m.Details == nil {
		msg := "not the details of a sampling release"
		if err != nil {
			msg += ": " + err.Error()
		}
		return &model.InputError{File: man, Msg: "details: " + msg, Hint: "the manifest's details carry the public knowledge"}
	}
	t, err := rel.Table(file)
	if err != nil {
		// A release may publish no record at all: a header alone.
		if t = headerOnly(filepath.Join(rel.Dir, file)); t == nil {
			return err
		}
	}
	if !r.BindNames(file, t, append(append([]string(nil), m.QIs...), m.SA)) {
		return nil
	}
	if len(d.Attributes) != len(m.QIs) {
		return &model.InputError{File: man, Msg: fmt.Sprintf("public_knowledge describes %d attributes for %d quasi-identifiers", len(d.Attributes), len(m.QIs))}
	}
	trees := make([]*tree, len(m.QIs))
	for i, a := range d.Attributes {
		if a.Name != m.QIs[i] {
			return &model.InputError{File: man, Msg: fmt.Sprintf("public_knowledge describes %s where the quasi-identifier %s is expected", a.Name, m.QIs[i])}
		}
		if trees[i], err = readTree(a); err != nil {
			return &model.InputError{File: man, Msg: err.Error()}
		}
	}
	saP := map[string]float64{}
	saSum := 0.0
	for _, v := range d.Sensitive {
		if _, dup := saP[v.Value]; dup || math.IsNaN(v.P) || v.P < 0 || v.P > 1 {
			return &model.InputError{File: man, Msg: fmt.Sprintf("sensitive_marginals: %q is listed twice or has a probability outside [0,1]", v.Value)}
		}
		saP[v.Value] = v.P
		saSum += v.P
	}
	if saSum > 1+1e-9 {
		return &model.InputError{File: man, Msg: fmt.Sprintf("sensitive_marginals sum to %v > 1", saSum)}
	}

	// Parameters that bound the data, as floats (Eq. 3) and exactly (the
	// sample's size and delta').
	beta, okB := param(m, "sampling-rate")
	delta, okD := param(m, "max-distortion")
	betaB, _ := model.ParseBound(m.Parameters["sampling-rate"])
	deltaB, _ := model.ParseBound(m.Parameters["max-distortion"])
	r.Add(okB && beta > 0 && beta <= 1 && okD && delta >= 0 && delta <= 1, "parameters",
		"sampling-rate %s in (0,1] and max-distortion %s in [0,1]", m.Parameters["sampling-rate"], m.Parameters["max-distortion"])
	r.Claim("details.sampling_rate", d.SamplingRate, beta)
	r.Claim("details.max_distortion", d.MaxDistortion, delta)
	mg, err := minGeneralization(m.Parameters["min-generalization"], m.QIs, trees)
	r.Add(err == nil && sameLevels(mg, d.MinGeneralization), "min-generalization",
		"the minimum generalization %q gives %s (details state %s)%s", m.Parameters["min-generalization"],
		levelsText(m.QIs, mg), levelsText(m.QIs, d.MinGeneralization), errText(err))
	src := m.Parameters["marginals"]
	r.ClaimText("details.marginals", d.Marginals, src)
	r.Add(src == "table" || src == "file", "marginals", "public marginals from %q (table or file)", src)

	// Equivalence groups (Definition 8): identical generalized values.
	d1 := len(m.QIs)
	type grp struct {
		nodes []int
		size  int
		sa    map[string]int
	}
	groups := map[string]*grp{}
	var order []string
	rowGroup := make([]string, t.Rows)
	key := make([]byte, 4*d1)
	nodes := make([]int, d1)
	belowMin := 0
	for row := 0; row < t.Rows; row++ {
		for i, tr := range trees {
			text := t.Columns[i].Value(row)
			x, ok := tr.byLabel[text]
			if !ok {
				return &model.InputError{File: filepath.Join(rel.Dir, file), Line: row + 2, Column: i + 1, Field: m.QIs[i],
					Msg: fmt.Sprintf("%q is not a value of the taxonomy of %s", text, m.QIs[i])}
			}
			nodes[i] = x
			binary.LittleEndian.PutUint32(key[4*i:], uint32(x))
			if l := mg[m.QIs[i]]; l > 0 && x != 0 && tr.below[x] < l {
				belowMin++
			}
		}
		k := string(key)
		g, ok := groups[k]
		if !ok {
			g = &grp{nodes: append([]int(nil), nodes...), sa: map[string]int{}}
			groups[k] = g
			order = append(order, k)
		}
		g.size++
		g.sa[t.Columns[d1].Value(row)]++
		rowGroup[row] = k
	}
	// From the files alone the record's own value is unknown: a published
	// value passes when some value below it is the rule's levels down
	// (its subtree is that high). With the original and the audit record,
	// againstOriginal measures from the record's own value.
	r.Add(belowMin == 0, "minimum generalization",
		"every published value has at least the rule's levels of taxonomy below it (%d values do not); the record's own value is measured with --original and the audit record", belowMin)

	// Eq. 3 per record, distortion per record.
	n := t.Rows
	worstMargin, maxDist, sumDist := math.Inf(1), 0.0, 0.0
	violating, over, unknownSA := 0, 0, 0
	worstAt := ""
	for _, k := range order {
		g := groups[k]
		masses := make([]float64, d1)
		terms := 0.0
		for i, x := range g.nodes {
			masses[i] = trees[i].mass[x]
			terms += trees[i].term(x)
		}
		dist := terms / float64(d1)
		maxDist = math.Max(maxDist, dist)
		sumDist += dist * float64(g.size)
		if !deltaB.AllowsRat(exactDistortion(trees, g.nodes)) {
			over += g.size
		}
		for s, c := range g.sa {
			ps, known := saP[s]
			if !known {
				unknownSA += c
			}
			p := 1.0
			for _, q := range masses {
				p *= q
			}
			exp := expected(p*ps, n)
			obs := beta * float64(c) / float64(g.size)
			if margin := exp - obs; margin < worstMargin {
				worstMargin = margin
				worstAt = fmt.Sprintf("%s = %s in the group %s", m.SA, s, label(trees, g.nodes))
			}
			if obs > exp+tolerance {
				violating += c
			}
		}
	}
	if n == 0 {
		worstMargin = 0
	}
	avgDist := sumDist / math.Max(1, float64(n))
	r.Add(unknownSA == 0, "sensitive values", "every published sensitive value has a public probability (%d do not)", unknownSA)
	if violating == 0 {
		r.Add(true, "Eq. 3", "all %d published records: observed confidence <= expected confidence within %s (worst margin %.4g)", n, toleranceText, worstMargin)
	} else {
		r.Add(false, "Eq. 3", "%d published records have observed > expected confidence by more than %s; worst margin %.4g at %s", violating, toleranceText, worstMargin, worstAt)
	}
	r.Add(over == 0, "distortion", "every record's distortion is at most delta' = %s, exactly (max %.4f; %d records over)",
		m.Parameters["max-distortion"], maxDist, over)

	// Counts of Algorithm 1.
	dropped := m.RowsIn - d.RowsConsidered
	okCounts := d.RowsPublished == n && d.RowsConsidered >= 0 && dropped >= 0 &&
		d.RowsSampled == betaB.Floor(max(d.RowsConsidered, 0)) &&
		d.RowsUnsampled == d.RowsConsidered-d.RowsSampled &&
		d.RowsSuppressed+d.RowsPublished == d.RowsSampled && d.RowsSuppressed >= 0 &&
		m.Suppressed-d.RowsSuppressed == dropped
	r.Add(okCounts, "counts", "%d considered = %d published + %d suppressed + %d not sampled, with %d = floor(beta x %d) sampled; %d dropped for missing values",
		d.RowsConsidered, d.RowsPublished, d.RowsSuppressed, d.RowsUnsampled, d.RowsSampled, d.RowsConsidered, dropped)
	r.Claim("details.worst_margin", d.WorstMargin, worstMargin)
	r.Claim("details.max_distortion_published", d.MaxDistortionSeen, maxDist)
	r.Claim("details.avg_distortion", d.AvgDistortion, avgDist)

	// The limits the worst cases are held against.
	limits := map[string]string{"worst margin (expected - observed confidence)": ">= 0", "max distortion": m.Parameters["max-distortion"]}
	for _, f := range m.WorstCases {
		if want, ok := limits[f.Name]; ok {
			r.ClaimText("worst_cases."+f.Name+".limit", f.Limit, want)
		}
	}

	rc := verify.Recomputed{Groups: len(groups), Published: n, Tables: map[string]*model.Table{file: t},
		Figures: map[string]float64{
			"worst margin (expected - observed confidence)": worstMargin,
			"max distortion":     maxDist,
			"average distortion": avgDist,
		},
		Holds: map[string]bool{
			"worst margin (expected - observed confidence)": violating == 0,
			"max distortion": over == 0,
		}}
	if opt.Original != nil {
		if err := againstOriginal(m, &d, t, trees, mg, opt, r); err != nil {
			return err
		}
	}
	r.Compare(rel, rc, opt)
	return nil
}

// headerOnly reads a CSV file that holds its header row and nothing else
// as a table without rows (nil for any other file).
func headerOnly(path string) *model.Table {
	f, err := model.OpenText(path) // records bounded
	if err != nil {
		return nil
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) != 1 {
		return nil
	}
	t := &model.Table{Name: path}
	for _, name := range recs[0] {
		t.Columns = append(t.Columns, &model.Column{Name: name})
	}
	return t
}

func label(trees []*tree, nodes []int) string {
	parts := make([]string, len(nodes))
	for i, x := range nodes {
		parts[i] = trees[i].nodes[x].Value
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func param(m *model.Manifest, name string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(m.Parameters[name]), 64)
	return v, err == nil && !math.IsNaN(v)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}

// minGeneralization resolves the rule: auto (1 level for QIs whose values
// are numbers, 0 otherwise), none, or ATTR=L,...
func minGeneralization(s string, qis []string, trees []*tree) (map[string]int, error) {
	out := map[string]int{}
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "auto", "":
		for i, q := range qis {
			out[q] = 0
			if trees[i].numeric {
				out[q] = 1
			}
		}
		return out, nil
	case "none":
		for _, q := range qis {
			out[q] = 0
		}
		return out, nil
	}
	for _, q := range qis {
		out[q] = 0
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(part, "=")
		l, err := strconv.Atoi(strings.TrimSpace(v))
		k = strings.TrimSpace(k)
		if _, known := out[k]; !ok || err != nil || l < 0 || !known {
			return nil, fmt.Errorf("%q is not QI=L", part)
		}
		out[k] = l
	}
	return out, nil
}

// levelsText renders levels per attribute in QI order ("age 1, sex 0"),
// then any attribute that is not a QI, by name.
func levelsText(qis []string, levels map[string]int) string {
	if levels == nil {
		return "none"
	}
	var parts []string
	seen := map[string]bool{}
	for _, q := range qis {
		if l, ok := levels[q]; ok {
			parts = append(parts, fmt.Sprintf("%s %d", q, l))
			seen[q] = true
		}
	}
	var rest []string
	for k := range levels {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		parts = append(parts, fmt.Sprintf("%s %d", k, levels[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func sameLevels(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// againstOriginal proves the release faithful to the input: the records
// considered, the table's marginals when the manifest says they are the
// table's own, and, through the audit record, that every published row is
// a distinct input row whose values its generalized values cover, with its
// sensitive value, in shuffled order, and that each published value is at
// least the minimum generalization's levels above the record's own value
// (mg: levels per QI; Sattar et al., Section 4 and Algorithm 1, step 3).
// Without the audit record a maximum flow decides whether such an
// assignment exists (faithfulByFlow); the row order is then not tested.
func againstOriginal(m *model.Manifest, d *details, t *model.Table, trees []*tree, mg map[string]int, opt verify.Options, r *verify.Report) error {
	o, err := verify.NewOriginals(opt.Original, m)
	if err != nil {
		return err
	}
	eligible := make([]int, 0, o.Rows())
	for row := 0; row < opt.Original.Rows; row++ {
		if _, ok := o.Key(o.QIs, row); !ok {
			continue
		}
		if _, ok := o.Text(o.SA, row); ok {
			eligible = append(eligible, row)
		}
	}
	r.Claim("details.rows_considered", float64(d.RowsConsidered), float64(len(eligible)))
	if d.Marginals == "table" {
		bad := 0
		for i, tr := range trees {
			counts := map[int]int{}
			for _, row := range eligible {
				text, _ := o.Text(o.QIs[i], row)
				if l, ok := tr.leaf(text); ok {
					counts[l]++
				} else {
					bad++
				}
			}
			for _, l := range tr.leaves {
				if tr.nodes[l].P != float64(counts[l])/float64(len(eligible)) {
					bad++
				}
			}
		}
		counts := map[string]int{}
		for _, row := range eligible {
			s, _ := o.Text(o.SA, row)
			counts[s]++
		}
		for _, v := range d.Sensitive {
			if v.P != float64(counts[v.Value])/float64(len(eligible)) {
				bad++
			}
			delete(counts, v.Value)
		}
		bad += len(counts)
		r.Add(bad == 0, "marginals", "the public marginals are the original table's own value frequencies (%d differ)", bad)
	}
	var rows []int
	if opt.Audit != nil {
		rows = opt.Audit.RowMap[file]
	}
	if len(rows) == 0 && t.Rows > 0 {
		// Which original row is which only the audit record says; without
		// it a maximum flow decides whether any faithful assignment exists.
		faithfulByFlow(m, t, trees, mg, o, eligible, r)
		return nil
	}
	seen := map[int]bool{}
	bad := len(rows) != t.Rows
	d1 := len(m.QIs)
	// short counts published values fewer levels above the record's own
	// value than the rule asks; the root is exempt (it is as general as a
	// value gets, even where the value's leaf is shallower than the rule).
	short, shortAt := 0, ""
	for i := 0; !bad && i < t.Rows; i++ {
		row := rows[i]
		if row < 0 || row >= opt.Original.Rows || seen[row] {
			bad = true
			break
		}
		seen[row] = true
		if _, ok := o.Key(o.QIs, row); !ok {
			bad = true
			break
		}
		for q, tr := range trees {
			text, _ := o.Text(o.QIs[q], row)
			l, ok := tr.leaf(text)
			x := tr.byLabel[t.Columns[q].Value(i)]
			if !ok || !(tr.first[x] <= tr.first[l] && tr.last[l] <= tr.last[x]) {
				bad = true
				continue
			}
			if need := mg[m.QIs[q]]; x != 0 && tr.depth[l]-tr.depth[x] < need {
				if short == 0 {
					shortAt = fmt.Sprintf("%s: %s = %s is %d level(s) above %s, the rule asks %d (line %d)",
						file, m.QIs[q], tr.nodes[x].Value, tr.depth[l]-tr.depth[x], text, need, i+2)
				}
				short++
			}
		}
		if s, ok := o.Text(o.SA, row); !ok || s != t.Columns[d1].Value(i) {
			bad = true
		}
	}
	if bad {
		r.Add(false, "faithful", "the audit record does not pin %s to distinct original rows whose values its generalized values cover, with the same sensitive value", file)
		return nil
	}
	r.Add(true, "faithful", "every published row is a distinct original row: its generalized values cover the original values and its sensitive value is the original's")
	if short == 0 {
		r.Add(true, "minimum generalization of each record", "every published value is at least the rule's levels (%s) above the record's own value, or the root",
			levelsText(m.QIs, mg))
	} else {
		r.Add(false, "minimum generalization of each record", "%d published values are fewer levels above the record's own value than the rule (%s) asks; first %s",
			short, levelsText(m.QIs, mg), shortAt)
	}
	distinct := map[string]bool{}
	for i := 0; i < t.Rows; i++ {
		distinct[verify.PublishedKey(t.Columns, i)] = true
	}
	verify.Shuffled(file, rows, len(distinct), r)
	return nil
}
