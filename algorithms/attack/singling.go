package attack

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"privlab/algorithms/risk"
	"privlab/model"
)

// SinglingOut is the name of the singling-out attack.
const SinglingOut = "singling out"

// singlingOut measures the first of the three risks the EU's
// anonymisation guidance names, as Giomi et al. (PoPETs 2023, Section
// 4.1, "Anonymeter") attack it: the attacker writes predicates over the
// published values (a region's cells on one QI, then conjunctions of its
// cells on several) and holds them to the population's people. A
// predicate singles out a person of the data when exactly one person of
// the population satisfies it and that person is in the original. The
// rate is beside the same number of predicates guessed without the
// release (values drawn from the population's marginals, on the same
// QIs) and, where the population holds people outside the data, the rate
// of predicates that single one of those out. No method bounds it.
func singlingOut(v *risk.View, e *risk.Exposure, pop, orig *placed, popName string, k *risk.Knowledge) risk.Finding {
	const anyone = "holds the quasi-identifiers of a population and writes predicates over the published cells"
	empty := "the release publishes no " + e.Unit + " with a record"
	switch {
	case !slices.ContainsFunc(v.Regions, func(r risk.Region) bool { return r.Records > 0 }):
		return notRun(SinglingOut, anyone, empty) // whatever the attacker holds
	case pop == nil:
		return notRun(SinglingOut, anyone, "needs a population table or the original table", "population", "original")
	case e.PublishesPublic && k.Population == nil && k.Public == nil:
		return notRun(SinglingOut, anyone,
			"the release's "+plural(e.Unit)+" hold public-table people the original lacks: needs the public table or a population table (every person once)", "public", "population")
	}
	pl := makePlan(v, e, pop, Predicates)
	if len(pl.main) == 0 {
		return notRun(SinglingOut, anyone, empty)
	}
	s := newSingler(pop, dataPeople(pop, orig, k))
	f := risk.Finding{Attack: SinglingOut, Bound: math.NaN(), BoundBy: singlingBoundBy(e),
		Attacker: "holds the quasi-identifiers of " + popName + " and writes predicates over the published cells",
		Figure:   "share of the attacker's predicates that isolate exactly one person of the data",
		Needs:    []string{pop.what}}
	if s.inData == nil {
		f.Figure = "share of the attacker's predicates that isolate exactly one person of the population (in the data or not: the original would tell)"
	} else if k.Population != nil {
		f.Needs = append(f.Needs, "original")
	}
	if k.Population == nil && k.Public != nil {
		f.Needs = append(f.Needs, "public")
	}
	main, base := s.score(pl.main), s.score(pl.base)
	trials := len(pl.main)
	f.Calibration = risk.Calibration{Successes: float64(main.inside), Trials: trials,
		Baseline: float64(base.inside) / float64(trials), Control: math.NaN()}
	if s.outsiders() {
		f.Control = float64(main.outside) / float64(trials)
	}
	f.Measured = f.Rate()
	f.Records = len(main.people)
	f.Detail = singlingDetail(pl, main, base, s)
	if f.Records > 0 {
		f.Short = people(f.Records) + " singled out"
		f.Brief = fmt.Sprintf("%d singled out", f.Records)
		of := "data"
		if s.inData == nil {
			of = "population"
		}
		f.Example = fmt.Sprintf("the predicate %s isolates one person of the %s: %s", pl.main[main.first].label(v, e, pop), of,
			personLabel(pop, int(pop.first[main.firstTuple])))
	}
	return f
}

// singlingBoundBy says no method bounds singling out, and which claim
// comes closest: k-anonymity, under which a predicate equal to a
// region's full description (or, when a region publishes one cell per
// QI, to part of it) matches at least k people.
func singlingBoundBy(e *risk.Exposure) string {
	if e.K >= 2 {
		part := ""
		if e.Sets == nil {
			part = ", or to part of it,"
		}
		return fmt.Sprintf("no method bounds singling out; the closest claim: %s (no %s covers fewer than %d people, so a predicate equal to a %s's full description%s cannot single out)",
			e.KBy, e.Unit, e.K, e.Unit, part)
	}
	if e.KBy == "" {
		return "no method bounds singling out"
	}
	return "no method bounds singling out; " + e.KBy
}

// singlingDetail says in words how many predicates isolated a person,
// with and without the release.
func singlingDetail(pl *plan, main, base scored, s *singler) string {
	of := "of the data"
	if s.inData == nil {
		of = "of the population"
	}
	d := fmt.Sprintf("%d of %d predicates (%d on one quasi-identifier, %d on several) isolate one person %s",
		main.inside, len(pl.main), pl.univariate, len(pl.main)-pl.univariate, of)
	if s.outsiders() {
		d += fmt.Sprintf("; %d isolate one person outside it", main.outside)
	}
	return d + fmt.Sprintf("; without the release, %d of %d predicates of values drawn from the population's marginals on the same quasi-identifiers do; %s singled out",
		base.inside, len(pl.base), people(len(main.people)))
}

// singler matches predicates against a placed table's people.
type singler struct {
	p *placed
	d int
	// codes are the tuples' value codes, d per tuple (a missing value:
	// len(Dict)).
	codes []uint32
	// byValue lists, per QI and value code, the tuples holding it;
	// cellValues, per QI and cell, the value codes the cell covers, and
	// cellTuples how many tuples hold one of them.
	byValue    [][][]int32
	cellValues [][][]int32
	cellTuples [][]int
	// stamp marks, per QI and value code, the values the predicate being
	// matched (its number) allows.
	stamp [][]int32
	now   int32
	// order and size are match's scratch: a predicate's conditions by
	// the tuples they hold.
	order, size []int
	// inData counts the data's people at each tuple (nil: unknown, no
	// original).
	inData []int32
}

func newSingler(p *placed, inData []int32) *singler {
	d := len(p.cols)
	s := &singler{p: p, d: d, inData: inData, codes: make([]uint32, 0, d*len(p.count)), byValue: make([][][]int32, d),
		cellValues: make([][][]int32, d), cellTuples: make([][]int, d), stamp: make([][]int32, d)}
	for i, c := range p.cols {
		s.byValue[i] = make([][]int32, len(c.Dict)+1)
		s.stamp[i] = make([]int32, len(c.Dict)+1)
		ncells := 0
		for _, cov := range p.covers[i] {
			for _, x := range cov {
				ncells = max(ncells, int(x)+1)
			}
		}
		s.cellValues[i] = make([][]int32, ncells)
		s.cellTuples[i] = make([]int, ncells)
	}
	for t := range p.count {
		for i := range p.cols {
			x := p.code(p.first[t], i)
			s.codes = append(s.codes, x)
			s.byValue[i][x] = append(s.byValue[i][x], int32(t))
		}
	}
	for i := range p.cols {
		for x, cov := range p.covers[i] {
			for _, c := range cov {
				s.cellValues[i][c] = append(s.cellValues[i][c], int32(x))
				s.cellTuples[i][c] += len(s.byValue[i][x])
			}
		}
	}
	return s
}

// dataPeople counts, per tuple of pop, the data's people holding it: all
// of them when pop is the original, the original's rows when pop is the
// original and the public table's people beyond it, else the original's
// people with the same values (nil without the original).
func dataPeople(pop, orig *placed, k *risk.Knowledge) []int32 {
	switch {
	case orig == pop:
		return pop.count
	case k.Population == nil && k.Original != nil:
		in := make([]int32, len(pop.count))
		for row := 0; row < k.Original.Rows; row++ {
			in[pop.tupleOf[row]]++
		}
		return in
	case orig == nil:
		return nil
	}
	// Each tuple of pop looked up among the original's by its values in
	// the original's codes: packed into 64 bits when they fit.
	to := originalCodes(pop, orig)
	index, shift, packed := orig.tupleKeys()
	in := make([]int32, len(pop.count))
	if packed && tryPacked {
		for t := range pop.count {
			key, found := uint64(0), true
			for i := range pop.cols {
				o := to[i][pop.code(pop.first[t], i)]
				found = found && o >= 0
				key |= uint64(o) << shift[i]
			}
			if ot := index.find(key); found && ot >= 0 {
				in[t] = orig.count[ot]
			}
		}
		return in
	}
	key := make([]byte, 4*len(pop.cols))
	have := make(map[string]int32, len(orig.count))
	for t := range orig.count {
		for i := range orig.cols {
			binary.LittleEndian.PutUint32(key[4*i:], orig.code(orig.first[t], i))
		}
		have[string(key)] += orig.count[t]
	}
	for t := range pop.count {
		found := true
		for i := range pop.cols {
			o := to[i][pop.code(pop.first[t], i)]
			found = found && o >= 0
			binary.LittleEndian.PutUint32(key[4*i:], uint32(o))
		}
		if found {
			in[t] = have[string(key)]
		}
	}
	return in
}

// tryPacked lets dataPeople pack a tuple's codes into 64 bits (the tests
// switch it off to compare the other way with a brute force).
var tryPacked = true

// originalCodes gives, per QI, pop's value codes (a missing value:
// len(Dict)) in the original's codes (-1: the original holds no such
// value), matched by canonical text.
func originalCodes(pop, orig *placed) [][]int64 {
	to := make([][]int64, len(pop.cols))
	for i, c := range pop.cols {
		byText := map[string]int64{}
		for code, v := range orig.cols[i].Dict {
			byText[canonical(v)] = int64(code)
		}
		to[i] = make([]int64, len(c.Dict)+1)
		for code, v := range c.Dict {
			to[i][code] = -1
			if o, ok := byText[canonical(v)]; ok {
				to[i][code] = o
			}
		}
		to[i][len(c.Dict)] = int64(len(orig.cols[i].Dict))
	}
	return to
}

// canonical writes a value one way: trimmed, and a number as the
// shortest text that reads back the same (a population may write 39 as
// 39.0).
func canonical(v string) string {
	v = strings.TrimSpace(v)
	if x, ok := model.ParseNumber(v); ok {
		return model.FormatNumber(x)
	}
	return v
}

// outsiders reports whether the population holds people outside the
// data (known only with the original).
func (s *singler) outsiders() bool {
	if s.inData == nil {
		return false
	}
	for t, n := range s.p.count {
		if s.inData[t] < n {
			return true
		}
	}
	return false
}

// scored is what a list of predicates achieved: how many isolate one
// person in the data and one outside it, the tuples of the people
// isolated in the data, and the first predicate that did and its tuple.
type scored struct {
	inside, outside   int
	people            map[int32]bool
	first, firstTuple int
}

func (s *singler) score(preds []predicate) scored {
	out := scored{people: map[int32]bool{}, first: -1}
	for j, q := range preds {
		n, t := s.match(q)
		switch {
		case n != 1:
		case s.inData == nil || s.inData[t] > 0:
			out.inside++
			out.people[t] = true
			if out.first < 0 {
				out.first, out.firstTuple = j, int(t)
			}
		default:
			out.outside++
		}
	}
	return out
}

// match counts the people who satisfy q, up to 2, and gives the tuple of
// the one when there is exactly one. It walks the tuples of the
// condition that holds the fewest and tests the others on each, the
// fewest first (the likeliest to fail), a value at a time: the values
// each allows are stamped first.
func (s *singler) match(q predicate) (int, int32) {
	order, size := s.order[:0], s.size[:0]
	for j := range q.qis {
		n := s.tuples(q, j)
		if n == 0 {
			return 0, -1
		}
		k := len(order)
		order, size = append(order, j), append(size, n)
		for ; k > 0 && size[k-1] > n; k-- {
			order[k], size[k] = order[k-1], size[k-1]
		}
		order[k], size[k] = j, n
	}
	s.order, s.size = order, size
	s.now++
	for _, j := range order[1:] {
		for _, x := range s.values(q, j) {
			s.stamp[q.qis[j]][x] = s.now
		}
	}
	best := order[0]
	people, at := 0, int32(-1)
	for _, x := range s.values(q, best) {
	tuples:
		for _, t := range s.byValue[q.qis[best]][x] {
			row := s.codes[int(t)*s.d : int(t)*s.d+s.d]
			for _, j := range order[1:] {
				if i := q.qis[j]; s.stamp[i][row[i]] != s.now {
					continue tuples
				}
			}
			if people += int(s.p.count[t]); people >= 2 {
				return 2, -1
			}
			at = t
		}
	}
	return people, at
}

// tuples is how many tuples meet q's j-th condition.
func (s *singler) tuples(q predicate, j int) int {
	i, x := q.qis[j], int(q.values[j])
	switch {
	case q.raw && x < len(s.byValue[i]):
		return len(s.byValue[i][x])
	case !q.raw && x < len(s.cellTuples[i]):
		return s.cellTuples[i][x]
	}
	return 0
}

// values are the value codes q's j-th condition allows.
func (s *singler) values(q predicate, j int) []int32 {
	i, x := q.qis[j], int(q.values[j])
	switch {
	case q.raw && x < len(s.byValue[i]):
		return []int32{int32(x)}
	case !q.raw && x < len(s.cellValues[i]):
		return s.cellValues[i][x]
	}
	return nil
}

// label writes a predicate in the attacker's words ("age 30-34 and zip
// 100").
func (q predicate) label(v *risk.View, e *risk.Exposure, pop *placed) string {
	parts := make([]string, len(q.qis))
	for j, i := range q.qis {
		var s string
		switch {
		case !q.raw:
			s = e.Labels(v)[i][q.values[j]]
		case int(q.values[j]) < len(pop.cols[i].Dict):
			s = pop.cols[i].Dict[q.values[j]]
		default:
			s = "?"
		}
		parts[j] = v.QIs[i] + " " + s
	}
	return strings.Join(parts, " and ")
}
