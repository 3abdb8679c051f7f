package risk

import (
	"math"
	"sort"
	"strings"

	"privlab/model"
)

// Exposure is what a release shows the attackers of algorithms/attack
// beyond its View's figures: how a person's raw quasi-identifier values
// place them among the view's regions, and what the release's method
// promises each attack. The method's check package reads it from the
// published files (its Exposer, registered in algorithms/catalog beside
// its Viewer), so the attacks need no knowledge of any method.
type Exposure struct {
	// Cells label, per QI, the published cells a person can be placed in;
	// nil: the View's Cells.
	Cells [][]string
	// Cover gives, for the distinct raw values of QI i (as a population
	// table holds them; "?" stands for a missing value), the sorted codes
	// of the cells of QI i that could publish each: the exact value, a
	// generalization node, an interval, a box side.
	Cover []func(raw []string) [][]uint32
	// Sets give a region's cells on a QI when it has several (ambiguity: a
	// group publishes the set of its values, each held by at least one of
	// its records, Witnessed); nil: the region's one cell (Region.Cells).
	Sets [][][]uint32
	// Witnessed says every cell of a region's Sets is the value of at
	// least one of the region's records.
	Witnessed bool
	// Unit names a region in the attacker's words ("box", "class").
	Unit string

	// K is the anonymity the method claims for linkage: every region
	// holds at least K distinct people, so a person is re-identified with
	// probability at most 1/K (0: the method claims none). KBy names the
	// claim, or says why there is none.
	K   int
	KBy string
	// Posterior bounds the attacker's belief in one sensitive value of a
	// person placed in a region (NaN: no bound); the belief is multiplied
	// by Scale first (0 reads as 1: sampling's rate, Eq. 2). PosteriorBy
	// names the bound, or says why there is none (Posterior nil).
	Posterior   func(region, value int) float64
	Scale       float64
	PosteriorBy string
	// PosteriorPerBelief says Posterior(region, value) depends on the
	// region only through its belief (a constant bound, or the belief
	// itself): regions sharing a belief are then measured once, so a
	// wide sensitive domain costs its beliefs, not regions x values.
	PosteriorPerBelief bool
	// PosteriorVacuous says why Posterior bounds nothing ("" when it
	// does): a bound that is the release's own belief can never be
	// exceeded, so the attack is "not bounded" and only its calibration
	// (beyond what the attacker knew without the release) measures it.
	PosteriorVacuous string
	// Presence bounds the probability that a person of the population is
	// in the data (NaN: no bound); PresenceBy names it or says why none.
	Presence   float64
	PresenceBy string
	// NoMembership says why presence in the data cannot be measured from
	// regions ("" when it can).
	NoMembership string
	// PoolsOf and PoolRecords count the data's records per pool of
	// regions where the release counts them per pool rather than per
	// region (kja: si.csv's sensitive groups, whose boxes also hold public
	// people): region r lies in the pools PoolsOf[r], and pool j holds
	// PoolRecords[j] records among the people its regions cover. Nil:
	// each region is a pool of its own Records.
	PoolsOf     [][]int32
	PoolRecords []int
	// PublishesPublic says the regions hold a public table's people beside
	// the data's: a population must hold them too. JoinColumns identify a
	// person in both tables (kja's --id); without them a public row equal
	// to a data row on the quasi-identifiers is counted as that person.
	PublishesPublic bool
	JoinColumns     []string
}

// Labels are the cells a person is placed in, per QI.
func (e *Exposure) Labels(v *View) [][]string {
	if e.Cells != nil {
		return e.Cells
	}
	return v.Cells
}

// RegionCells lists region r's cells on QI i.
func (e *Exposure) RegionCells(v *View, r, i int) []uint32 {
	if e.Sets != nil {
		return e.Sets[r][i]
	}
	return v.Regions[r].Cells[i : i+1]
}

// Knowledge is what an attacker holds beside the release.
type Knowledge struct {
	// Original is the table the release was made from: the truth an
	// attribute-inference attack is scored against (nil: not given).
	Original *model.Table
	// Population holds the quasi-identifiers of people the attacker can
	// name, one row per person: the data's people and others (nil: not
	// given). PopulationName says in words whose they are.
	Population     *model.Table
	PopulationName string
	// Public is the public table of a method that reads one.
	Public *model.Table
	// Marginals are public value probabilities, per attribute and value
	// (nil: not given), from MarginalsName.
	Marginals     map[string]map[string]float64
	MarginalsName string
}

// Finding is one attack's outcome.
type Finding struct {
	// Attack names it; Attacker says what the attacker holds, in words.
	Attack   string
	Attacker string
	// Measured is the attack's figure (NaN: not run), Figure says what it
	// is; Bound is the method's bound for it (NaN: none) and BoundBy names
	// it or says why there is none.
	Measured float64
	Figure   string
	Bound    float64
	BoundBy  string
	// Records counts the records or people the attack succeeds on.
	Records int
	// Example describes one success without a sensitive value of the
	// original the attacker did not already hold.
	Example string
	// Detail adds figures in words; Short says the success in a few
	// ("12 people certainly present"; "" when the attack succeeds on none)
	// and Brief in fewer, for a narrow screen ("12 certainly present";
	// "" for Short).
	Detail string
	Short  string
	Brief  string
	// Needs names what the attack read beside the release ("original",
	// "population", "marginals"), NotRun why it could not run and Lacks
	// what of these would have let it run (not stated in the manifest:
	// the front ends use it to offer the missing input).
	Needs  []string
	NotRun string
	Lacks  []string
	// Calibration is the attack's success rate beside the same attacker
	// without the release (Trials 0: no rate was measured).
	Calibration
	// Vacuous says why the bound cannot be broken whatever the release
	// holds ("" when it can): a bound of 1 on a probability, or a bound
	// that is the release's own figure. Such a bound is no bound.
	Vacuous string
}

// Calibrated reports whether the finding measured a success rate.
func (f Finding) Calibrated() bool { return f.NotRun == "" && f.Trials > 0 }

// Holds is the verdict: 1 holds, 0 broken, -1 not bounded or not run.
// A vacuous bound (Vacuous, or 1 and over) bounds nothing.
func (f Finding) Holds() int {
	switch {
	case f.NotRun != "" || math.IsNaN(f.Bound) || math.IsNaN(f.Measured):
		return -1
	case f.Vacuous != "" || f.Bound >= 1-1e-12:
		return -1
	case f.Measured <= f.Bound+1e-12:
		return 1
	}
	return 0
}

// Verdict renders Holds in words.
func (f Finding) Verdict() string {
	switch {
	case f.NotRun != "":
		return "not run"
	case f.Holds() == 1:
		return "holds"
	case f.Holds() == 0:
		return "broken"
	}
	return "not bounded"
}

// ExactCover covers a raw value by the cell of the same text, or, when
// both read as numbers, of the same number (a population may write 39 as
// 39.0).
func ExactCover(cells []string) func(raw []string) [][]uint32 {
	values := make(map[uint32][]string, len(cells))
	for c, s := range cells {
		values[uint32(c)] = []string{s}
	}
	return SetCover(cells, values)
}

// SetCover covers a raw value by every cell whose set of values holds it
// (values[c]: the raw values cell c stands for; a cell with no entry
// stands for its own text), matched by text, by trimmed text, or, when
// both read as numbers, by number.
func SetCover(cells []string, values map[uint32][]string) func(raw []string) [][]uint32 {
	byText := map[string][]uint32{}
	byNum := map[float64][]uint32{}
	for c, s := range cells {
		vals, ok := values[uint32(c)]
		if !ok {
			vals = []string{s}
		}
		for _, v := range vals {
			byText[v] = append(byText[v], uint32(c))
			if x, ok := model.ParseNumber(v); ok {
				byNum[x] = append(byNum[x], uint32(c))
			}
		}
	}
	for k, c := range byText {
		byText[k] = SortedUnique(c)
	}
	for k, c := range byNum {
		byNum[k] = SortedUnique(c)
	}
	return func(raw []string) [][]uint32 {
		out := make([][]uint32, len(raw))
		for i, s := range raw {
			if c, ok := byText[s]; ok {
				out[i] = c
			} else if c, ok := byText[strings.TrimSpace(s)]; ok {
				out[i] = c
			} else if x, ok := model.ParseNumber(s); ok {
				out[i] = byNum[x]
			}
		}
		return out
	}
}

// SortedUnique sorts codes and drops repeats, in place.
func SortedUnique(c []uint32) []uint32 {
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	out := c[:0]
	for i, x := range c {
		if i == 0 || x != c[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// SingleValued counts the published records in regions whose belief puts
// all its mass on one sensitive value: their class discloses it. Each
// belief is looked at once, however many regions share it (a wide
// sensitive domain's one belief shared by every region made this
// regions x values).
func SingleValued(v *View) int {
	single := make([]int8, len(v.Beliefs)) // 0 not looked at, 1 no, 2 yes
	n := 0
	for _, r := range v.Regions {
		if r.Belief < 0 || r.Records == 0 {
			continue
		}
		if single[r.Belief] == 0 {
			single[r.Belief] = 1
			for _, p := range v.Beliefs[r.Belief].P {
				if p >= 1-1e-12 {
					single[r.Belief] = 2
					break
				}
			}
		}
		if single[r.Belief] == 2 {
			n += r.Records
		}
	}
	return n
}

// PopulationMarginals counts each attribute's values among the
// population's people who have one: the marginals an attacker holding the population
// reads (sampling's Eq. 3 under other marginals, Sattar et al.).
func PopulationMarginals(pop *model.Table, attrs []string) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, a := range attrs {
		c := pop.Column(a)
		if c == nil {
			continue
		}
		counts, n := c.Counts(), pop.Rows-c.MissingCount
		p := map[string]float64{}
		for code, x := range counts {
			p[strings.TrimSpace(c.Dict[code])] += float64(x) / float64(max(1, n))
		}
		out[a] = p
	}
	return out
}
