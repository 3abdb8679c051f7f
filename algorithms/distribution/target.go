package distribution

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"privlab/algorithms/distribution/format"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
	"sort"
	"strconv"
	"strings"
)

// TargetKind names where a target distribution comes from (SPEC 2.4).
type TargetKind int

const (
	TargetUniform TargetKind = iota // uniform over the domain
	TargetTable                     // the table's own SA distribution (t-closeness style)
	TargetGroup                     // each group's own distribution (permutation only)
	TargetNormal                    // normal(mu, sigma) discretised over the domain
	TargetZipf                      // zipf(s) over the domain's value ranks
	TargetCustom                    // value,weight pairs from a CSV file
	// TargetGroupUniform is uniform over each group's own value range
	// (Koudas et al. 2009, Section 6.4).
	TargetGroupUniform
)

// DefaultMaxDenominator bounds the per-node weight ratios of a target
// (SPEC 2.4): small ratios keep allocations feasible for small groups.
const DefaultMaxDenominator = 8

// Target is a requested target distribution.
type Target struct {
	Kind      TargetKind
	Mu, Sigma float64
	S         float64
	File      string
	// Weights are the custom weights by value text (TargetCustom).
	Weights map[string]float64
	// order keeps the custom file's value order for messages.
	order []string
	// lines gives each custom value's line in the file (for messages).
	lines map[string]int
}

// String gives the spec the target was parsed from.
func (t Target) String() string {
	switch t.Kind {
	case TargetTable:
		return "table"
	case TargetGroup:
		return "group"
	case TargetGroupUniform:
		return "group-uniform"
	case TargetNormal:
		return "normal:" + model.FormatNumber(t.Mu) + "," + model.FormatNumber(t.Sigma)
	case TargetZipf:
		return "zipf:" + model.FormatNumber(t.S)
	case TargetCustom:
		return t.File
	}
	return "uniform"
}

// ParseTarget reads --target: uniform | table | group | group-uniform | normal:MU,SIGMA |
// zipf:S | FILE (a CSV of value,weight).
func ParseTarget(spec string) (Target, error) {
	name, arg, _ := strings.Cut(strings.TrimSpace(spec), ":")
	bad := func(reason, hint string) (Target, error) {
		return Target{}, &model.ParamError{Param: format.ParamTarget.Name(), Value: spec, Reason: reason, Hint: hint}
	}
	switch strings.ToLower(name) {
	case "", "uniform":
		return Target{Kind: TargetUniform}, nil
	case "table":
		return Target{Kind: TargetTable}, nil
	case "group":
		return Target{Kind: TargetGroup}, nil
	case "group-uniform":
		return Target{Kind: TargetGroupUniform}, nil
	case "normal":
		a, b, ok := strings.Cut(arg, ",")
		mu, ok1 := model.ParseNumber(strings.TrimSpace(a))
		sigma, ok2 := model.ParseNumber(strings.TrimSpace(b))
		if !ok || !ok1 || !ok2 {
			return bad("normal needs a mean and a standard deviation", "e.g. normal:2048,300")
		}
		if !(sigma > 0) {
			return bad("sigma must be > 0", "e.g. normal:2048,300")
		}
		return Target{Kind: TargetNormal, Mu: mu, Sigma: sigma}, nil
	case "zipf":
		s, ok := model.ParseNumber(strings.TrimSpace(arg))
		if !ok || s < 0 || math.IsInf(s, 0) {
			return bad("zipf needs an exponent s >= 0", "e.g. zipf:0.5")
		}
		return Target{Kind: TargetZipf, S: s}, nil
	}
	return LoadTargetFile(spec)
}

// LoadTargetFile reads a custom target: CSV rows value,weight (an optional
// header "value,weight" is skipped). Weights must be >= 0 and not all 0.
func LoadTargetFile(path string) (Target, error) {
	f, err := model.OpenText(path) // records bounded (SPEC 2.1 limits)
	if err != nil {
		return Target{}, &model.ParamError{Param: format.ParamTarget.Name(), Value: path, Reason: "not a known target and not a readable file (" + csvfile.OpenReason(err) + ")",
			Hint: "use uniform, table, group, normal:MU,SIGMA, zipf:S or a CSV file of value,weight"}
	}
	defer f.Close()
	return ParseTargetCSV(path, f)
}

// ParseTargetCSV reads value,weight rows.
func ParseTargetCSV(file string, r io.Reader) (Target, error) {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	t := Target{Kind: TargetCustom, File: file, Weights: map[string]float64{}}
	total := 0.0
	first := true
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return Target{}, &model.InputError{File: file, Line: pe.StartLine, Msg: "malformed CSV: " + pe.Err.Error(),
					Hint: "rows are value,weight; quote values that contain a comma"}
			}
			var ie *model.InputError
			if errors.As(err, &ie) {
				return Target{}, ie
			}
			return Target{}, &model.InputError{File: file, Msg: "read failed: " + err.Error()}
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != 2 {
			return Target{}, &model.InputError{File: file, Line: line, Msg: fmt.Sprintf("expected 2 fields (value,weight), found %d", len(rec))}
		}
		v, ws := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		w, ok := model.ParseNumber(ws)
		if !ok {
			if first {
				first = false
				continue // header
			}
			return Target{}, &model.InputError{File: file, Line: line, Column: 2, Msg: fmt.Sprintf("weight %q is not a number", ws)}
		}
		first = false
		if w < 0 || math.IsInf(w, 0) {
			return Target{}, &model.InputError{File: file, Line: line, Column: 2, Msg: "weight must be >= 0"}
		}
		if _, dup := t.Weights[v]; dup {
			return Target{}, &model.InputError{File: file, Line: line, Column: 1, Msg: fmt.Sprintf("value %q listed twice", v)}
		}
		t.Weights[v] = w
		t.order = append(t.order, v)
		if t.lines == nil {
			t.lines = map[string]int{}
		}
		t.lines[v] = line
		total += w
	}
	if total <= 0 {
		return Target{}, &model.InputError{File: file, Msg: "no positive weight", Hint: "rows are value,weight with weight >= 0"}
	}
	return t, nil
}

// Masses returns the requested probability of every leaf of h, in leaf
// order. counts are the leaf counts the table (TargetTable) or the group
// (TargetGroup) holds; they are ignored by the other kinds.
func (t Target) Masses(h *hierarchy.Hierarchy, counts []float64) ([]float64, error) {
	m, err := t.weights(h, counts)
	if err != nil {
		return nil, err
	}
	return t.normalize(m)
}

// weights is every leaf's unnormalized weight under the target's kind,
// in leaf order.
func (t Target) weights(h *hierarchy.Hierarchy, counts []float64) ([]float64, error) {
	n := len(h.Leaves)
	m := make([]float64, n)
	switch t.Kind {
	case TargetUniform:
		for i := range m {
			m[i] = 1
		}
	case TargetTable, TargetGroup, TargetGroupUniform:
		if err := t.checkCounts(h, counts); err != nil {
			return nil, err
		}
		copy(m, counts)
		if t.Kind == TargetGroupUniform {
			spanWeights(m, counts)
		}
	case TargetNormal:
		if !h.Numeric {
			return nil, &model.ParamError{Param: format.ParamTarget.Name(), Value: t.String(), Reason: "a normal target needs a numeric sensitive attribute", Hint: "use uniform, table, zipf:S or a custom file"}
		}
		t.normalWeights(h, m)
	case TargetZipf:
		// Koudas et al. 2009, Section 6.3: P(k) proportional to (1/k)^s for
		// the value of rank k in domain order.
		for i := range m {
			m[i] = math.Pow(1/float64(i+1), t.S)
		}
	case TargetCustom:
		if err := t.customWeights(h, m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// checkCounts refuses leaf counts of the wrong length or not finite and
// >= 0.
func (t Target) checkCounts(h *hierarchy.Hierarchy, counts []float64) error {
	if len(counts) != len(h.Leaves) {
		return &model.ParamError{Param: format.ParamTarget.Name(), Value: t.String(),
			Reason: fmt.Sprintf("%d counts given for a domain of %d values", len(counts), len(h.Leaves))}
	}
	for i, x := range counts {
		if !(x >= 0) || math.IsInf(x, 0) {
			return &model.ParamError{Param: format.ParamTarget.Name(), Value: t.String(),
				Reason: fmt.Sprintf("count %v of %s is not a finite number >= 0", x, h.Nodes[h.Leaves[i]].Label)}
		}
	}
	return nil
}

// spanWeights puts equal weight on every value between the group's
// smallest and largest value in domain order, none elsewhere.
func spanWeights(m, counts []float64) {
	first, last := -1, -1
	for i, x := range counts {
		if x > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	for i := range m {
		m[i] = 0
		if first >= 0 && i >= first && i <= last {
			m[i] = 1
		}
	}
}

// normalWeights gives each value the normal mass of the interval between
// the midpoints to its neighbours in value order (the ends reach to
// infinity).
func (t Target) normalWeights(h *hierarchy.Hierarchy, m []float64) {
	n := len(h.Leaves)
	cdf := func(x float64) float64 { return 0.5 * math.Erfc(-(x-t.Mu)/(t.Sigma*math.Sqrt2)) }
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	val := func(i int) float64 { return h.Nodes[h.Leaves[i]].Value }
	sort.SliceStable(order, func(a, b int) bool { return val(order[a]) < val(order[b]) })
	for j, i := range order {
		lo, hi := math.Inf(-1), math.Inf(1)
		if j > 0 {
			lo = (val(order[j-1]) + val(i)) / 2
		}
		if j < n-1 {
			hi = (val(i) + val(order[j+1])) / 2
		}
		m[i] = cdf(hi) - cdf(lo)
	}
}

// customWeights maps each value of a custom target's file to its leaf
// (any spelling of a number matches); values are checked in file order so
// the error names the first unknown one.
func (t Target) customWeights(h *hierarchy.Hierarchy, m []float64) error {
	order := t.order
	if len(order) != len(t.Weights) {
		order = order[:0:0]
		for v := range t.Weights {
			order = append(order, v)
		}
		sort.Strings(order)
	}
	by := make(map[int]string, len(order))
	for _, v := range order {
		l, ok := h.Leaf(v)
		if !ok {
			return &model.InputError{File: t.File, Line: t.lines[v], Column: 1, Msg: fmt.Sprintf("value %q is not in the domain of %s", v, h.Attr),
				Hint: "list only values the sensitive attribute's hierarchy has"}
		}
		if prev, dup := by[l]; dup {
			return &model.InputError{File: t.File, Line: t.lines[v], Column: 1, Msg: fmt.Sprintf("values %q and %q are the same value of %s", prev, v, h.Attr),
				Hint: "list each value once"}
		}
		by[l] = v
		m[h.LeafPos(l)] = t.Weights[v]
	}
	return nil
}

// normalize scales the weights to probabilities. Only the masses' ratios
// matter: scaled first so that the largest is 1, their sum cannot
// overflow (weights of 1e308 each are the uniform target, not a sum of
// +Inf).
func (t Target) normalize(m []float64) ([]float64, error) {
	top := 0.0
	for _, x := range m {
		top = math.Max(top, x)
	}
	total := 0.0
	for i := range m {
		if top > 0 && !math.IsInf(top, 0) {
			m[i] /= top
		}
		total += m[i]
	}
	if !(total > 0) {
		return nil, &model.ParamError{Param: format.ParamTarget.Name(), Value: t.String(), Reason: "the distribution has no mass on the domain",
			Hint: "with normal:MU,SIGMA put MU near the values; with a file give some value a positive weight"}
	}
	for i := range m {
		m[i] /= total
	}
	return m, nil
}

// Annotated is a privacy-annotated hierarchy (Koudas et al. 2009, Section
// 3.1): integer weights on the edges so that the weights of a node's
// children are in the ratio of their probability mass. It represents the
// effective distribution P' that a release is private for.
type Annotated struct {
	H *hierarchy.Hierarchy
	// Weight[n] is the weight of the edge from n's parent to n (1 for the
	// root). The weights of a node's children have no common factor.
	Weight []int64
	// Requested and Effective are per-leaf probabilities in leaf order.
	Requested []float64
	Effective []float64
	// MaxDenominator is the bound used (0: exact ratios).
	MaxDenominator int
}

// Annotate builds the privacy-annotated hierarchy for the requested leaf
// masses. With maxDen > 0 the children of each node get the ratio of
// integers, each at most maxDen, whose shares are nearest (in the largest
// absolute difference) to the children's shares of the node's mass: with
// maxDen 8, 0.7:0.3 gives 7:3, 1/3:2/3 gives 1:2 and 0.51:0.49 gives 1:1.
// Small weights keep allocations feasible for small groups (SPEC 2.4: the
// bound is the "denominator" of the per-node ratios). With maxDen == 0 the
// ratios are exact when the masses are counts or fractions of counts (as
// table and group targets are) and within 1e-9 otherwise. A zero-mass
// subtree gets weights by leaf count so conditional probabilities inside it
// stay defined; a child whose share rounds to nothing gets weight 0.
func Annotate(h *hierarchy.Hierarchy, requested []float64, maxDen int) *Annotated {
	a := &Annotated{H: h, Weight: make([]int64, len(h.Nodes)), Requested: requested, MaxDenominator: maxDen}
	mass := make([]float64, len(h.Nodes))
	for i, l := range h.Leaves {
		mass[l] = requested[i]
	}
	var sum func(n int) float64
	sum = func(n int) float64 {
		if h.IsLeaf(n) {
			return mass[n]
		}
		s := 0.0
		for _, c := range h.Nodes[n].Children {
			s += sum(c)
		}
		mass[n] = s
		return s
	}
	sum(0)
	a.Weight[0] = 1
	var q []float64
	var r ratioScratch
	for n := range h.Nodes {
		ch := h.Nodes[n].Children
		if len(ch) == 0 {
			continue
		}
		q = q[:0]
		total := 0.0
		for _, c := range ch {
			q = append(q, mass[c])
			total += mass[c]
		}
		if !(total > 0) {
			for i, c := range ch {
				q[i] = float64(h.LeafCount(c))
			}
		}
		w := r.approx(q, maxDen)
		for i, c := range ch {
			a.Weight[c] = w[i]
		}
	}
	a.Effective = a.leafProbs()
	return a
}

// ratioScratch holds the buffers of approx so that annotating a large
// hierarchy does not allocate per node. The returned slice is only valid
// until the next call.
type ratioScratch struct {
	p, rem  []float64
	w, best []int64
	order   []int
}

// maxRatioSearch bounds the sums of weights tried one by one for a node
// with more than two children; with a larger bound the search also tries
// the largest sum that keeps every weight within the bound.
const maxRatioSearch = 4096

// approx is the integer weights of a node's children in the ratio of
// their masses q (Koudas et al. 2009, Section 3.1), reduced to no common
// factor: exact when maxDen <= 0, else the closest ratio whose weights
// are at most maxDen.
func (r *ratioScratch) approx(q []float64, maxDen int) []int64 {
	total := 0.0
	for _, x := range q {
		total += x
	}
	r.p = r.p[:0]
	for _, x := range q {
		r.p = append(r.p, x/total)
	}
	p := r.p
	if maxDen <= 0 {
		return r.exactRatio(q, p)
	}
	if len(q) == 2 {
		a, d := bestFraction(p[0], int64(maxDen), int64(maxDen), math.MaxInt64)
		r.w = append(r.w[:0], a, d-a)
		return reduce(keepSupport(r.w, p, maxDen))
	}
	return r.searchRatio(p, maxDen)
}

// exactRatio is approx without a bound: integer masses q as they are;
// otherwise the shares p on a fine grid.
func (r *ratioScratch) exactRatio(q, p []float64) []int64 {
	integral := true
	for _, x := range q {
		if x != math.Trunc(x) || x > 1<<40 {
			integral = false
		}
	}
	if integral {
		r.w = r.w[:0]
		for _, x := range q {
			r.w = append(r.w, int64(x))
		}
		return reduce(r.w)
	}
	// Probabilities made from counts (as Masses gives them) are
	// fractions with a common denominator: find it, so that 2/3 : 1/3
	// gives 2:1 and not 666666667:333333333.
	if len(q) == 2 {
		a, d := bestFraction(p[0], math.MaxInt64, math.MaxInt64, exactGrid)
		r.w = append(r.w[:0], a, d-a)
		return reduce(r.w)
	}
	if w := r.commonDenominator(p); w != nil {
		return reduce(w)
	}
	return reduce(r.roundToSum(p, exactGrid))
}

// searchRatio is approx for more than two children: it tries every sum
// of weights d (largest remainders), skips those that give a weight
// above the bound, and keeps the first best.
func (r *ratioScratch) searchRatio(p []float64, maxDen int) []int64 {
	r.best = r.best[:0]
	bestErr := math.Inf(1)
	// Beyond (maxDen+1)/pmax the largest share rounds above the bound.
	pmax := 0.0
	for _, x := range p {
		pmax = math.Max(pmax, x)
	}
	limit := maxDen * len(p)
	if m := (float64(maxDen) + 1) / pmax; m < float64(limit) {
		limit = int(m)
	}
	for d := 1; d <= limit && d <= maxRatioSearch; d++ {
		if r.tryRatioSum(p, d, maxDen, &bestErr) {
			return reduce(r.best)
		}
	}
	if limit > maxRatioSearch {
		d := int(float64(maxDen) / pmax)
		if !r.tryRatioSum(p, d, maxDen, &bestErr) {
			r.tryRatioSum(p, d-1, maxDen, &bestErr)
		}
	}
	return reduce(keepSupport(r.best, p, maxDen))
}

// tryRatioSum rounds the shares p to weights summing to d, keeps them in
// r.best when no weight is above maxDen and their largest error is below
// *bestErr, and says whether they are exact.
func (r *ratioScratch) tryRatioSum(p []float64, d, maxDen int, bestErr *float64) bool {
	if d < 1 {
		return false
	}
	w := r.roundToSum(p, int64(d))
	for i := range w {
		if w[i] > int64(maxDen) {
			return false
		}
	}
	w = keepSupport(w, p, maxDen)
	sum := int64(0)
	for _, x := range w {
		sum += x
	}
	e := 0.0
	for i := range w {
		if x := math.Abs(float64(w[i])/float64(sum) - p[i]); x > e {
			e = x
		}
	}
	if e < *bestErr-1e-12 {
		r.best, *bestErr = append(r.best[:0], w...), e
	}
	return e < 1e-12
}

// keepSupport gives weight at least 1 to every child with positive mass.
// Rounding a small share to 0 would make values present in the data
// impossible under P', and every tuple holding one would be generalized to
// the same ancestor: its subdomain would give its value away. A binary
// node gets the most extreme ratio the bound allows, 1:maxDen.
func keepSupport(w []int64, p []float64, maxDen int) []int64 {
	if len(w) == 2 {
		switch {
		case p[0] > 0 && w[0] == 0:
			w[0], w[1] = 1, int64(maxDen)
		case p[1] > 0 && w[1] == 0:
			w[0], w[1] = int64(maxDen), 1
		}
		return w
	}
	for i := range w {
		if p[i] > 0 && w[i] == 0 {
			w[i] = 1
		}
	}
	return w
}

// exactGrid is the denominator of "exact" weights that are not small
// ratios: errors stay below 1e-9.
const exactGrid = 1_000_000_000

// commonDenominator writes p as integers over their least common
// denominator when every p[i] is (within 1e-12) a fraction and that
// denominator is at most exactGrid; otherwise it returns nil.
func (r *ratioScratch) commonDenominator(p []float64) []int64 {
	var d int64 = 1
	for _, x := range p {
		a, b := bestFraction(x, math.MaxInt64, math.MaxInt64, exactGrid)
		if math.Abs(float64(a)/float64(b)-x) > 1e-12 {
			return nil
		}
		d = d / gcd(d, b) * b
		if d > exactGrid {
			return nil
		}
	}
	r.w = r.w[:0]
	var sum int64
	for _, x := range p {
		w := int64(math.Round(x * float64(d)))
		r.w = append(r.w, w)
		sum += w
	}
	if sum != d {
		return nil
	}
	return r.w
}

// bestFraction returns the fraction a/d nearest to x in [0,1] with
// a <= capA, d-a <= capB and d <= capD: the weights a : d-a of a binary
// node. Of two equally near ones (within 1e-12) it takes the one with the
// smaller denominator, and a fraction within 1e-12 of x ends the search.
// It walks the Stern-Brocot tree in O(log) steps (jumping over runs of
// mediants on the same side), so a large bound costs no more than a small
// one; the tests check it against trying every pair.
//
// Why the walk finds the best: lo and hi are neighbours, so every fraction
// strictly between them is (m*lo + n*hi) with m, n >= 1, whose numerator
// and complement are at least those of the mediant. Once the mediant breaks
// a cap, nothing between lo and hi fits, and the nearest allowed fraction
// is lo or hi.
func bestFraction(x float64, capA, capB, capD int64) (int64, int64) {
	if x <= 0 {
		return 0, 1
	}
	if x >= 1 {
		return 1, 1
	}
	// lo = a0/b0 <= x <= a1/b1 = hi
	a0, b0, a1, b1 := int64(0), int64(1), int64(1), int64(1)
	hit := func(a, b int64) bool { return math.Abs(float64(a)-x*float64(b)) <= 1e-12*float64(b) }
	// room is how many times step fits on base within cap.
	room := func(base, step, cap int64) int64 {
		if step == 0 {
			return math.MaxInt64
		}
		if base >= cap {
			return 0
		}
		return (cap - base) / step
	}
	// steps is the largest k >= 1 with k <= num/den, capped at max.
	steps := func(num, den float64, max int64) int64 {
		if den <= 0 {
			return max
		}
		k := num / den
		if !(k < float64(max)) {
			return max
		}
		if k < 1 {
			return 1
		}
		return int64(k)
	}
	for {
		ma, mb := a0+a1, b0+b1
		if ma > capA || mb-ma > capB || mb > capD {
			break
		}
		if hit(ma, mb) {
			return ma, mb // x is (within rounding) this fraction
		}
		if float64(ma) < x*float64(mb) {
			// mediant < x: raise lo to the last of (a0+k*a1)/(b0+k*b1) <= x
			max := min(room(a0, a1, capA), room(b0-a0, b1-a1, capB), room(b0, b1, capD))
			k := steps(x*float64(b0)-float64(a0), float64(a1)-x*float64(b1), max)
			a0, b0 = a0+k*a1, b0+k*b1
			if hit(a0, b0) {
				return a0, b0
			}
		} else {
			// mediant > x: lower hi to the last of (a1+k*a0)/(b1+k*b0) >= x
			max := min(room(a1, a0, capA), room(b1-a1, b0-a0, capB), room(b1, b0, capD))
			k := steps(float64(a1)-x*float64(b1), x*float64(b0)-float64(a0), max)
			a1, b1 = a1+k*a0, b1+k*b0
			if hit(a1, b1) {
				return a1, b1
			}
		}
	}
	e0 := x - float64(a0)/float64(b0)
	e1 := float64(a1)/float64(b1) - x
	switch {
	case e0 < e1-1e-12:
		return a0, b0
	case e1 < e0-1e-12:
		return a1, b1
	case b1 < b0:
		return a1, b1
	}
	return a0, b0
}

// roundToSum rounds p*d to integers summing to d (largest remainder; ties
// go to the lower index). The result is only valid until the next call.
func (r *ratioScratch) roundToSum(p []float64, d int64) []int64 {
	r.w, r.rem, r.order = r.w[:0], r.rem[:0], r.order[:0]
	var sum int64
	for i, x := range p {
		f := math.Floor(x * float64(d))
		r.w = append(r.w, int64(f))
		sum += int64(f)
		r.rem = append(r.rem, x*float64(d)-f)
		r.order = append(r.order, i)
	}
	w, rem, order := r.w, r.rem, r.order
	if k := int(d - sum); k > 0 {
		sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
		for j := 0; j < k && j < len(order); j++ {
			w[order[j]]++
		}
	}
	return w
}

func reduce(w []int64) []int64 {
	var g int64
	for _, x := range w {
		g = gcd(g, x)
	}
	if g > 1 {
		for i := range w {
			w[i] /= g
		}
	}
	return w
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

// ChildShare is weight(n) / sum of the weights of n and its siblings.
func (a *Annotated) ChildShare(n int) float64 {
	p := a.H.Nodes[n].Parent
	if p < 0 {
		return 1
	}
	var s int64
	for _, c := range a.H.Nodes[p].Children {
		s += a.Weight[c]
	}
	return float64(a.Weight[n]) / float64(s)
}

func (a *Annotated) leafProbs() []float64 {
	// The share of every node once (summing each node's children once), then
	// per leaf the product up to the root in the same order as ChildShare
	// would give it.
	h := a.H
	share := make([]float64, len(h.Nodes))
	for n := range h.Nodes {
		ch := h.Nodes[n].Children
		var s int64
		for _, c := range ch {
			s += a.Weight[c]
		}
		for _, c := range ch {
			share[c] = float64(a.Weight[c]) / float64(s)
		}
	}
	out := make([]float64, len(h.Leaves))
	for i, l := range h.Leaves {
		p := 1.0
		for n := l; h.Nodes[n].Parent >= 0; n = h.Nodes[n].Parent {
			p *= share[n]
		}
		out[i] = p
	}
	return out
}

// ExactLeafProb is P'(leaf) as an exact fraction.
func (a *Annotated) ExactLeafProb(leaf int) *big.Rat {
	p := big.NewRat(1, 1)
	for n := leaf; a.H.Nodes[n].Parent >= 0; n = a.H.Nodes[n].Parent {
		var s int64
		for _, c := range a.H.Nodes[a.H.Nodes[n].Parent].Children {
			s += a.Weight[c]
		}
		p.Mul(p, big.NewRat(a.Weight[n], s))
	}
	return p
}

// EMD is the earth mover's distance between the effective and the requested
// distribution: the ordered distance for numeric domains (normalised by the
// number of values minus one) and the equal distance (total variation) for
// categorical ones, as t-closeness defines them.
func (a *Annotated) EMD() float64 { return EMD(a.H.Numeric, a.Effective, a.Requested) }

// MaxAbs is max |P'(v) - P(v)| over the domain.
func (a *Annotated) MaxAbs() float64 {
	m := 0.0
	for i := range a.Effective {
		if d := math.Abs(a.Effective[i] - a.Requested[i]); d > m {
			m = d
		}
	}
	return m
}

// EMD between two distributions over the same ordered domain (see
// Annotated.EMD).
func EMD(ordered bool, p, q []float64) float64 {
	if len(p) <= 1 {
		return 0
	}
	if !ordered {
		s := 0.0
		for i := range p {
			s += math.Abs(p[i] - q[i])
		}
		return s / 2
	}
	cum, s := 0.0, 0.0
	for i := 0; i < len(p)-1; i++ {
		cum += p[i] - q[i]
		s += math.Abs(cum)
	}
	return s / float64(len(p)-1)
}

// WeightString renders the weights of a node's children as a:b:c.
func (a *Annotated) WeightString(n int) string {
	var parts []string
	for _, c := range a.H.Nodes[n].Children {
		parts = append(parts, strconv.FormatInt(a.Weight[c], 10))
	}
	return strings.Join(parts, ":")
}
