package attack

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"privlab/algorithms/verify"
	"privlab/model"
)

// HoldsOriginal checks that a population holds every person of the
// original, as a multiset on the quasi-identifiers: each original row
// (one with every QI; a row missing one is no one a release holds) needs
// a population row of its own with equal values (by text, or by number
// when both read as numbers). A population lacking some of the data's
// people would have membership call "certainly in the data" people who
// are not, so it is an input error naming the first original row
// lacking one.
func HoldsOriginal(pop, orig *model.Table, qis []string) error {
	_, err := holdsOriginal(pop, orig, qis)
	return err
}

// inData is, per population row, its key (-1: a QI missing), and per
// key the original rows with it.
type inData struct {
	popKey []int32
	in     []int32
}

func holdsOriginal(pop, orig *model.Table, qis []string) (*inData, error) {
	pc, err := pop.MustColumns("population", qis)
	if err != nil {
		return nil, withColumnsFix(err, pop, "population")
	}
	oc, err := orig.MustColumns("original", qis)
	if err != nil {
		return nil, err
	}
	k := newKeyer(len(qis))
	d := &inData{popKey: k.rows(pc, pop.Rows, pop == orig)}
	var origKey []int32
	if pop != orig {
		origKey = k.rows(oc, orig.Rows, false)
	}
	room := make([]int32, k.n)
	for _, key := range d.popKey {
		if key >= 0 {
			room[key]++
		}
	}
	if pop == orig {
		// The original is the population (the attacks' default): every
		// person is in the data, and keying its rows again would give
		// the same counts.
		d.in = room
		return d, nil
	}
	d.in = make([]int32, k.n)
	for row, key := range origKey {
		if key < 0 {
			continue
		}
		if d.in[key] >= room[key] {
			return nil, lacking(pop, orig, oc, row, room[key])
		}
		d.in[key]++
	}
	return d, nil
}

// lacking is the input error of an original row the population has no
// person left for (held: the population's people with its values).
func lacking(pop, orig *model.Table, cols []*model.Column, row int, held int32) error {
	parts := make([]string, len(cols))
	for i, c := range cols {
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

// keyer numbers rows by their quasi-identifier values, each value read
// by its text or, when it reads as a number, by the number (39 and 39.0
// are one value), the same in every table it numbers.
type keyer struct {
	values []map[string]uint32 // per QI: a value's number
	keys   map[string]int32
	n      int32
}

func newKeyer(qis int) *keyer {
	k := &keyer{values: make([]map[string]uint32, qis), keys: map[string]int32{}}
	for i := range k.values {
		k.values[i] = map[string]uint32{}
	}
	return k
}

// rows numbers the rows of cols (-1: a QI missing). When no other table
// is keyed after (last), a row's value numbers are packed into one
// integer where they fit (verify.TupleKeys) rather than into a string;
// the keys are the same, numbered in the same order.
func (k *keyer) rows(cols []*model.Column, n int, last bool) []int32 {
	ids := make([][]uint32, len(cols)) // per QI and code
	for i, c := range cols {
		ids[i] = make([]uint32, len(c.Dict))
		for code, s := range c.Dict {
			s = strings.TrimSpace(s)
			if x, ok := model.ParseNumber(s); ok {
				s = "#" + strconv.FormatFloat(x, 'g', -1, 64)
			}
			id, ok := k.values[i][s]
			if !ok {
				id = uint32(len(k.values[i]))
				k.values[i][s] = id
			}
			ids[i][code] = id
		}
	}
	if last {
		return k.radixRows(cols, ids, n)
	}
	out := make([]int32, n)
	buf := make([]byte, 4*len(cols))
	for row := range out {
		out[row] = -1
		full := true
		for i, c := range cols {
			code := c.Codes[row]
			if c.IsMissing(row) || int(code) >= len(ids[i]) {
				full = false
				break
			}
			binary.LittleEndian.PutUint32(buf[4*i:], ids[i][code])
		}
		if !full {
			continue
		}
		key, ok := k.keys[string(buf)]
		if !ok {
			key = k.n
			k.keys[string(buf)] = key
			k.n++
		}
		out[row] = key
	}
	return out
}

// radixRows is rows keyed by the value numbers packed into one integer
// where they fit (verify.TupleKeys). It leaves k.keys as it is: no table
// is keyed after.
func (k *keyer) radixRows(cols []*model.Column, ids [][]uint32, n int) []int32 {
	radix := make([]uint64, len(cols))
	for i := range cols {
		radix[i] = uint64(len(k.values[i]))
	}
	keys := verify.NewTupleKeys(radix)
	tuple := make([]uint32, len(cols))
	base := k.n
	out := make([]int32, n)
rows:
	for row := range out {
		out[row] = -1
		for i, c := range cols {
			code := c.Codes[row]
			if c.IsMissing(row) || int(code) >= len(ids[i]) {
				continue rows
			}
			tuple[i] = ids[i][code]
		}
		out[row] = base + keys.ID(tuple)
		k.n = max(k.n, out[row]+1)
	}
	return out
}

// inDataOf is, per tuple of the population placed, how many of its
// people are in the data (the original rows with its values).
func inDataOf(p *placed, d *inData) []int32 {
	out := make([]int32, len(p.count))
	for t := range p.count {
		if key := d.popKey[p.first[t]]; key >= 0 {
			out[t] = min(d.in[key], p.count[t])
		}
	}
	return out
}
