package partitioned

import (
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

// CanonicalOrder lists rows of t (nil: all) ordered by their texts,
// column by column (ties keep their order): a partition's rows are run in
// this order whatever order they reached it in (a Beam shuffle's, the
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
	texts := make([][]string, t.Rows)
	for _, r := range rows {
		texts[r] = rowTexts(t, r)
	}
	slices.SortStableFunc(rows, func(a, b int) int { return slices.Compare(texts[a], texts[b]) })
	return rows
}
