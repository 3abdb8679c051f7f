package check

import (
	"math"
	"path/filepath"

	"privlab/algorithms/kja/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// sgroups are si.csv's sensitive groups, read against the boxes
// (Sacharidis et al., Section 3.2).
type sgroups struct {
	n    []int            // si.csv rows per sensitive group
	vals []map[string]int // each group's sensitive values
	// unknown counts the rows naming no group of jat.csv; short, over,
	// shape and small the groups with fewer values than boxes, more than
	// JT tuples, not one box of microdata tuples (plain k-anonymity), or
	// fewer than k values; min is the smallest group.
	unknown, short, over, shape, small, min int
}

// groupsOf reads si.csv's groups once, on codes: a group id and a value
// are looked up once each, not once per row.
func (c *release) groupsOf() (*sgroups, error) {
	return c.groups.Get(func() (*sgroups, error) {
		v, err := c.rel.FileFact("kja/groups", func() (any, error) {
			b, err := c.boxesOf()
			if err != nil {
				return nil, err
			}
			g, err := readGroups(c.rel.Dir, c.si, b, c.det.SAKind == format.Numeric)
			if err != nil {
				return nil, err
			}
			g.count(b, c.method, c.k, c.kerr)
			return g, nil
		})
		g, _ := v.(*sgroups)
		return g, err
	})
}

// readGroups counts si.csv's values per sensitive group.
func readGroups(dir string, si *model.Table, b *boxes, numeric bool) (*sgroups, error) {
	sgCol, saCol := si.Columns[0], si.Columns[1]
	groupOf := make([]int, len(sgCol.Dict)+1)
	for code := range groupOf {
		g, ok := -1, false
		if code < len(sgCol.Dict) {
			g, ok = b.sgIDs[sgCol.Dict[code]]
		}
		groupOf[code] = map[bool]int{true: g, false: -1}[ok]
	}
	number := make([]int8, len(saCol.Dict)+1) // 0 unread, 1 a number, -1 not
	g := &sgroups{n: make([]int, len(b.sgIDs))}
	counts := make([]map[uint32]int, len(b.sgIDs))
	for row := 0; row < si.Rows; row++ {
		code := verify.Code(saCol, row)
		if numeric && number[code] == 0 {
			_, ok := model.ParseNumber(saCol.Value(row))
			number[code] = map[bool]int8{true: 1, false: -1}[ok]
		}
		if numeric && number[code] < 0 {
			return nil, &model.InputError{File: filepath.Join(dir, format.FileSI), Line: row + 2, Msg: "the sensitive attribute is numeric but this value is not a number"}
		}
		sg := groupOf[verify.Code(sgCol, row)]
		if sg < 0 {
			g.unknown++
			continue
		}
		g.n[sg]++
		if counts[sg] == nil {
			counts[sg] = map[uint32]int{}
		}
		counts[sg][uint32(code)]++
	}
	g.vals = make([]map[string]int, len(counts))
	for sg, byCode := range counts {
		if byCode != nil {
			g.vals[sg] = map[string]int{}
			for code, n := range byCode {
				g.vals[sg][textOf(saCol, int(code))] = n
			}
		}
	}
	return g, nil
}

// textOf is a code's text ("" for the missing value, last).
func textOf(c *model.Column, code int) string {
	if code < len(c.Dict) {
		return c.Dict[code]
	}
	return ""
}

// count counts what the checks of the groups report.
func (g *sgroups) count(b *boxes, method string, k int, kerr error) {
	boxesOf := make([]int, len(g.n))
	rowsOf := make([]int, len(g.n))
	for _, bx := range b.list {
		boxesOf[bx.sg]++
		rowsOf[bx.sg] += bx.rows
	}
	g.min = math.MaxInt
	for sg, n := range g.n {
		if n < boxesOf[sg] {
			g.short++ // a box of the group would hold no microdata tuple
		}
		if n > rowsOf[sg] {
			g.over++
		}
		if method == format.PlainKA && (boxesOf[sg] != 1 || n != rowsOf[sg]) {
			g.shape++
		}
		if kerr == nil && n < k {
			g.small++
		}
		g.min = min(g.min, n)
	}
	if len(g.n) == 0 {
		g.min = 0
	}
}

// groupsKnown: every si.csv row names a sensitive group of jat.csv.
func groupsKnown(c *release, r *verify.Report) error {
	g, err := c.groupsOf()
	if err != nil {
		return err
	}
	r.Add(g.unknown == 0, "sensitive groups", "every si.csv row names a sensitive group of jat.csv (%d do not)", g.unknown)
	return nil
}

// groupCounts: a group has a sensitive value per box (each box holds a
// microdata tuple) and no more values than its JT tuples.
func groupCounts(c *release, r *verify.Report) error {
	g, err := c.groupsOf()
	if err != nil {
		return err
	}
	r.Add(g.short == 0 && g.over == 0, "group counts", "every sensitive group has at least one sensitive value per box and no more than its JT tuples (%d short, %d over)", g.short, g.over)
	return nil
}

// groupShape: under plain k-anonymity a sensitive group is one box of
// microdata tuples.
func groupShape(c *release, r *verify.Report) error {
	g, err := c.groupsOf()
	if err != nil || c.method != format.PlainKA {
		return err
	}
	r.Add(g.shape == 0, "group shape", "under k-anonymity every sensitive group is one box whose every tuple is a microdata tuple (%d are not)", g.shape)
	return nil
}

// groupSize: every sensitive group holds at least k microdata tuples, in
// every variant, as SI comes from a k-anonymous grouping of MT (Section
// 3.2).
func groupSize(c *release, r *verify.Report) error {
	g, err := c.groupsOf()
	if err != nil {
		return err
	}
	r.Add(c.kerr == nil && g.small == 0, "sensitive group size", "every sensitive group holds at least k = %s microdata tuples in si.csv, "+
		"so its sensitive values are as hidden as in a k-anonymous table (Section 3.2: SI comes from a k-anonymous grouping of MT) (smallest %d; %d hold fewer)",
		format.ParamK.Text(c.m.Parameters), g.min, g.small)
	return nil
}

// rowPairing: row order does not pair jat.csv with si.csv, read from the
// files alone: Sacharidis et al., Section 3.2, publish a sensitive
// group's values apart from its boxes, so that which box (and which
// tuple) holds which value stays hidden; an si.csv written in jat.csv's
// row order gives each microdata row its own value. Independent shuffles
// do not write one (verify.RowPairing).
func rowPairing(c *release, r *verify.Report) error {
	verify.RowPairing(format.FileJAT, c.jat, 1, format.FileSI, c.si, 0, r)
	return nil
}
