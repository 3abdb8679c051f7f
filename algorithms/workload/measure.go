package workload

import (
	"sync"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/query"
)

// measureChunk is the number of queries Measure draws, answers and lets
// go at a time.
const measureChunk = 8

// Measure is Evaluate(t, a, qs) of the workload qs = Generate(t, roles,
// opt), without the per-query rows (Result.Rows is nil), drawn and
// answered a few queries at a time: the whole workload is never held at
// once (on an attribute of many values its IN lists alone are large, and
// that much live memory made every later allocation of a run take
// fresh pages). fits is false when Generate fails (the shape does not
// fit the table); otherwise the result and the error are Evaluate's: the
// first query whose truth fails, anywhere in the workload, else the
// first release answer that fails. The true answers are counted on the
// tuples of every column the shape may read (countTuples's, for the
// columns of the queries drawn so far: the same counts). The IN lists of
// the queries let go are written again for the next ones (their memory
// of literals is not taken fresh each time): a is not to keep a query, or anything read from its lists,
// past its Answer.
func Measure(t *model.Table, roles model.Roles, a method.Answerer, opt Options) (res Result, fits bool, err error) {
	g, err := newGenerator(t, roles, opt)
	if err != nil {
		return Result{}, false, nil
	}
	return measure(t, g, a)
}

// measure is Measure of the generator's queries.
func measure(t *model.Table, g *generator, a method.Answerer) (res Result, fits bool, err error) {
	counting := 0
	if g.counts {
		counting = g.n
	}
	var once sync.Once
	var tu *tuples
	counts := func() *tuples {
		once.Do(func() { tu = tuplesOf(t, g.reads, counting) })
		return tu
	}
	ev := evaluation{}
	var truthErr, answerErr error
	for start := 0; start < g.n; start += measureChunk {
		qs := make([]*query.Query, 0, min(measureChunk, g.n-start))
		for len(qs) < cap(qs) {
			q, err := g.next()
			if err != nil {
				return Result{}, false, nil // Generate's error comes first
			}
			qs = append(qs, q)
		}
		if truthErr != nil {
			continue // only whether every query can be drawn is left to know
		}
		tr := startTruthsOn(t, qs, counts)
		for i, q := range qs {
			if err := tr.wait(i); err != nil {
				truthErr = err
				break
			}
			if answerErr == nil {
				answerErr = ev.add(q, tr.out[i], a)
			}
		}
		tr.stop()
		if g.recycle != nil {
			g.recycle()
		}
	}
	switch {
	case truthErr != nil:
		return Result{}, true, truthErr
	case answerErr != nil:
		return ev.res, true, answerErr
	}
	return ev.result(), true, nil
}
