package pipeline

import (
	"fmt"
	"sort"

	"privlab/model"
)

// Profile is one column of Inspect.
type Profile struct {
	Name     string
	Kind     model.Kind
	Distinct int
	Missing  int
	Min, Max float64
	Top      []string // most frequent values with counts
}

// Inspect profiles every column: the data pane, headless.
func Inspect(t *model.Table) []Profile {
	var out []Profile
	for _, c := range t.Columns {
		p := Profile{Name: c.Name, Kind: c.Kind, Distinct: c.Distinct(), Missing: c.MissingCount}
		if lo, hi, ok := c.Range(); ok {
			p.Min, p.Max = lo, hi
		}
		counts := c.Counts()
		idx := make([]int, len(counts))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool {
			if counts[idx[a]] != counts[idx[b]] {
				return counts[idx[a]] > counts[idx[b]]
			}
			return c.Dict[idx[a]] < c.Dict[idx[b]]
		})
		for i := 0; i < len(idx) && i < 3; i++ {
			p.Top = append(p.Top, fmt.Sprintf("%s (%d)", c.Dict[idx[i]], counts[idx[i]]))
		}
		out = append(out, p)
	}
	return out
}
