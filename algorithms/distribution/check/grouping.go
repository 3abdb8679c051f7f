package check

import (
	"strconv"
	"strings"

	"privlab/algorithms/verify"
)

// grouping holds the groups to the stated grouping where the files can
// tell (Koudas et al. 2009, Section 4.2): one group for sa-only, groups
// of identical QI tuples for qi-sa, one value of the column per group for
// column:NAME (a value in one group only for level:NAME=L), groups of at
// least SIZE for mondrian:SIZE. It reads qi.csv's codes.
func grouping(c *release, r *verify.Report) error {
	d, err := c.detailsOf()
	if err != nil {
		return nil
	}
	kind, arg, _ := strings.Cut(d.Grouping, ":")
	bad := func(format string, args ...any) {
		r.Add(false, "claim parameters.grouping", "the groups are not a %s grouping: "+format, append([]any{d.Grouping}, args...)...)
	}
	g := c.groupsOf()
	switch kind {
	case "sa-only":
		if len(g.sizes) != 1 {
			bad("%d groups", len(g.sizes))
		}
	case "qi-sa":
		groupsByTuple(c, g, bad)
	case "column", "level":
		name, _, _ := strings.Cut(arg, "=")
		groupsByColumn(c, g, name, kind == "column", bad)
	case "mondrian":
		size, err := strconv.Atoi(arg)
		if err != nil {
			bad("no size")
			return nil
		}
		for _, s := range g.sizes {
			if s < size && len(g.sizes) > 1 {
				bad("a group of %d", s)
				return nil
			}
		}
	}
	return nil
}

// groupsByTuple: a QI tuple lies in one group, and a group holds one.
func groupsByTuple(c *release, g *groups, bad func(string, ...any)) {
	radix := make([]uint64, 0, len(c.qi.Columns)-1)
	for _, col := range c.qi.Columns[1:] {
		radix = append(radix, uint64(len(col.Dict)+1))
	}
	tuples := verify.NewTupleKeys(radix)
	codes := make([]uint32, len(radix))
	var groupOf []int32
	for row := 0; row < c.qi.Rows; row++ {
		for i, col := range c.qi.Columns[1:] {
			codes[i] = uint32(verify.Code(col, row))
		}
		id := tuples.ID(codes)
		if int(id) == len(groupOf) {
			groupOf = append(groupOf, g.of[row])
		} else if groupOf[id] != g.of[row] {
			bad("one QI tuple is in two groups")
			return
		}
	}
	if len(groupOf) != len(g.sizes) {
		bad("a group holds several QI tuples")
	}
}

// groupsByColumn: a value of the column (or its generalization at a
// level) decides the group, so a value never lies in two groups; with
// one, a group holds one value.
func groupsByColumn(c *release, g *groups, name string, one bool, bad func(string, ...any)) {
	col := -1
	for i, q := range c.m.QIs {
		if q == name {
			col = i
		}
	}
	if col < 0 {
		bad("%s is not a published quasi-identifier", name)
		return
	}
	if c.qi.Rows > 0 && col+1 >= len(c.qi.Columns) {
		bad("qi.csv has no column %s", name) // its header already failed
		return
	}
	values := make([]int, len(g.sizes))
	if c.qi.Rows > 0 {
		column := c.qi.Columns[col+1]
		groupOf := make([]int32, len(column.Dict)+1)
		for i := range groupOf {
			groupOf[i] = -1
		}
		for row := 0; row < c.qi.Rows; row++ {
			code, gi := verify.Code(column, row), g.of[row]
			if prev := groupOf[code]; prev >= 0 && prev != gi {
				bad("%s = %s lies in two groups", name, column.Value(row))
				return
			} else if prev < 0 {
				groupOf[code] = gi
				values[gi]++
			}
		}
	}
	for _, n := range values {
		if one && n > 1 {
			bad("a group holds %d values of %s", n, name)
			return
		}
	}
}
