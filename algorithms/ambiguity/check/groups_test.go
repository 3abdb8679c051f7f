package check

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"privlab/algorithms/verify"
	"privlab/model"
)

// TestPlainID: plainID reads exactly the texts strconv.Itoa prints.
func TestPlainID(t *testing.T) {
	for _, s := range []string{"0", "1", "7", "10", "123456789", "999999999999999999", "1000000000000000000",
		"9223372036854775807", "9223372036854775808", "", "01", "00", "+1", "-1", " 1", "1 ", "1.0", "1e3", "x"} {
		n, ok := plainID(s)
		m, err := strconv.Atoi(s)
		want := err == nil && m >= 0 && strconv.Itoa(m) == s
		if ok != want || ok && n != m {
			t.Errorf("plainID(%q) = %d, %v; want %d, %v", s, n, ok, m, want)
		}
	}
}

// TestGroupKeys: a group is found by its exact text, through the array
// for plain whole numbers within it and the map for any other text.
func TestGroupKeys(t *testing.T) {
	k := newGroupKeys(3, 0) // room for plain ids below 2*3+16
	texts := []string{"1", "2", "01", "x", "", "1000"}
	for g, s := range texts {
		k.add(s, int32(g))
	}
	for g, s := range texts {
		if got, ok := k.find(s); !ok || got != int32(g) {
			t.Errorf("find(%q) = %d, %v; want %d", s, got, ok, g)
		}
	}
	for _, s := range []string{"3", "001", "1 ", "0", "999"} {
		if got, ok := k.find(s); ok {
			t.Errorf("find(%q) = %d; want none", s, got)
		}
	}
}

// TestRepeated: the rows whose (group, code) an earlier row has, counted
// as a map of pairs counts them, rows of no group left out, the missing
// value the last code.
func TestRepeated(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		groups, codes, rows := 1+rng.IntN(5), 1+rng.IntN(6), rng.IntN(40)
		group, code := make([]int32, rows), make([]uint32, rows)
		seen, want := map[string]bool{}, 0
		for r := range group {
			group[r], code[r] = int32(rng.IntN(groups+1)-1), uint32(rng.IntN(codes))
			if rng.IntN(6) == 0 {
				code[r] = model.Missing // the last code, codes-1
			}
			if group[r] < 0 {
				continue
			}
			key := fmt.Sprint(group[r], min(code[r], uint32(codes-1)))
			if seen[key] {
				want++
			}
			seen[key] = true
		}
		tb := &table{}
		tb.start, tb.rows, tb.codes = byGroup(rows, groups, func(r int) int32 { return group[r] }, code)
		if got := repeated(tb, codes); got != want {
			t.Fatalf("trial %d: %d repeated, want %d (groups %v, codes %v)", trial, got, want, group, code)
		}
	}
}

// TestByGroup: byGroup lists every group's rows in row order, as a
// filter of the rows group by group does, rows of no group left out,
// and what it carries of each row at the row's place.
func TestByGroup(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		groups, n := 1+rng.IntN(6), rng.IntN(50)
		group := make([]int32, n)
		for r := range group {
			group[r] = int32(rng.IntN(groups+1) - 1)
		}
		carry := make([]uint32, n)
		for r := range carry {
			carry[r] = rng.Uint32()
		}
		start, rows, carried := byGroup(n, groups, func(r int) int32 { return group[r] }, carry)
		if _, _, none := byGroup(n, groups, func(r int) int32 { return group[r] }, nil); none != nil {
			t.Fatalf("trial %d: carried %v without carry", trial, none)
		}
		for g := 0; g < groups; g++ {
			var want []int32
			var wantCarried []uint32
			for r, x := range group {
				if x == int32(g) {
					want, wantCarried = append(want, int32(r)), append(wantCarried, carry[r])
				}
			}
			if got := rows[start[g]:start[g+1]]; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("trial %d, group %d: rows %v, want %v (groups %v)", trial, g, got, want, group)
			}
			if got := carried[start[g]:start[g+1]]; fmt.Sprint(got) != fmt.Sprint(wantCarried) {
				t.Fatalf("trial %d, group %d: carried %v, want %v", trial, g, got, wantCarried)
			}
		}
		if int(start[groups]) != len(rows) {
			t.Fatalf("trial %d: %d rows listed, start ends at %d", trial, len(rows), start[groups])
		}
	}
}

// TestEachFound: the entries eachFound finds for random lists of codes
// are, in order, those a plain enumeration of the combinations finds
// with find, whether the index is a dense table or a map, with or
// without the bitset of the keys held.
func TestEachFound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 300; trial++ {
		k := 1 + rng.IntN(4)
		radix := make([]int, k)
		space := 1
		for i := range radix {
			radix[i] = 1 + rng.IntN(5)
			space *= radix[i]
		}
		var keys [][]uint32
		for n := rng.IntN(space + 1); len(keys) < n; {
			c := make([]uint32, k)
			for i := range c {
				c[i] = uint32(rng.IntN(radix[i]))
			}
			keys = append(keys, c) // a key listed twice: its last entry
		}
		vals := make([][]uint32, k)
		for i := range vals {
			for n := rng.IntN(4); n > 0; n-- {
				vals[i] = append(vals[i], uint32(rng.IntN(radix[i]))) // repeats too
			}
		}
		plain := newKeyIndexBy(radix, keys, 0, 0) // a map, no bitset
		var want []int32
		tuple := make([]uint32, k)
		var walk func(i int)
		walk = func(i int) {
			if i == k {
				if j := plain.find(tuple); j >= 0 {
					want = append(want, j)
				}
				return
			}
			for _, c := range vals[i] {
				tuple[i] = c
				walk(i + 1)
			}
		}
		walk(0)
		for _, lim := range [][2]uint64{{0, 0}, {0, 1 << 10}, {1 << 10, 0}, {1 << 10, 1 << 10}} {
			ix := newKeyIndexBy(radix, keys, lim[0], lim[1])
			var got []int32
			ix.eachFound(vals, 0, 0, func(j int32) { got = append(got, j) })
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("trial %d, limits %v: found %v, want %v (radix %v, keys %v, vals %v)", trial, lim, got, want, radix, keys, vals)
			}
		}
	}
}

// TestNewGroupCells: every group's cells are, sorted and each once, the
// value codes of its rows (missing values and rows of no group left
// out), as a filter of the rows and a sort find them; groups of one,
// two and more than twelve values alike.
func TestNewGroupCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		groups, nIDs, nVals, rows := 1+rng.IntN(5), 1+rng.IntN(7), 1+rng.IntN(20), rng.IntN(80)
		vals := &model.Column{Dict: make([]string, nVals), Codes: make([]uint32, rows)}
		ids := &model.Column{Dict: make([]string, nIDs), Codes: make([]uint32, rows)}
		for r := 0; r < rows; r++ {
			vals.Codes[r], ids.Codes[r] = uint32(rng.IntN(nVals)), uint32(rng.IntN(nIDs))
			if rng.IntN(8) == 0 {
				vals.Codes[r] = model.Missing
			}
			if rng.IntN(8) == 0 {
				ids.Codes[r] = model.Missing
			}
		}
		of := make([]int32, nIDs+1) // the missing GroupID last
		for code := range of {
			of[code] = int32(rng.IntN(groups+1) - 1)
		}
		tab := &model.Table{Rows: rows, Columns: []*model.Column{vals, ids}}
		cells := newGroupCells(groups, tab, of)
		for g := 0; g < groups; g++ {
			var want []uint32
			for r := 0; r < rows; r++ {
				if of[verify.Code(ids, r)] == int32(g) && vals.Codes[r] != model.Missing && !slices.Contains(want, vals.Codes[r]) {
					want = append(want, vals.Codes[r])
				}
			}
			slices.Sort(want)
			if got := cells.of(g); fmt.Sprint(got) != fmt.Sprint(want) || (got == nil) != (cells.start[g] == cells.start[g+1]) {
				t.Fatalf("trial %d, group %d: cells %v, want %v", trial, g, got, want)
			}
		}
	}
}

// TestATGroupsAsTheViewsGroups: when st.csv's GroupIDs are 1..n written
// plainly (plainGroupIDs, else nil), the rows the checks list group by
// group (newATGroups) give every group of the view (numbered by first
// appearance in st.csv) the count and cells its GroupID text finds in
// the auxiliary table (groupsOf, newGroupCells); on random tables with
// GroupIDs st.csv lacks, texts that are not plain ("01") and missing
// values and GroupIDs.
func TestATGroupsAsTheViewsGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	plain := 0
	for trial := 0; trial < 400; trial++ {
		n := 1 + rng.IntN(9)
		stIDs := &model.Column{Dict: make([]string, n)}
		for code, id := range rng.Perm(n) {
			stIDs.Dict[code] = strconv.Itoa(id + 1)
		}
		switch rng.IntN(5) {
		case 0:
			stIDs.Dict[rng.IntN(n)] = "0" + strconv.Itoa(1+rng.IntN(n))
		case 1:
			stIDs.Dict[rng.IntN(n)] = strconv.Itoa(n + 1 + rng.IntN(3))
		}
		for r := 0; r < 3*n; r++ {
			stIDs.Codes = append(stIDs.Codes, uint32(rng.IntN(n)))
			if rng.IntN(20) == 0 {
				stIDs.Codes[r] = model.Missing
			}
		}
		st := &model.Table{Rows: len(stIDs.Codes), Columns: []*model.Column{stIDs}}
		of, groups, keys := stGroups(st, 0)
		byID, ofID := plainGroupIDs(stIDs, of, groups, 0)
		wantPlain := true
		for code, g := range of {
			id, ok := plainID(labelOf(stIDs, code))
			wantPlain = wantPlain && (g < 0 || ok && id >= 1 && id <= groups)
		}
		if (byID != nil) != wantPlain || (ofID != nil) != wantPlain {
			t.Fatalf("trial %d: GroupIDs %q (codes %v): plain ids %v", trial, stIDs.Dict, stIDs.Codes, byID)
		}
		if byID == nil {
			continue
		}
		plain++
		rows, nVals := rng.IntN(60), 1+rng.IntN(12)
		vals := &model.Column{Dict: make([]string, nVals), Codes: make([]uint32, rows)}
		ids := &model.Column{Dict: []string{"0", "01", strconv.Itoa(groups + 1)}, Codes: make([]uint32, rows)}
		for _, id := range rng.Perm(groups + 2) {
			ids.Dict = append(ids.Dict, strconv.Itoa(id+1))
		}
		for r := range rows {
			vals.Codes[r], ids.Codes[r] = uint32(rng.IntN(nVals)), uint32(rng.IntN(len(ids.Dict)))
			if rng.IntN(8) == 0 {
				vals.Codes[r] = model.Missing
			}
			if rng.IntN(10) == 0 {
				ids.Codes[r] = model.Missing
			}
		}
		tab := &model.Table{Rows: rows, Columns: []*model.Column{vals, ids}}
		viewOf := groupsOf(ids, keys)
		ag := newATGroups(tab, groups, 0)
		want, got := newGroupCells(groups, tab, viewOf), groupCellsOf(ag, ofID)
		for g := range groups {
			count := int32(0)
			for r := range rows {
				if viewOf[verify.Code(ids, r)] == int32(g) {
					count++
				}
			}
			id := byID[g]
			if ofID[id] != int32(g) {
				t.Fatalf("trial %d: group %d has GroupID %d, which is group %d's", trial, g, id+1, ofID[id])
			}
			if c := ag.start[id+1] - ag.start[id]; c != count {
				t.Fatalf("trial %d, group %d: %d rows, want %d", trial, g, c, count)
			}
			if a, b := got.of(g), want.of(g); fmt.Sprint(a) != fmt.Sprint(b) || (a == nil) != (b == nil) || cap(a) != cap(b) {
				t.Fatalf("trial %d, group %d: cells %v (cap %d), want %v (cap %d)", trial, g, a, cap(a), b, cap(b))
			}
		}
	}
	if plain < 100 {
		t.Fatalf("%d trials of plain GroupIDs", plain)
	}
}

// TestByCode: byCode lists the rows and what they carry as byGroup does
// when no two codes share a group (missing codes, codes of no group and
// groups of no code among them), and declines when two do.
func TestByCode(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	declined := 0
	for trial := 0; trial < 300; trial++ {
		groups, nCodes, n := 1+rng.IntN(8), 1+rng.IntN(8), rng.IntN(60)
		of := make([]int32, nCodes+1) // the missing code last
		perm := rng.Perm(max(groups, nCodes+1))
		for c := range of {
			of[c] = int32(perm[c])
			if of[c] >= int32(groups) || rng.IntN(5) == 0 {
				of[c] = -1
			}
		}
		if rng.IntN(4) == 0 {
			of[rng.IntN(len(of))] = int32(rng.IntN(groups)) // perhaps a group's second code
		}
		codes, carry := make([]uint32, n), make([]uint32, n)
		for r := range codes {
			codes[r], carry[r] = uint32(rng.IntN(nCodes)), rng.Uint32()
			if rng.IntN(6) == 0 {
				codes[r] = model.Missing
			}
		}
		group := func(r int) int32 { return of[min(codes[r], uint32(nCodes))] }
		start, rows, carried, ok := byCode(codes, of, groups, carry)
		shared := false
		for c := range of {
			for d := range c {
				shared = shared || of[c] >= 0 && of[c] == of[d]
			}
		}
		if ok == shared {
			t.Fatalf("trial %d: ok %v with groups of codes %v", trial, ok, of)
		}
		if !ok {
			declined++
			continue
		}
		wantStart, wantRows, wantCarried := byGroup(n, groups, group, carry)
		if fmt.Sprint(start, rows, carried) != fmt.Sprint(wantStart, wantRows, wantCarried) {
			t.Fatalf("trial %d: %v %v %v, want %v %v %v (of %v, codes %v)", trial, start, rows, carried, wantStart, wantRows, wantCarried, of, codes)
		}
	}
	if declined == 0 || declined > 150 {
		t.Fatalf("declined %d of 300", declined)
	}
}

// TestMemberCodes: the members' codes read in the original's row order
// at their places are those read at the members' rows, group after
// group; a row listed twice (or no row) leaves no places, and the codes
// are read at the rows.
func TestMemberCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 200; trial++ {
		rows, nCodes := 1+rng.IntN(40), 1+rng.IntN(6)
		col := &model.Column{Dict: make([]string, nCodes), Codes: make([]uint32, rows)}
		for r := range col.Codes {
			col.Codes[r] = uint32(rng.IntN(nCodes))
			if rng.IntN(6) == 0 {
				col.Codes[r] = model.Missing
			}
		}
		code := make([]int32, nCodes+1)
		for c := range code {
			code[c] = int32(rng.IntN(nCodes+1) - 1)
		}
		perm := rng.Perm(rows)[:rng.IntN(rows+1)]
		if len(perm) > 1 && rng.IntN(4) == 0 {
			perm[len(perm)-1] = perm[0]
		}
		members := make([][]int, 1+rng.IntN(5))
		for _, row := range perm {
			g := rng.IntN(len(members))
			members[g] = append(members[g], row)
		}
		var want []int32
		distinct := map[int]bool{}
		for _, list := range members {
			for _, row := range list {
				want = append(want, code[verify.Code(col, row)])
				distinct[row] = true
			}
		}
		place := memberPlaces(members, rows)
		if (place != nil) != (len(distinct) == len(perm)) {
			t.Fatalf("trial %d: places %v of members %v", trial, place, members)
		}
		if got := memberCodes(code, col, members, place); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("trial %d: codes %v, want %v (members %v)", trial, got, want, members)
		}
	}
	if memberPlaces([][]int{{0, 3}}, 3) != nil {
		t.Fatal("row 3 of 3 has a place")
	}
}
