package partitioned

import (
	"strconv"

	"privlab/algorithms/partitionplan"
	"privlab/algorithms/pipeline"
	"privlab/model"
)

// split holds, per partition, the rows of each table a run reads: the
// input as loaded, the public table and the population, all placed by
// the same plan, and what every partition reads of the whole input.
type split struct {
	source, public, population [][]int
	// table lists the prepared table's rows by partition.
	table [][]int
	// partOf is the partition of each input row as loaded.
	partOf []int
	whole  *model.Whole
}

// splitInputs places every row of the input as loaded, its public table
// and its population in the plan's partitions (a person's QIs place
// them, whichever table they are in).
func splitInputs(p *pipeline.Prepared, plan *partitionplan.Plan) (*split, error) {
	s := &split{whole: model.WholeCounts(p.Table)}
	var err error
	if s.partOf, err = plan.AssignTable(p.Source); err != nil {
		return nil, err
	}
	s.source = group(s.partOf, plan.Partitions)
	s.table = make([][]int, plan.Partitions)
	for r := 0; r < p.Table.Rows; r++ {
		part := s.partOf[inputRow(p, r)]
		s.table[part] = append(s.table[part], r)
	}
	if p.Public != nil {
		if s.public, err = rowsByPart(p.Public, plan); err != nil {
			return nil, err
		}
	}
	if p.Population != nil {
		if s.population, err = rowsByPart(p.Population, plan); err != nil {
			return nil, err
		}
	}
	return s, nil
}

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

// part is partition i as a prepared run of its own: its rows of the
// input as loaded and those the preparation kept of them, its rows of
// the public table and of the population, the whole input's counts, and
// a seed of its own drawn from the run's (a fixed seed stays
// reproducible).
func (s *split) part(p *pipeline.Prepared, i int) *pipeline.Prepared {
	sub := *p
	src := s.source[i]
	sub.Source = p.Source.SelectRows(src)
	local := make(map[int]int, len(src))
	for j, r := range src {
		local[r] = j
	}
	rows := s.table[i]
	sub.InputRow = make([]int, len(rows))
	for j, r := range rows {
		sub.InputRow[j] = local[inputRow(p, r)]
	}
	sub.Table = p.Table.SelectRows(rows)
	sub.Dropped = sub.Source.Rows - sub.Table.Rows
	if s.public != nil {
		sub.Public = p.Public.SelectRows(s.public[i])
	}
	if s.population != nil {
		sub.Population = p.Population.SelectRows(s.population[i])
		sub.WholePopulation = p.Population
	}
	sub.Whole = s.whole
	sub.Values = partValues(p.Values, i)
	return &sub
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

// inputRow is the row of the input as loaded that prepared row r is.
func inputRow(p *pipeline.Prepared, r int) int {
	if p.InputRow == nil {
		return r
	}
	return p.InputRow[r]
}
