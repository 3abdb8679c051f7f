package partitioned

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strconv"

	"privlab/algorithms/partitionplan"
	"privlab/model"
)

// rowsByPart lists t's rows by partition, in t's order.
func rowsByPart(t *model.Table, plan *partitionplan.Plan) ([][]int, error) {
	at, err := plan.AssignTable(t)
	if err != nil {
		return nil, err
	}
	return group(at, plan.Partitions), nil
}

// group lists the indices of at by their value.
func group(at []int, parts int) [][]int {
	out := make([][]int, parts)
	for r, part := range at {
		out[part] = append(out[part], r)
	}
	return out
}

// partValues are the run's values with partition i's own seed, when the
// seed is fixed: each partition shuffles and samples with a stream of its
// own, the same on every run.
func partValues(v model.Values, i int) model.Values {
	out := model.Values{}
	for k, x := range v {
		out[k] = x
	}
	if seed, fixed, err := model.ParseSeed(v[model.SeedParam.Name]); err == nil && fixed {
		out[model.SeedParam.Name] = strconv.FormatUint(seed+uint64(i)*0x9e3779b97f4a7c15, 10)
	}
	return out
}

// CanonicalOrder lists rows of t (nil: all) in an order that depends on
// their contents alone: by a 64-bit hash of their texts, then (on a tie)
// by their texts, then by position. A partition's rows are run in this
// order whatever order they reached it in (a Beam shuffle's, the
// input's), so every runner makes the same release, and its audit record
// maps to the partition's rows of the original in this order.
func CanonicalOrder(t *model.Table, rows []int) []int {
	if rows == nil {
		rows = make([]int, t.Rows)
		for i := range rows {
			rows[i] = i
		}
	} else {
		rows = slices.Clone(rows)
	}
	codeHash := make([][]uint64, len(t.Columns))
	for i, c := range t.Columns {
		codeHash[i] = make([]uint64, len(c.Dict))
		for code, v := range c.Dict {
			h := fnv.New64a()
			h.Write([]byte(v))
			codeHash[i][code] = h.Sum64() | 1 // never the missing value's 0
		}
	}
	keys := make([]uint64, t.Rows)
	for _, r := range rows {
		k := uint64(14695981039346656037)
		for i, c := range t.Columns {
			var h uint64
			if code := c.Codes[r]; code != model.Missing {
				h = codeHash[i][code]
			}
			k = (k ^ h) * 1099511628211
			k ^= k >> 29
		}
		keys[r] = k
	}
	slices.SortFunc(rows, func(a, b int) int {
		if c := cmp.Compare(keys[a], keys[b]); c != 0 {
			return c
		}
		if c := slices.Compare(rowTexts(t, a), rowTexts(t, b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return rows
}
