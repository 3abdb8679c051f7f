package check

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"

	"privlab/algorithms/kja/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// box is one G-box of jat.csv.
type box struct {
	id     string
	sg     int
	lo, hi []float64
	// consistent says every row of the box gives the same ranges and
	// sensitive group; first is its first row.
	consistent bool
	first      int
	rows       int
}

// boxes are jat.csv's boxes, recounted: every row's box, the sensitive
// groups by their id, and what the checks of the boxes count.
type boxes struct {
	list  []*box
	of    []int          // per jat.csv row
	sgIDs map[string]int // sensitive groups by their id
	// inconsistent and outside count the boxes whose rows differ and
	// those not inside the stated domain; minSize is the smallest box's
	// rows, kOK says every box has k.
	inconsistent, outside, minSize int
	kOK                            bool
}

// boxesOf reads jat.csv's boxes once (readBoxes).
func (c *release) boxesOf() (*boxes, error) {
	return c.boxes.Get(func() (*boxes, error) {
		v, err := c.rel.FileFact("kja/boxes", func() (any, error) {
			axes, err := c.axesOf()
			if err != nil {
				return nil, err
			}
			b, err := readBoxes(c.rel.Dir, c.jat, axes)
			if err != nil {
				return nil, err
			}
			b.count(axes, c.k, c.kerr)
			return b, nil
		})
		b, _ := v.(*boxes)
		return b, err
	})
}

// readBoxes groups jat.csv's rows by GroupID, on codes: a box's cells are
// read once, at its first row, and its other rows compared with it code
// by code. It returns the boxes in GroupID order.
func readBoxes(dir string, jat *model.Table, axes []*axis) (*boxes, error) {
	file := filepath.Join(dir, format.FileJAT)
	ids := jat.Columns[0]
	byCode := make([]*box, len(ids.Dict)+1)
	b := &boxes{of: make([]int, jat.Rows), sgIDs: map[string]int{}}
	for row := 0; row < jat.Rows; row++ {
		bx := byCode[verify.Code(ids, row)]
		if bx == nil {
			var err error
			if bx, err = b.newBox(jat, row, axes, file); err != nil {
				return nil, err
			}
			byCode[verify.Code(ids, row)] = bx
		} else if bx.consistent {
			bx.consistent = sameCells(jat, bx.first, row)
		}
		bx.rows++
	}
	sort.Slice(b.list, func(i, j int) bool {
		x, _ := strconv.Atoi(b.list[i].id)
		y, _ := strconv.Atoi(b.list[j].id)
		return x < y
	})
	index := map[*box]int{}
	for i, bx := range b.list {
		index[bx] = i
	}
	for row := range b.of {
		b.of[row] = index[byCode[verify.Code(ids, row)]]
	}
	return b, nil
}

// newBox reads a box at its first row: its id, sensitive group and
// ranges.
func (b *boxes) newBox(jat *model.Table, row int, axes []*axis, file string) (*box, error) {
	id := jat.Columns[0].Value(row)
	if _, err := strconv.Atoi(id); err != nil {
		return nil, &model.InputError{File: file, Line: row + 2, Msg: "GroupID " + strconv.Quote(id) + " is not an integer"}
	}
	sgText := jat.Columns[1].Value(row)
	if _, err := strconv.Atoi(sgText); err != nil {
		return nil, &model.InputError{File: file, Line: row + 2, Msg: "SG " + strconv.Quote(sgText) + " is not an integer"}
	}
	sg, ok := b.sgIDs[sgText]
	if !ok {
		sg = len(b.sgIDs)
		b.sgIDs[sgText] = sg
	}
	bx := &box{id: id, sg: sg, consistent: true, first: row, lo: make([]float64, len(axes)), hi: make([]float64, len(axes))}
	for a, ax := range axes {
		for j, dst := range []*float64{&bx.lo[a], &bx.hi[a]} {
			v := jat.Columns[2+2*a+j].Value(row)
			x, ok := ax.value(v)
			if !ok {
				what := "a number"
				if !ax.numeric {
					what = "a value of the manifest's domain of " + ax.QI
				}
				return nil, &model.InputError{File: file, Line: row + 2, Msg: fmt.Sprintf("%q is not %s", v, what)}
			}
			*dst = x
		}
	}
	b.list = append(b.list, bx)
	return bx, nil
}

// sameCells reports whether two rows of jat.csv give the same ranges and
// sensitive group.
func sameCells(jat *model.Table, a, b int) bool {
	for _, col := range jat.Columns[1:] {
		if col.Codes[a] != col.Codes[b] {
			return false
		}
	}
	return true
}

// count counts what the checks of the boxes report.
func (b *boxes) count(axes []*axis, k int, kerr error) {
	b.minSize = math.MaxInt
	for _, bx := range b.list {
		if !bx.consistent {
			b.inconsistent++
		}
		for a, ax := range axes {
			if bx.lo[a] > bx.hi[a] || (ax.numeric && (bx.lo[a] < ax.Low || bx.hi[a] > ax.High)) {
				b.outside++
				break
			}
		}
		b.minSize = min(b.minSize, bx.rows)
	}
	if len(b.list) == 0 {
		b.minSize = 0
	}
	b.kOK = kerr == nil && b.minSize >= k && len(b.list) > 0
}

// boxesConsistent: every row of a box reads the same.
func boxesConsistent(c *release, r *verify.Report) error {
	b, err := c.boxesOf()
	if err != nil {
		return err
	}
	r.Add(b.inconsistent == 0, "boxes", "every row of a box gives the same ranges and sensitive group (%d boxes differ)", b.inconsistent)
	return nil
}

// boxesInDomain: every box is a range inside the stated domain.
func boxesInDomain(c *release, r *verify.Report) error {
	b, err := c.boxesOf()
	if err != nil {
		return err
	}
	r.Add(b.outside == 0, "domain", "every box is a range inside the stated domain of each quasi-identifier (%d are not)", b.outside)
	return nil
}

// kJoinAnonymity: every box holds at least k rows of jat.csv (Definition
// 6). Under plain k-anonymity they are k microdata tuples, so the
// breach probability is at most 1/k (Theorem 2); a KJA box's rows are
// microdata and public tuples alike, which only the original and the
// public table show to be distinct people (recount).
func kJoinAnonymity(c *release, r *verify.Report) error {
	b, err := c.boxesOf()
	if err != nil {
		return err
	}
	k := format.ParamK.Text(c.m.Parameters)
	if c.method == format.PlainKA {
		r.Add(b.kOK, "k-join-anonymity", "every one of %d boxes holds at least k = %s JT tuples, recounted from jat.csv (smallest %d; breach probability <= 1/%d, Theorem 2)",
			len(b.list), k, b.minSize, max(b.minSize, 1))
		return nil
	}
	r.Add(b.kOK, "k-join-anonymity", kUnrecounted, len(b.list), k, b.minSize, max(b.minSize, 1))
	return nil
}
