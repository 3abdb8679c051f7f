package partitioned

import (
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
