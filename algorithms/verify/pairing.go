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
	agree, p := pairing(a.Columns[colA], a.Rows, b.Columns[colB], b.Rows, m)
	ga := a.Columns[colA]
	mean, variance := float64(m)*p, float64(m)*p*(1-p)
	limit := math.Log(1 / pairingFalseAlarm)
	t := limit/3 + math.Sqrt(limit*limit/9+2*limit*variance)
	if float64(agree) <= mean+t {
		return
	}
	r.Add(false, "row pairing", "%s", fmt.Sprintf("row i of %s has the %s of row i of %s at %d of %d positions; independent shuffles give %.1f, standard deviation %.1f, and more than %.1f pairs the tables by position",
		fileB, ga.Name, fileA, agree, m, mean, math.Sqrt(variance), mean+t))
}

// pairing counts the first m positions where the two columns hold the
// same text (a missing value reads as the empty text) and the chance p
// that independent shuffles agree at a position.
func pairing(ga *model.Column, rowsA int, gb *model.Column, rowsB int, m int) (agree int, p float64) {
	// The groups by text, on codes: each column's codes are numbered in
	// one space of the two columns' texts (a missing value is the empty
	// text, as Value reads it), so rows are counted and compared without
	// a lookup per row.
	ids := map[string]int32{}
	idsOf := func(c *model.Column) []int32 {
		out := make([]int32, len(c.Dict)+1) // the last for a missing value
		for code, text := range append(c.Dict[:len(c.Dict):len(c.Dict)], "") {
			id, ok := ids[text]
			if !ok {
				id = int32(len(ids))
				ids[text] = id
			}
			out[code] = id
		}
		return out
	}
	idA, idB := idsOf(ga), idsOf(gb)
	groupOf := func(c *model.Column, id []int32, r int) int32 {
		code := c.Codes[r]
		if code == model.Missing {
			return id[len(id)-1]
		}
		return id[code]
	}
	countA, countB := make([]int, len(ids)), make([]int, len(ids))
	for i := range rowsA {
		countA[groupOf(ga, idA, i)]++
	}
	for i := range rowsB {
		countB[groupOf(gb, idB, i)]++
	}
	for g, n := range countA {
		p += float64(n) / float64(rowsA) * float64(countB[g]) / float64(rowsB)
	}
	for i := range m {
		if groupOf(ga, idA, i) == groupOf(gb, idB, i) {
			agree++
		}
	}
	return agree, p
}
