package attack

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"privlab/algorithms/risk"
)

// TestTogetherAgainstBruteForce compares the attacks on two and three
// random tiny releases of one original with a brute force that covers
// every person by every region of every release: the sensitive values
// every release allows (the product of the posteriors over the prior to
// the n-1), the people alone in a choice of one region per release, and
// the largest presence over the releases. A region without records
// counts for none of them.
func TestTogetherAgainstBruteForce(t *testing.T) {
	for _, kind := range []string{"exact", "intervals", "sets"} {
		rng := rand.New(rand.NewPCG(11, uint64(len(kind))))
		for trial := 0; trial < 300; trial++ {
			ws := []*world{randomWorld(rng, kind), randomWorld(rng, kind)}
			if trial%3 == 0 {
				ws = append(ws, randomWorld(rng, kind))
			}
			for _, w := range ws[1:] {
				w.pop, w.orig = ws[0].pop, ws[0].orig
			}
			if trial%4 == 1 { // a region without records (suppressed): no one is placed in it
				ws[1].v.Regions[0].Records = 0
			}
			checkTogether(t, fmt.Sprintf("%s/%d", kind, trial), ws)
		}
	}
}

func checkTogether(t *testing.T, name string, ws []*world) {
	k := &risk.Knowledge{Original: ws[0].orig, Population: ws[0].pop, PopulationName: "test"}
	rels := make([]Opened, len(ws))
	alone := make([]*Report, len(ws))
	for i, w := range ws {
		rels[i] = Opened{Name: fmt.Sprintf("r%d", i), View: w.v, Exposure: w.e}
		rep, err := RunView(nil, w.v, w.e, nil, k)
		if err != nil {
			t.Fatal(err)
		}
		alone[i] = rep
	}
	got, err := Together(rels, alone, k)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Attack != "re-identification by linkage, releases together" ||
		got[1].Attack != "attribute inference, releases together" || got[2].Attack != "membership, releases together" {
		t.Fatalf("%s: findings %v", name, got)
	}
	link, inf, mem := got[0], got[1], got[2]
	measured, singled := bruteLinkage(ws)
	if link.Measured != measured || link.Records != singled || link.Bound != 0.5 {
		t.Fatalf("%s: linkage together measured %v singled out %d bound %v, brute force %v %d 0.5", name, link.Measured, link.Records, link.Bound, measured, singled)
	}
	b := bruteInference(ws)
	if inf.Records != b.certain || inf.Trials != b.scored || inf.Successes != float64(b.right) || inf.Baseline != b.baseline ||
		math.Abs(inf.Measured-b.top) > 1e-12 || inf.Bound != 0.6 {
		t.Fatalf("%s: inference together %d inferred, %v of %d right, baseline %v, measured %v, bound %v; brute force %+v", name,
			inf.Records, inf.Successes, inf.Trials, inf.Baseline, inf.Measured, inf.Bound, b)
	}
	if want := fmt.Sprintf("; %s whose most likely s is right with a belief >= 0.9 together, the releases read as independent", people(b.inferred)); !strings.HasSuffix(inf.Detail, want) {
		t.Fatalf("%s: inference together says %q, brute force %s", name, inf.Detail, want)
	}
	presence := make([]float64, ws[0].pop.Rows)
	for _, w := range ws {
		// Each release's presence is membership's alone (held to the
		// enumeration of assignments by TestAttacksAgainstBruteForce);
		// together takes the largest.
		pl, err := place(w.pop, "population", w.v, w.e)
		if err != nil {
			t.Fatal(err)
		}
		m, _, _ := pl.presence(w.v, w.e)
		for row, tu := range pl.tupleOf {
			presence[row] = math.Max(presence[row], m.presence[tu])
		}
	}
	top, certain := 0.0, 0
	for _, x := range presence {
		top = math.Max(top, x)
		if x >= 1 {
			certain++
		}
	}
	if mem.Measured != top || mem.Records != certain || mem.Bound != 0.5 {
		t.Fatalf("%s: membership together measured %v certain %d bound %v, brute force %v %d 0.5", name, mem.Measured, mem.Records, mem.Bound, top, certain)
	}
}

// bruteLinkage: every choice of one covering region with records per
// release, for every person; the people alone in one.
func bruteLinkage(ws []*world) (float64, int) {
	pop := ws[0].pop
	lists := make([][][]int32, pop.Rows) // per person, per release
	m := map[string]int{}
	for row := 0; row < pop.Rows; row++ {
		lists[row] = make([][]int32, len(ws))
		for i, w := range ws {
			for r, reg := range w.v.Regions {
				if reg.Records > 0 && w.covers(pop, row, r) {
					lists[row][i] = append(lists[row][i], int32(r))
				}
			}
		}
		for _, key := range choices(lists[row]) {
			m[key]++
		}
	}
	measured, singled := 0.0, 0
	for _, n := range m {
		measured = math.Max(measured, 1/float64(n))
	}
	for row := 0; row < pop.Rows; row++ {
		for _, key := range choices(lists[row]) {
			if m[key] == 1 {
				singled++
				break
			}
		}
	}
	return measured, singled
}

// choices are the keys of every choice of one entry per list.
func choices(lists [][]int32) []string {
	keys := []string{""}
	for _, l := range lists {
		var next []string
		for _, k := range keys {
			for _, r := range l {
				next = append(next, k+string(binary.LittleEndian.AppendUint32(nil, uint32(r))))
			}
		}
		keys = next
	}
	return keys
}

type bruteInferred struct {
	scored, right, inferred, certain int
	baseline, top                    float64
}

// bruteInference: per person of the original, the prior times, for each
// release whose covering regions hold records, its posterior over the
// prior; the values of the original's column in its order.
func bruteInference(ws []*world) bruteInferred {
	orig := ws[0].orig
	sa := orig.Columns[2]
	prior := make([]float64, len(sa.Dict))
	for _, c := range sa.Codes {
		prior[c]++
	}
	var b bruteInferred
	for _, n := range prior {
		b.baseline = math.Max(b.baseline, n/float64(orig.Rows))
	}
	for row := 0; row < orig.Rows; row++ {
		// prior x each release's posterior / prior: the first release's
		// posterior times the others' over the prior (the same floats).
		post := make([]float64, len(sa.Dict))
		for s := range post {
			post[s] = prior[s] / float64(orig.Rows)
		}
		first := true
		for _, w := range ws {
			mix, n := make([]float64, 3), 0.0
			for r, reg := range w.v.Regions {
				if reg.Records > 0 && w.covers(orig, row, r) {
					for s, x := range w.v.Beliefs[reg.Belief].Dense(3) {
						mix[s] += x * float64(reg.Records)
					}
					n += float64(reg.Records)
				}
			}
			if n == 0 {
				continue
			}
			for s, x := range sa.Dict {
				j := map[string]int{"x": 0, "y": 1, "z": 2}[x]
				if first {
					post[s] = mix[j] / n
				} else {
					post[s] *= mix[j] / n / (prior[s] / float64(orig.Rows))
				}
			}
			first = false
		}
		sum, possible, best := 0.0, 0, 0
		for s, x := range post {
			sum += x
			if x > 0 {
				possible++
			}
			if x > post[best] {
				best = s
			}
		}
		b.scored++
		if sum == 0 { // the releases allow no value of the original: no guess
			continue
		}
		b.top = math.Max(b.top, post[best]/sum)
		if best != int(sa.Codes[row]) {
			continue
		}
		b.right++
		if possible == 1 {
			b.certain++
		}
		if post[best]/sum >= Certain-1e-12 {
			b.inferred++
		}
	}
	return b
}
