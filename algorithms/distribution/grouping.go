package distribution

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/distribution/format"
	"privlab/algorithms/method"
	"privlab/algorithms/partition"
	"privlab/model"
	"privlab/model/hierarchy"
)

// Grouping says how rows are split into groups before each group's
// sensitive values are generalized. Koudas et al. 2009 decouple grouping
// from privacy (Section 1): any grouping is private once every group
// follows its target.
type Grouping struct {
	Kind   string // sa-only, qi-sa, column, level, mondrian
	Column string // column / level
	Level  int    // level: levels above the leaves
	Size   int    // mondrian: minimum group size
}

func (g Grouping) String() string {
	switch g.Kind {
	case "column":
		return "column:" + g.Column
	case "level":
		return fmt.Sprintf("level:%s=%d", g.Column, g.Level)
	case "mondrian":
		return fmt.Sprintf("mondrian:%d", g.Size)
	}
	return g.Kind
}

// ParseGrouping reads --grouping: sa-only | qi-sa | column:NAME |
// level:ATTR=L | mondrian:SIZE.
func ParseGrouping(s string) (Grouping, error) {
	s = strings.TrimSpace(s)
	kind, arg, _ := strings.Cut(s, ":")
	bad := func(reason string) (Grouping, error) {
		return Grouping{}, &model.ParamError{Param: format.ParamGrouping.Name(), Value: s, Reason: reason,
			Hint: "use sa-only, qi-sa, column:NAME, level:ATTR=L or mondrian:SIZE"}
	}
	switch kind {
	case "sa-only", "qi-sa":
		if arg != "" {
			return bad(kind + " takes no argument")
		}
		return Grouping{Kind: kind}, nil
	case "column":
		if arg == "" {
			return bad("column: needs a column name")
		}
		return Grouping{Kind: kind, Column: arg}, nil
	case "level":
		attr, l, ok := strings.Cut(arg, "=")
		n, err := strconv.Atoi(l)
		if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange {
			return bad("the level is too large")
		}
		if !ok || attr == "" || err != nil || n < 0 {
			return bad("level needs ATTR=L with L >= 0 levels above the values")
		}
		return Grouping{Kind: kind, Column: attr, Level: n}, nil
	case "mondrian":
		n, err := strconv.Atoi(arg)
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return bad("the group size is too large")
		}
		if err != nil || n < 1 {
			return bad("mondrian needs a minimum group size >= 1")
		}
		return Grouping{Kind: kind, Size: n}, nil
	}
	return bad("unknown grouping")
}

// checkGrouping validates the grouping's text (for the parameter spec).
func checkGrouping(s string) error {
	_, err := ParseGrouping(s)
	return err
}

// Groups splits the input's rows. Groups are ordered by value (the
// grouping key's rank, or left to right for Mondrian), never by input
// order.
func (g Grouping) Groups(ctx context.Context, in *method.Input) ([][]int32, error) {
	t := in.Table
	all := make([]int32, t.Rows)
	for i := range all {
		all[i] = int32(i)
	}
	switch g.Kind {
	case "sa-only":
		return [][]int32{all}, nil
	case "column", "level":
		return g.byColumn(in, all)
	case "qi-sa":
		return sameQIGroups(in, all), nil
	case "mondrian":
		var dims []partition.Dim
		for _, name := range in.Roles.QIs {
			dims = append(dims, partition.ColumnDim(t.Column(name), in.Hierarchies[name]))
		}
		return partition.Mondrian(ctx, all, dims, g.Size)
	}
	return nil, fmt.Errorf("unknown grouping %q", g.Kind)
}

// byColumn groups the rows sharing one value of a quasi-identifier (or,
// for a level grouping, one generalized value of it), numbered in the
// order of the values.
func (g Grouping) byColumn(in *method.Input, all []int32) ([][]int32, error) {
	t := in.Table
	c := t.Column(g.Column)
	if c == nil {
		return nil, &model.ParamError{Param: format.ParamGrouping.Name(), Value: g.String(), Reason: fmt.Sprintf("no column %q", g.Column),
			Hint: "columns are: " + strings.Join(t.Names(), ", ")}
	}
	// Groups are numbered in the order of this column's values, and a
	// group is the set of rows sharing one: grouping by a column that
	// is not published as a quasi-identifier would publish it.
	if role := in.Roles.Of(g.Column); role != model.QuasiIdentifier {
		return nil, &model.ParamError{Param: format.ParamGrouping.Name(), Value: g.String(),
			Reason: fmt.Sprintf("%s is the %s, not a quasi-identifier: the groups (and their ids) would publish it", g.Column, role),
			Hint:   "group by a quasi-identifier: " + strings.Join(in.Roles.QIs, ", ")}
	}
	h := in.Hierarchies[g.Column]
	if g.Kind == "level" {
		key, err := g.levelKeys(c, h)
		if err != nil {
			return nil, err
		}
		return partition.ByKey(all, func(r int32) uint64 { return keyOrMissing(c, key, r) }), nil
	}
	rank, _ := partition.CodeRanks(c, h)
	key := make([]uint64, len(c.Dict))
	for code, r := range rank {
		key[code] = uint64(r)
	}
	return partition.ByKey(all, func(r int32) uint64 { return keyOrMissing(c, key, r) }), nil
}

// levelKeys gives each code of column c the key of its ancestor at the
// grouping's level of hierarchy h (built automatically when nil): the
// ancestor's first leaf position (value order) and depth.
func (g Grouping) levelKeys(c *model.Column, h *hierarchy.Hierarchy) ([]uint64, error) {
	if h == nil {
		var err error
		if h, err = hierarchy.Build("auto", c); err != nil {
			return nil, err
		}
	}
	leafOf, err := h.MapColumn(c)
	if err != nil {
		return nil, &model.ParamError{Param: format.ParamGrouping.Name(), Value: g.String(), Reason: err.Error()}
	}
	if height := h.Height(); g.Level > height {
		return nil, &model.ParamError{Param: format.ParamGrouping.Name(), Value: g.String(),
			Reason: fmt.Sprintf("level %d is above the root of %s's hierarchy, which has %d levels above the values", g.Level, g.Column, height),
			Hint:   fmt.Sprintf("use a level from 0 to %d (or sa-only for one group)", height)}
	}
	key := make([]uint64, len(c.Dict))
	for code, l := range leafOf {
		anc := h.Ancestor(l, g.Level)
		key[code] = uint64(h.Nodes[anc].First)<<20 | uint64(h.Nodes[anc].Depth)
	}
	return key, nil
}

// sameQIGroups is Koudas et al. 2009, Section 4.2: sub-groups of
// identical QI values, keyed by a mixed-radix key over the QI ranks, or
// by a tuple when the product of the radices overflows 64 bits.
func sameQIGroups(in *method.Input, all []int32) [][]int32 {
	var qs []rankedCol
	for _, name := range in.Roles.QIs {
		c := in.Table.Column(name)
		rank, value := partition.CodeRanks(c, in.Hierarchies[name])
		qs = append(qs, rankedCol{c, rank, uint64(len(value)) + 1})
	}
	fits := true
	var prod uint64 = 1
	for _, q := range qs {
		if prod > (1<<63)/q.n {
			fits = false
			break
		}
		prod *= q.n
	}
	if !fits {
		return groupByTuple(all, qs)
	}
	return partition.ByKey(all, func(r int32) uint64 {
		var k uint64
		for _, q := range qs {
			code := q.c.Codes[r]
			x := uint64(0)
			if code != model.Missing {
				x = uint64(q.rank[code]) + 1
			}
			k = k*q.n + x
		}
		return k
	})
}

func keyOrMissing(c *model.Column, key []uint64, r int32) uint64 {
	code := c.Codes[r]
	if code == model.Missing {
		return ^uint64(0)
	}
	return key[code]
}

type rankedCol struct {
	c    *model.Column
	rank []int32
	n    uint64 // number of ranks + 1 (0 is missing)
}

// groupByTuple groups rows by the tuple of ranks, ordered by tuple.
func groupByTuple(rows []int32, cols []rankedCol) [][]int32 {
	type entry struct {
		key  string
		rows []int32
	}
	idx := map[string]int{}
	var groups []entry
	buf := make([]byte, 0, 4*len(cols))
	for _, r := range rows {
		buf = buf[:0]
		for _, rc := range cols {
			x := uint32(0)
			if code := rc.c.Codes[r]; code != model.Missing {
				x = uint32(rc.rank[code]) + 1
			}
			buf = append(buf, byte(x>>24), byte(x>>16), byte(x>>8), byte(x))
		}
		g, ok := idx[string(buf)]
		if !ok {
			g = len(groups)
			idx[string(buf)] = g
			groups = append(groups, entry{key: string(buf)})
		}
		groups[g].rows = append(groups[g].rows, r)
	}
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return groups[order[a]].key < groups[order[b]].key })
	out := make([][]int32, len(groups))
	for i, o := range order {
		out[i] = groups[o].rows
	}
	return out
}
