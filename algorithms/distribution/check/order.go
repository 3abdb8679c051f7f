package check

import (
	"privlab/algorithms/distribution/format"
	"privlab/algorithms/verify"
)

// saOrder: sa.csv's rows are not in the input's order. The audit record
// pins qi.csv's rows only, so each sa.csv row gets a key read from its
// content alone: the mean input row of its group's members whose
// original value lies in its subdomain. A file in the input's order
// gives whoever knows that order each person's subdomain, which
// Koudas et al. 2009, Section 2, permute within the group "to break the
// association between a tuple and a particular sensitive attribute
// value" (Definition 3.2's posterior then is not the target); its keys
// follow its order far beyond a shuffle (verify.OrderByKeys; SPEC 7.3).
func saOrder(c *release, r *verify.Report) error {
	f, err := c.originalOf()
	if err != nil || !f.pinned() || f.bad {
		return nil
	}
	g := c.groupsOf()
	col := f.o.SA
	leaf := c.h.leafAt(col, f.o.Texts(col))
	type sums struct {
		rows  float64
		count int
	}
	// byLeaf[group][leaf position]: the members' input rows.
	byLeaf := make([]map[int]*sums, len(g.sizes))
	for i, in := range f.pin.Rows {
		l, gi := leaf[verify.Code(col, in)], g.of[i]
		if l < 0 || gi < 0 {
			continue
		}
		if byLeaf[gi] == nil {
			byLeaf[gi] = map[int]*sums{}
		}
		s := byLeaf[gi][l]
		if s == nil {
			s = &sums{}
			byLeaf[gi][l] = s
		}
		s.rows += float64(in)
		s.count++
	}
	groupOf := codeLookup(c.sa.Columns[0], g.index)
	lo, hi := c.sa.Columns[1], c.sa.Columns[2]
	keys := make([]float64, c.sa.Rows)
	for row := range keys {
		gi := groupOf[verify.Code(c.sa.Columns[0], row)]
		node, ok := c.h.byBounds[[2]string{lo.Value(row), hi.Value(row)}]
		if gi < 0 || !ok {
			continue
		}
		var total sums
		for l, s := range byLeaf[gi] {
			if c.h.first[node] <= l && l <= c.h.last[node] {
				total.rows += s.rows
				total.count += s.count
			}
		}
		if total.count > 0 {
			keys[row] = total.rows / float64(total.count)
		}
	}
	verify.OrderByKeys(format.FileSA, keys, r)
	return nil
}
