package model

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
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
}

// String gives the spec the target was parsed from.
func (t Target) String() string {
	switch t.Kind {
	case TargetTable:
		return "table"
	case TargetGroup:
		return "group"
	case TargetNormal:
		return "normal:" + FormatNumber(t.Mu) + "," + FormatNumber(t.Sigma)
	case TargetZipf:
		return "zipf:" + FormatNumber(t.S)
	case TargetCustom:
		return t.File
	}
	return "uniform"
}

// ParseTarget reads --target: uniform | table | group | normal:MU,SIGMA |
// zipf:S | FILE (a CSV of value,weight).
func ParseTarget(spec string) (Target, error) {
	name, arg, _ := strings.Cut(strings.TrimSpace(spec), ":")
	bad := func(reason, hint string) (Target, error) {
		return Target{}, &ParamError{Param: "target", Value: spec, Reason: reason, Hint: hint}
	}
	switch strings.ToLower(name) {
	case "", "uniform":
		return Target{Kind: TargetUniform}, nil
	case "table":
		return Target{Kind: TargetTable}, nil
	case "group":
		return Target{Kind: TargetGroup}, nil
	case "normal":
		a, b, ok := strings.Cut(arg, ",")
		mu, ok1 := ParseNumber(strings.TrimSpace(a))
		sigma, ok2 := ParseNumber(strings.TrimSpace(b))
		if !ok || !ok1 || !ok2 {
			return bad("normal needs a mean and a standard deviation", "e.g. normal:2048,300")
		}
		if !(sigma > 0) {
			return bad("sigma must be > 0", "e.g. normal:2048,300")
		}
		return Target{Kind: TargetNormal, Mu: mu, Sigma: sigma}, nil
	case "zipf":
		s, ok := ParseNumber(strings.TrimSpace(arg))
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
	f, err := os.Open(path)
	if err != nil {
		return Target{}, &ParamError{Param: "target", Value: path, Reason: "not a known target and not a readable file (" + openReason(err) + ")",
			Hint: "use uniform, table, group, normal:MU,SIGMA, zipf:S or a CSV file of value,weight"}
	}
	defer f.Close()
	return ParseTargetCSV(path, f)
}

// ParseTargetCSV reads value,weight rows.
func ParseTargetCSV(file string, r io.Reader) (Target, error) {
	cr := csv.NewReader(r)
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
			return Target{}, &InputError{File: file, Msg: err.Error()}
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != 2 {
			return Target{}, &InputError{File: file, Line: line, Msg: fmt.Sprintf("expected 2 fields (value,weight), found %d", len(rec))}
		}
		v, ws := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		w, ok := ParseNumber(ws)
		if !ok {
			if first {
				first = false
				continue // header
			}
			return Target{}, &InputError{File: file, Line: line, Column: 2, Msg: fmt.Sprintf("weight %q is not a number", ws)}
		}
		first = false
		if w < 0 || math.IsInf(w, 0) {
			return Target{}, &InputError{File: file, Line: line, Column: 2, Msg: "weight must be >= 0"}
		}
		if _, dup := t.Weights[v]; dup {
			return Target{}, &InputError{File: file, Line: line, Column: 1, Msg: fmt.Sprintf("value %q listed twice", v)}
		}
		t.Weights[v] = w
		t.order = append(t.order, v)
		total += w
	}
	if total <= 0 {
		return Target{}, &InputError{File: file, Msg: "no positive weight", Hint: "rows are value,weight with weight >= 0"}
	}
	return t, nil
}

// Masses returns the requested probability of every leaf of h, in leaf
// order. counts are the leaf counts the table (TargetTable) or the group
// (TargetGroup) holds; they are ignored by the other kinds.
func (t Target) Masses(h *Hierarchy, counts []float64) ([]float64, error) {
	n := len(h.Leaves)
	m := make([]float64, n)
	switch t.Kind {
	case TargetUniform:
		for i := range m {
			m[i] = 1
		}
	case TargetTable, TargetGroup:
		copy(m, counts)
	case TargetNormal:
		if !h.Numeric {
			return nil, &ParamError{Param: "target", Value: t.String(), Reason: "a normal target needs a numeric sensitive attribute", Hint: "use uniform, table, zipf:S or a custom file"}
		}
		// Each value gets the normal mass of the interval between the
		// midpoints to its neighbours (the ends reach to infinity).
		cdf := func(x float64) float64 { return 0.5 * math.Erfc(-(x-t.Mu)/(t.Sigma*math.Sqrt2)) }
		for i := range m {
			lo, hi := math.Inf(-1), math.Inf(1)
			v := h.Nodes[h.Leaves[i]].Value
			if i > 0 {
				lo = (h.Nodes[h.Leaves[i-1]].Value + v) / 2
			}
			if i < n-1 {
				hi = (v + h.Nodes[h.Leaves[i+1]].Value) / 2
			}
			m[i] = cdf(hi) - cdf(lo)
		}
	case TargetZipf:
		// Koudas et al. 2009, Section 6.3: P(k) proportional to (1/k)^s for
		// the value of rank k in domain order.
		for i := range m {
			m[i] = math.Pow(1/float64(i+1), t.S)
		}
	case TargetCustom:
		for v := range t.Weights {
			if _, ok := h.Leaf(v); !ok {
				return nil, &InputError{File: t.File, Msg: fmt.Sprintf("value %q is not in the domain of %s", v, h.Attr),
					Hint: "list only values the sensitive attribute's hierarchy has"}
			}
		}
		for i, l := range h.Leaves {
			lbl := h.Nodes[l].Label
			if w, ok := t.Weights[lbl]; ok {
				m[i] = w
				continue
			}
			for v, w := range t.Weights { // other spellings of the same number
				if h.Numeric {
					if x, ok := ParseNumber(v); ok && x == h.Nodes[l].Value {
						m[i] = w
					}
				}
			}
		}
	}
	total := 0.0
	for _, x := range m {
		total += x
	}
	if !(total > 0) {
		return nil, &ParamError{Param: "target", Value: t.String(), Reason: "the distribution has no mass on the domain",
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
	H *Hierarchy
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
// masses. With maxDen > 0 each node's children get the nearest ratio of
// integers whose sum is at most maxDen*(children-1) (maxDen for a binary
// node); with maxDen == 0 the ratios are exact when the masses are
// rational counts (as table and group targets are) and within 1e-9
// otherwise. A zero-mass subtree gets weights by leaf count so conditional
// probabilities inside it stay defined.
func Annotate(h *Hierarchy, requested []float64, maxDen int) *Annotated {
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
	for n := range h.Nodes {
		ch := h.Nodes[n].Children
		if len(ch) == 0 {
			continue
		}
		q := make([]float64, len(ch))
		total := 0.0
		for i, c := range ch {
			q[i] = mass[c]
			total += q[i]
		}
		if !(total > 0) {
			for i, c := range ch {
				q[i] = float64(h.LeafCount(c))
			}
		}
		w := approxRatio(q, maxDen)
		for i, c := range ch {
			a.Weight[c] = w[i]
		}
	}
	a.Effective = a.leafProbs()
	return a
}

// approxRatio returns integer weights in the ratio of q (q >= 0, sum > 0).
func approxRatio(q []float64, maxDen int) []int64 {
	total := 0.0
	for _, x := range q {
		total += x
	}
	p := make([]float64, len(q))
	for i, x := range q {
		p[i] = x / total
	}
	if maxDen <= 0 {
		// Exact: integer masses as they are; otherwise a fine grid.
		integral := true
		for _, x := range q {
			if x != math.Trunc(x) || x > 1<<40 {
				integral = false
			}
		}
		w := make([]int64, len(q))
		if integral {
			for i, x := range q {
				w[i] = int64(x)
			}
			return reduce(w)
		}
		return reduce(roundToSum(p, 1_000_000_000))
	}
	limit := maxDen * (len(q) - 1)
	if limit < 1 {
		limit = 1
	}
	var best []int64
	bestErr := math.Inf(1)
	for d := 1; d <= limit; d++ {
		w := roundToSum(p, int64(d))
		e := 0.0
		for i := range w {
			if x := math.Abs(float64(w[i])/float64(d) - p[i]); x > e {
				e = x
			}
		}
		if e < bestErr-1e-12 {
			best, bestErr = w, e
			if e < 1e-12 {
				break
			}
		}
	}
	return reduce(best)
}

// roundToSum rounds p*d to integers summing to d (largest remainder; ties
// go to the lower index).
func roundToSum(p []float64, d int64) []int64 {
	w := make([]int64, len(p))
	rem := make([]float64, len(p))
	order := make([]int, len(p))
	var sum int64
	for i, x := range p {
		f := math.Floor(x * float64(d))
		w[i] = int64(f)
		sum += w[i]
		rem[i] = x*float64(d) - f
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rem[order[a]] > rem[order[b]] })
	for k := 0; k < int(d-sum) && k < len(order); k++ {
		w[order[k]]++
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
	out := make([]float64, len(a.H.Leaves))
	for i, l := range a.H.Leaves {
		p := 1.0
		for n := l; a.H.Nodes[n].Parent >= 0; n = a.H.Nodes[n].Parent {
			p *= a.ChildShare(n)
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
