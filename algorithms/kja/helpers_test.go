package kja

import (
	"fmt"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
)

// testInput is a method input with default hierarchies (flat for
// categorical columns, intervals for numeric ones).
func testInput(tab, pub *model.Table, qis []string, sa string, ids []string) *method.Input {
	hs := map[string]*hierarchy.Hierarchy{}
	for _, name := range append(append([]string(nil), qis...), sa) {
		c := tab.Column(name)
		spec := "flat"
		if c.Kind == model.Numeric {
			spec = "auto"
		}
		h, err := hierarchy.Build(spec, c)
		if err != nil {
			panic(err)
		}
		hs[name] = h
	}
	return &method.Input{Table: tab, Public: pub, Roles: model.Roles{IDs: ids, QIs: qis, SA: sa}, Hierarchies: hs}
}

// instance is a random MT and PD: MT rows have an id, d QIs (the last
// categorical when cat is set, over the values c0..c5 in that order) and
// an SA of four values; PD holds every MT person (same id and QIs) when
// joined, plus others.
type instance struct {
	mt, pd  *model.Table
	in      *method.Input
	d       int
	joined  bool
	catAxis bool
}

func randomInstance(t testing.TB, seed uint64) *instance {
	t.Helper()
	rng := model.NewRand(seed)
	m := 20 + rng.Intn(120)
	others := rng.Intn(4 * m)
	d := 1 + rng.Intn(4)
	width := 3 + rng.Intn(40) // small domains force ties
	cat := d > 1 && rng.Intn(2) == 0
	joined := rng.Intn(4) != 0
	point := func() []string {
		p := make([]string, d)
		for a := range p {
			if cat && a == d-1 {
				p[a] = fmt.Sprintf("c%d", rng.Intn(6))
			} else {
				p[a] = fmt.Sprint(rng.Intn(width))
			}
		}
		return p
	}
	qis := make([]string, d)
	for a := range qis {
		qis[a] = fmt.Sprintf("q%d", a)
	}
	var mtb, pdb strings.Builder
	mtb.WriteString("id," + strings.Join(qis, ",") + ",sa\n")
	pdb.WriteString("id," + strings.Join(qis, ",") + "\n")
	var pdRows []string
	for i := 0; i < m; i++ {
		p := strings.Join(point(), ",")
		fmt.Fprintf(&mtb, "%d,%s,s%d\n", 1000+i, p, rng.Intn(4))
		if joined {
			pdRows = append(pdRows, fmt.Sprintf("%d,%s\n", 1000+i, p))
		}
	}
	for i := 0; i < others; i++ {
		pdRows = append(pdRows, fmt.Sprintf("%d,%s\n", 5000+i, strings.Join(point(), ",")))
	}
	rng.Shuffle(len(pdRows), func(i, j int) { pdRows[i], pdRows[j] = pdRows[j], pdRows[i] })
	for _, r := range pdRows {
		pdb.WriteString(r)
	}
	if len(pdRows) == 0 {
		fmt.Fprintf(&pdb, "%d,%s\n", 9999, strings.Join(point(), ","))
	}
	mt, err := csvfile.Load(strings.NewReader(mtb.String()), csvfile.LoadOptions{Name: "mt"})
	if err != nil {
		t.Fatal(err)
	}
	pd, err := csvfile.Load(strings.NewReader(pdb.String()), csvfile.LoadOptions{Name: "pd"})
	if err != nil {
		t.Fatal(err)
	}
	in := testInput(mt, pd, qis, "sa", []string{"id"})
	if cat {
		// The categorical order: c0..c5 (a hierarchy over all six values,
		// so PD's values outside MT are placed too).
		var b strings.Builder
		for i := 0; i < 6; i++ {
			fmt.Fprintf(&b, "c%d;*\n", i)
		}
		h, err := hierarchy.Parse(qis[d-1], "cat.csv", strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		in.Hierarchies[qis[d-1]] = h
	}
	if !joined && rng.Intn(2) == 0 {
		in.Roles.IDs = nil // no join at all
	}
	return &instance{mt: mt, pd: pd, in: in, d: d, joined: joined, catAxis: cat}
}
