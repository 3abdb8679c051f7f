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

// TestGroupBags: every group's sensitive values in value order (pos),
// each once with its frequencies summed, as a map per group sums them;
// values repeated within a group, groups of one value and of more than
// twelve (sorted another way) alike.
func TestGroupBags(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := 0; trial < 200; trial++ {
		nIDs, nVals, rows := 1+rng.IntN(6), 1+rng.IntN(30), rng.IntN(90)
		ids := &model.Column{Dict: make([]string, nIDs)}
		sa := &model.Column{Dict: make([]string, nVals)}
		fr := &model.Column{Dict: []string{"1", "2", "7"}}
		for v := range sa.Dict {
			sa.Dict[v] = "v" + strconv.Itoa(v)
		}
		for r := 0; r < rows; r++ {
			ids.Codes = append(ids.Codes, uint32(rng.IntN(nIDs)))
			sa.Codes = append(sa.Codes, uint32(rng.IntN(nVals)))
			fr.Codes = append(fr.Codes, uint32(rng.IntN(3)))
		}
		st := &model.Table{Rows: rows, Columns: []*model.Column{ids, sa, fr}}
		of, groups, _ := stGroups(st, 0)
		pos := map[string]int{}
		for i, v := range rng.Perm(nVals) {
			pos[sa.Dict[v]] = i
		}
		b, err := groupBags("st.csv", st, of, groups, pos)
		if err != nil {
			t.Fatal(err)
		}
		for g := 0; g < groups; g++ {
			sum := map[int32]int{}
			for r := 0; r < rows; r++ {
				if of[verify.Code(ids, r)] == int32(g) {
					f, _ := strconv.Atoi(fr.Dict[fr.Codes[r]])
					sum[int32(pos[sa.Dict[sa.Codes[r]]])] += f
				}
			}
			var wantV []int32
			var wantC []int
			for v := range sum {
				wantV = append(wantV, v)
			}
			slices.Sort(wantV)
			for _, v := range wantV {
				wantC = append(wantC, sum[v])
			}
			gotV, gotC := b.values[b.start[g]:b.start[g+1]], b.counts[b.start[g]:b.start[g+1]]
			if fmt.Sprint(gotV, gotC) != fmt.Sprint(wantV, wantC) {
				t.Fatalf("trial %d, group %d: %v %v, want %v %v", trial, g, gotV, gotC, wantV, wantC)
			}
		}
		if int(b.start[groups]) != len(b.values) || len(b.values) != len(b.counts) {
			t.Fatalf("trial %d: %d values, %d counts, start ends at %d", trial, len(b.values), len(b.counts), b.start[groups])
		}
	}
}
