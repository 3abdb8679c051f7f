// Package attack runs on a release the attacks its methods' papers
// defend against (SPEC 3.7), using only the published files and what each
// attacker is assumed to hold: re-identification by linkage (the
// population's quasi-identifiers and identities), singling out
// (predicates over the published values that isolate one person),
// attribute inference (homogeneity and skew of what a person's class
// tells of their sensitive value), membership (a population holding the data's people
// and others) and the attacks only one paper defines (sampling's Eq. 3
// under other marginals), each measured beside the bound its method
// promises.
//
// The release is read as an attacker reads it: the method's viewer builds
// the view (algorithms/risk) and its exposer says how a person's raw
// values place them among the view's regions and what the method claims
// (risk.Exposure); both live in the method's check package and come from
// the registry, so nothing here names a method.
package attack

import (
	"fmt"
	"math"
	"strings"

	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// Method is what the registry gives the attacks of one method.
type Method struct {
	View   verify.Viewer
	Expose verify.Exposer
	// Attack runs the method's own attacks (nil: none).
	Attack verify.Attacker
}

// Report is every attack run on one release.
type Report struct {
	Findings []risk.Finding
}

// Broken counts the attacks that broke their method's bound.
func (r *Report) Broken() int {
	n := 0
	for _, f := range r.Findings {
		if f.Holds() == 0 {
			n++
		}
	}
	return n
}

// Run attacks the release with what the attacker holds (k). The
// population defaults to the original (and the public table, a person in
// both counted once); membership needs a population of its own.
func Run(rel *verify.Release, m Method, k *risk.Knowledge) (*Report, error) {
	if m.View == nil || m.Expose == nil {
		return nil, fmt.Errorf("method %s registers no viewer or exposer for attacks", rel.Manifest.Method)
	}
	v, err := rel.View(m.View)
	if err != nil {
		return nil, err
	}
	e, err := m.Expose(rel, v)
	if err != nil {
		return nil, err
	}
	return RunView(rel, v, e, m.Attack, k)
}

// RunView attacks a release whose view and exposure are read.
func RunView(rel *verify.Release, v *risk.View, e *risk.Exposure, extra verify.Attacker, k *risk.Knowledge) (*Report, error) {
	if k == nil {
		k = &risk.Knowledge{}
	}
	pop, popName, err := population(k, v, e)
	if err != nil {
		return nil, err
	}
	// Whether the population holds the original's people is read from
	// the two tables alone, while they are placed.
	held := func() (*inData, error) { return nil, nil }
	if pop != nil && k.Original != nil {
		held = concurrently(func() (*inData, error) { return holdsOriginal(pop, k.Original, v.QIs) })
	}
	popAt, origAt, err := placeBoth(pop, k, v, e)
	d, herr := held()
	if err != nil {
		return nil, err
	}
	if herr != nil {
		return nil, herr
	}
	var inData []int32
	if popAt != nil && k.Original != nil {
		inData = inDataOf(popAt, d)
	}
	// Singling out, the costliest attack, runs beside the others (each
	// reads the placed tables and the view, none writes them); the
	// findings keep their order.
	single := concurrently(func() (risk.Finding, error) { return singlingOut(v, e, popAt, origAt, popName, k), nil })
	link := linkage(v, e, popAt, popName, k)
	var infer *risk.Finding
	if v.SA != "" {
		f := inference(v, e, origAt, k)
		infer = &f
	}
	member := membership(v, e, popAt, popName, k, inData)
	singled, _ := single()
	rep := &Report{}
	rep.Findings = append(rep.Findings, link, singled)
	if infer != nil {
		rep.Findings = append(rep.Findings, *infer)
	}
	rep.Findings = append(rep.Findings, member)
	if extra != nil {
		more, err := extra(rel, v, k)
		if err != nil {
			return nil, err
		}
		rep.Findings = append(rep.Findings, more...)
	}
	return rep, nil
}

// population is the people the attacker can name: the population given,
// else the original together with the public table (a public row equal
// to an original row on the quasi-identifiers counted as that person, as
// Sacharidis et al. pair them), else none.
func population(k *risk.Knowledge, v *risk.View, e *risk.Exposure) (*model.Table, string, error) {
	switch {
	case k.Population != nil:
		return k.Population, k.PopulationName, nil
	case k.Original == nil:
		return nil, "", nil
	case k.Public == nil:
		return k.Original, fmt.Sprintf("the original's %d people", k.Original.Rows), nil
	}
	join := e.JoinColumns
	if _, err := k.Original.MustColumns("original", join); err != nil || len(join) == 0 {
		join = nil
	} else if _, err := k.Public.MustColumns("public", join); err != nil {
		join = nil
	}
	if err := model.CheckIdentifiers(k.Original, k.Original.Name, join, presentRows(k.Original, v.QIs)); err != nil {
		return nil, "", err // joined on it, the tables would pair the wrong people
	}
	t, err := union(k.Original, k.Public, v.QIs, join)
	if err != nil {
		return nil, "", err
	}
	how := "a public row equal to an original one on the quasi-identifiers counted as that person"
	if join != nil {
		how = "a person in both joined on " + strings.Join(join, ", ")
	}
	return t, fmt.Sprintf("the original's and the public table's %d people (%s)", t.Rows, how), nil
}

// union is the rows of a and, of b, those no row of a already stands for
// (the same values of the join columns, or, without them, at each QI
// tuple the rows b has beyond a's), on the QIs.
func union(a, b *model.Table, qis, join []string) (*model.Table, error) {
	ac, err := a.MustColumns("original", qis)
	if err != nil {
		return nil, err
	}
	bc, err := b.MustColumns("public", qis)
	if err != nil {
		return nil, err
	}
	out := &model.Table{Name: "population"}
	for _, q := range qis {
		out.Columns = append(out.Columns, &model.Column{Name: q})
	}
	dicts := make([]map[string]uint32, len(qis))
	for i := range dicts {
		dicts[i] = map[string]uint32{}
	}
	add := func(cols []*model.Column, row int) {
		for i, c := range cols {
			oc := out.Columns[i]
			if c.IsMissing(row) {
				oc.Codes = append(oc.Codes, model.Missing)
				oc.MissingCount++
				continue
			}
			code, ok := dicts[i][c.Value(row)]
			if !ok {
				code = uint32(len(oc.Dict))
				dicts[i][c.Value(row)] = code
				oc.Dict = append(oc.Dict, c.Value(row))
			}
			oc.Codes = append(oc.Codes, code)
		}
		out.Rows++
	}
	aKey, bKey := ac, bc
	if join != nil {
		aKey, _ = a.MustColumns("original", join)
		bKey, _ = b.MustColumns("public", join)
	}
	have := map[string]int{}
	for row := 0; row < a.Rows; row++ {
		have[verify.PublishedKey(aKey, row)]++
		add(ac, row)
	}
	for row := 0; row < b.Rows; row++ {
		if missingAny(bc, row) {
			continue // a public row without every QI is no one the release can hold (as run loads it)
		}
		k := verify.PublishedKey(bKey, row)
		if have[k] > 0 {
			if join == nil {
				have[k]-- // each original row pairs with one public row
			}
			continue
		}
		add(bc, row)
	}
	return out, nil
}

// notRun is a finding of an attack that could not run for lack of one
// of lacks (none: it cannot run on this release at all).
func notRun(attack, attacker, why string, lacks ...string) risk.Finding {
	return risk.Finding{Attack: attack, Attacker: attacker, Measured: math.NaN(), Bound: math.NaN(), NotRun: why, Lacks: lacks}
}

// missingAny reports whether a row lacks a value of cols.
func missingAny(cols []*model.Column, row int) bool {
	for _, c := range cols {
		if c.IsMissing(row) {
			return true
		}
	}
	return false
}

// presentRows are the rows of t with every column of cols present: the
// rows a release can have read (a row missing a quasi-identifier is
// dropped, or kept as a category no identifier check needs).
func presentRows(t *model.Table, cols []string) []int {
	cs, _ := t.MustColumns("original", cols)
	var rows []int
next:
	for r := 0; r < t.Rows; r++ {
		for _, c := range cs {
			if c.IsMissing(r) {
				continue next
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// placeBoth places the population's people (pop, nil: none) and the
// original's among the view's regions: the same placement when the
// population is the original.
func placeBoth(pop *model.Table, k *risk.Knowledge, v *risk.View, e *risk.Exposure) (popAt, origAt *placed, err error) {
	if pop != nil {
		what := "population"
		if k.Population == nil {
			what = "original" // (and the public table's people beyond it)
		}
		if popAt, err = place(pop, what, v, e); err != nil {
			return nil, nil, err
		}
		if k.Population == nil && pop != k.Original {
			popAt.rowsOf = "the original, then the public table's people it lacks"
		}
	}
	if k.Original != nil {
		if k.Original == pop {
			origAt = popAt
		} else if origAt, err = place(k.Original, "original", v, e); err != nil {
			return nil, nil, err
		}
	}
	return popAt, origAt, nil
}

// concurrently starts f in a goroutine and returns a function that waits
// for its result; a panic in f is raised again in the waiting goroutine.
func concurrently[T any](f func() (T, error)) func() (T, error) {
	var out T
	var err error
	var panicked any
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { panicked = recover() }()
		out, err = f()
	}()
	return func() (T, error) {
		<-done
		if panicked != nil {
			panic(panicked)
		}
		return out, err
	}
}
