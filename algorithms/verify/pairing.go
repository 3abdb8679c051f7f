package verify

import (
	"fmt"
	"math"

	"privlab/model"
)

// pairingFalseAlarm is the chance of failing a genuine release the
// pairing test allows.
const pairingFalseAlarm = 1e-9

// RowPairing adds the line that row order does not pair two tables a
// release shuffles independently (SPEC 7.3: row position must never link
// two published tables), read from the files alone: a and b are the
// columns colA of table a (fileA) and colB of b (fileB) give the group
// (or class) of every row. Under independent
// shuffles row i of each file is a uniformly random row of it, so the
// groups agree at position i with probability p = sum over the groups g
// of (a's rows of g / a's rows) times (b's rows of g / b's rows); the
// agreements number m p on average (m positions), variance about
// m p (1 - p), and by Bernstein's inequality exceed it by t with
// probability at most exp(-t^2/(2(var + t/3))). More than the mean plus
// the t that makes this 1e-9 fails: a file written in the other's row
// order (the sensitive value of the person at row i of one at row i of
// the other) cannot pass, since it agrees at every position. The line is
// added only when it fails: a genuine release's check reads as before.
func RowPairing(fileA string, a *model.Table, colA int, fileB string, b *model.Table, colB int, r *Report) {
	m := min(a.Rows, b.Rows)
	if m < 10 || colA >= len(a.Columns) || colB >= len(b.Columns) {
		return
	}
	ga, gb := a.Columns[colA], b.Columns[colB]
	countA, countB := map[string]int{}, map[string]int{}
	for i := range a.Rows {
		countA[ga.Value(i)]++
	}
	for i := range b.Rows {
		countB[gb.Value(i)]++
	}
	p := 0.0
	for g, n := range countA {
		p += float64(n) / float64(a.Rows) * float64(countB[g]) / float64(b.Rows)
	}
	agree := 0
	for i := range m {
		if ga.Value(i) == gb.Value(i) {
			agree++
		}
	}
	mean, variance := float64(m)*p, float64(m)*p*(1-p)
	limit := math.Log(1 / pairingFalseAlarm)
	t := limit/3 + math.Sqrt(limit*limit/9+2*limit*variance)
	if float64(agree) <= mean+t {
		return
	}
	r.Add(false, "row pairing", "%s", fmt.Sprintf("row i of %s has the %s of row i of %s at %d of %d positions; independent shuffles give %.1f, standard deviation %.1f, and more than %.1f pairs the tables by position",
		fileB, ga.Name, fileA, agree, m, mean, math.Sqrt(variance), mean+t))
}
