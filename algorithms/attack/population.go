package attack

import (
	"fmt"
	"strconv"
	"strings"

	"privlab/model"
)

// HoldsOriginal checks that a population holds every person of the
// original, as a multiset on the quasi-identifiers: each original row
// (one with every QI; a row missing one is no one a release holds) needs
// a population row of its own with equal values (by text, or by number
// when both read as numbers). A population lacking some of the data's
// people would have membership call "certainly in the data" people who
// are not, so it is an input error naming the first original row
// lacking one. It returns, per population key (popKeys), the original
// rows with it.
func HoldsOriginal(pop, orig *model.Table, qis []string) (map[string]int32, error) {
	pk, err := newKeyer(pop, "population", qis)
	if err != nil {
		return nil, err
	}
	ok, err := newKeyer(orig, "original", qis)
	if err != nil {
		return nil, err
	}
	room := map[string]int32{}
	for row := 0; row < pop.Rows; row++ {
		if k, full := pk.key(row); full {
			room[k]++
		}
	}
	in := map[string]int32{}
	for row := 0; row < orig.Rows; row++ {
		k, full := ok.key(row)
		if !full {
			continue
		}
		if in[k] >= room[k] {
			return nil, lacking(pop, orig, ok, row, room[k])
		}
		in[k]++
	}
	return in, nil
}

// lacking is the input error of an original row the population has no
// person left for (held: the population's people with its values).
func lacking(pop, orig *model.Table, k *keyer, row int, held int32) error {
	parts := make([]string, len(k.cols))
	for i, c := range k.cols {
		parts[i] = c.Name + " " + c.Value(row)
	}
	what := "holds no person with this record's quasi-identifiers"
	if held > 0 {
		what = fmt.Sprintf("holds %s with this record's quasi-identifiers, and the original more", people(int(held)))
	}
	line := row + 2
	if orig.FirstRowData {
		line = row + 1
	}
	return &model.InputError{File: orig.Name, Line: line,
		Msg: fmt.Sprintf("the population %s %s (%s): it lacks some of the data's people, so membership would call people certainly in the data who are not",
			pop.Name, what, strings.Join(parts, ", ")),
		Hint: "a population holds every person of the data (each original row needs a population row of its own with the same quasi-identifier values) and others: give one that does, or the original itself"}
}

// keyer writes a row's quasi-identifier values as one key, each value
// by its text or, when it reads as a number, by the number (39 and 39.0
// are one value).
type keyer struct {
	cols  []*model.Column
	canon [][]string // per QI and code
}

func newKeyer(t *model.Table, what string, qis []string) (*keyer, error) {
	cols, err := t.MustColumns(what, qis)
	if err != nil {
		return nil, withColumnsFix(err, t, what)
	}
	k := &keyer{cols: cols, canon: make([][]string, len(cols))}
	for i, c := range cols {
		k.canon[i] = make([]string, len(c.Dict))
		for code, s := range c.Dict {
			s = strings.TrimSpace(s)
			if x, ok := model.ParseNumber(s); ok {
				s = "#" + strconv.FormatFloat(x, 'g', -1, 64)
			}
			k.canon[i][code] = s
		}
	}
	return k, nil
}

// key is row's key; false when a QI is missing.
func (k *keyer) key(row int) (string, bool) {
	var b strings.Builder
	for i, c := range k.cols {
		if c.IsMissing(row) || int(c.Codes[row]) >= len(k.canon[i]) {
			return "", false
		}
		b.WriteString(k.canon[i][c.Codes[row]])
		b.WriteByte(0)
	}
	return b.String(), true
}

// inDataOf is, per tuple of the population placed, how many of its
// people are in the data (the original rows with its values, in).
func inDataOf(p *placed, in map[string]int32, qis []string) []int32 {
	k, err := newKeyer(p.table, p.what, qis)
	if err != nil {
		return nil
	}
	out := make([]int32, len(p.count))
	for t := range p.count {
		if key, full := k.key(int(p.first[t])); full {
			out[t] = min(in[key], p.count[t])
		}
	}
	return out
}
