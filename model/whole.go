package model

// Whole is what one partition of a partitioned run (SPEC 3.9) reads of
// the whole input: per column, how many rows hold each value (missing
// values not counted), and the rows. Partitions' counts add up, so a
// distributed runner combines them by summing (Add).
type Whole struct {
	Rows   int                       `json:"rows"`
	Counts map[string]map[string]int `json:"counts"`
}

// WholeCounts counts every column's values in t.
func WholeCounts(t *Table) *Whole {
	w := &Whole{Counts: map[string]map[string]int{}}
	w.Add(t)
	return w
}

// Add counts t's rows and values into w (t has w's columns, or more).
func (w *Whole) Add(t *Table) {
	w.Rows += t.Rows
	for _, c := range t.Columns {
		m := w.Counts[c.Name]
		if m == nil {
			m = map[string]int{}
			w.Counts[c.Name] = m
		}
		for code, n := range c.Counts() {
			if n > 0 {
				m[c.Dict[code]] += n
			}
		}
	}
}

// Frequency is the share of the rows holding each value of column name
// among those holding one (nil: no such column).
func (w *Whole) Frequency(name string) map[string]float64 {
	counts, ok := w.Counts[name]
	if !ok {
		return nil
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	out := make(map[string]float64, len(counts))
	for v, n := range counts {
		out[v] = float64(n) / float64(total)
	}
	return out
}
