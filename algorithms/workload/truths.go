package workload

import (
	"runtime"
	"sync"
	"sync/atomic"

	"privlab/model"
	"privlab/model/query"
)

// Truths answers every query on the table (the true answers), so that
// several releases of one table are measured against one computation.
// The queries are answered on every core, and COUNT(*) queries on the
// table's distinct combinations of the columns they read, each weighted
// by its rows (a row matches exactly when its combination does, so the
// counts are the rows'; SUM, AVG, MIN and MAX add the rows' values in
// row order, as Query.Truth does). The answers and the first error (in
// query order) are Query.Truth's.
func Truths(t *model.Table, qs []*query.Query) ([]query.Answer, error) {
	tr := startTruths(t, qs)
	for i := range qs {
		if err := tr.wait(i); err != nil {
			tr.stop()
			return nil, err
		}
	}
	return tr.out, nil
}

// truths computes a workload's true answers in the background, each
// query's awaited with wait.
type truths struct {
	out     []query.Answer
	errs    []error
	done    []chan struct{}
	next    atomic.Int64
	stopped atomic.Bool
	wg      sync.WaitGroup
}

func startTruths(t *model.Table, qs []*query.Query) *truths {
	return startTruthsOn(t, qs, func() *tuples { return countTuples(t, qs) })
}

// startTruthsOn is startTruths counting COUNT(*) queries on the tuples
// counts returns (nil: on the rows), asked for once by the first worker.
func startTruthsOn(t *model.Table, qs []*query.Query, counts func() *tuples) *truths {
	tr := &truths{out: make([]query.Answer, len(qs)), errs: make([]error, len(qs)), done: make([]chan struct{}, len(qs))}
	for i := range tr.done {
		tr.done[i] = make(chan struct{})
	}
	var tu *tuples
	var once sync.Once
	workers := min(runtime.GOMAXPROCS(0), len(qs))
	tr.wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer tr.wg.Done()
			// Every worker waits for the tuples (built once, by the
			// first to ask), so that no count is read off the rows
			// while they are being built.
			once.Do(func() { tu = counts() })
			for {
				i := int(tr.next.Add(1) - 1)
				if i >= len(qs) {
					return
				}
				if !tr.stopped.Load() {
					tr.out[i], tr.errs[i] = truth(t, tu, qs[i])
				}
				close(tr.done[i])
			}
		}()
	}
	return tr
}

// wait returns query i's error once its answer is in out[i].
func (tr *truths) wait(i int) error {
	<-tr.done[i]
	return tr.errs[i]
}

// stop skips the answers not yet started and waits for the workers.
func (tr *truths) stop() {
	tr.stopped.Store(true)
	tr.wg.Wait()
}

// firstErr waits for every answer and returns the first error in query
// order (nil when none).
func (tr *truths) firstErr() error {
	for i := range tr.done {
		if err := tr.wait(i); err != nil {
			return err
		}
	}
	return nil
}

// truth answers one query: a COUNT(*) on the weighted tuples when there
// are some and the query binds to them, otherwise on the rows.
func truth(t *model.Table, tu *tuples, q *query.Query) (query.Answer, error) {
	if tu == nil || q.Agg != query.Count || q.Column != "" {
		return q.Truth(t)
	}
	m, err := q.Bind(tu.table)
	if err != nil {
		return q.Truth(t) // the rows' error, word for word
	}
	n := 0
	m.Each(tu.table.Rows, func(r int) { n += tu.weight[r] })
	return query.Answer{Value: float64(n), Count: n, Empty: n == 0}, nil
}

// tuples are a table's distinct combinations of some columns' codes
// (missing ones included), as a table whose columns share the original's
// dictionaries, with the rows each stands for.
type tuples struct {
	table  *model.Table
	weight []int
}

// countTuples builds the tuples of the columns the COUNT(*) queries
// read; nil when fewer than minCountQueries queries are COUNT(*), when
// the columns' codes do not fit one 64-bit key, or when the tuples are
// not at most half the rows (then the rows are as quick).
func countTuples(t *model.Table, qs []*query.Query) *tuples {
	var names []string
	counting := 0
	for _, q := range qs {
		if q.Agg != query.Count || q.Column != "" {
			continue
		}
		counting++
		names = append(names, q.Columns()...)
	}
	return tuplesOf(t, names, counting)
}

// tuplesOf builds the tuples of the named columns (those of the table,
// each once) for counting COUNT(*) queries; nil as countTuples says.
// The tuples of more columns than a query reads count it as well: a row
// matches exactly when its tuple does, whatever else the tuple holds.
func tuplesOf(t *model.Table, names []string, counting int) *tuples {
	var cols []*model.Column
	seen := map[string]bool{}
	for _, name := range names {
		if c := t.Column(name); c != nil && !seen[name] {
			seen[name] = true
			cols = append(cols, c)
		}
	}
	if counting < minCountQueries || len(cols) == 0 {
		return nil
	}
	radix := make([]uint64, len(cols))
	span := uint64(1)
	for i, c := range cols {
		radix[i] = span
		n := uint64(len(c.Dict)) + 1 // + Missing
		if span > (1<<63)/n {
			return nil
		}
		span *= n
	}
	return buildTuples(t.Rows, cols, radix)
}

// minCountQueries is the number of COUNT(*) queries from which their
// tuples are built (a pass over the rows costs about one query per
// column).
const minCountQueries = 8

func buildTuples(rows int, cols []*model.Column, radix []uint64) *tuples {
	index := make(map[uint64]int32)
	var keys []uint64
	var weight []int
	for r := 0; r < rows; r++ {
		var k uint64
		for i, c := range cols {
			k += uint64(c.Codes[r]+1) * radix[i] // Missing + 1 == 0
		}
		j, ok := index[k]
		if !ok {
			if len(keys) >= rows/2 {
				return nil
			}
			j = int32(len(keys))
			index[k] = j
			keys = append(keys, k)
			weight = append(weight, 0)
		}
		weight[j]++
	}
	tab := &model.Table{Rows: len(keys)}
	for i, c := range cols {
		n := uint64(len(c.Dict)) + 1
		codes := make([]uint32, len(keys))
		for j, k := range keys {
			codes[j] = uint32(k/radix[i]%n) - 1
		}
		tab.Columns = append(tab.Columns, &model.Column{Name: c.Name, Kind: c.Kind, Dict: c.Dict, Nums: c.Nums, Codes: codes})
	}
	return &tuples{table: tab, weight: weight}
}
