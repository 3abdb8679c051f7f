package attack

import (
	"fmt"
	"math"

	"privlab/algorithms/risk"
	"privlab/model"
)

// combined is what the releases together tell of one tuple's sensitive
// value: the most likely value (a code of the original's column; -1:
// none is possible), its posterior, and how many values are possible.
type combined struct {
	guess    int32
	top      float64
	possible int32
}

// inferenceTogether scores, on the original's people, the attacker who
// combines what every release tells of a person's sensitive value
// (Together's model). It counts the people for whom the only value
// every release allows is theirs (sound whatever ties the releases: a
// value one release rules out is ruled out), and, beside them, those
// whose combined most likely value is theirs with a posterior >=
// Certain (which reads the releases as independent given the original).
func inferenceTogether(rels []Opened, alone []*Report, orig []*placed, k *risk.Knowledge) risk.Finding {
	v0 := rels[0].View
	attacker := "knows a person of the original is in every release and their quasi-identifiers, and keeps the " + v0.SA + " values every release allows them"
	if orig == nil || k.Original.Column(v0.SA) == nil {
		return notRun(together(Inference), attacker, "needs the original table (its "+v0.SA+" column: the truth and the prior)", "original")
	}
	sa := k.Original.Column(v0.SA)
	f := risk.Finding{Attack: together(Inference), Attacker: attacker, Needs: []string{"original"},
		Figure: "largest combined belief in one sensitive value"}
	f.Bound, f.BoundBy = tightestBound(rels, alone, Inference)
	prior, mode := saPrior(sa)
	res := combineTuples(rels, orig, prior, mode)
	scored, right, certain, inferred, example := 0, 0, 0, 0, -1
	for row, t := range orig[0].tupleOf {
		c := sa.Codes[row]
		if c == model.Missing {
			continue
		}
		scored++
		r := res[t]
		f.Measured = math.Max(f.Measured, r.top)
		if r.guess != int32(c) {
			continue
		}
		right++
		if r.top >= Certain-1e-12 {
			inferred++
		}
		if r.possible == 1 {
			certain++
			if example < 0 {
				example = row
			}
		}
	}
	f.Records = certain
	f.Calibration = risk.Calibration{Successes: float64(right), Trials: scored, Baseline: math.NaN(), Control: math.NaN()}
	if scored > 0 {
		f.Baseline = float64(prior[mode]) / float64(scored)
	}
	if certain > 0 {
		f.Short = fmt.Sprintf("%s's %s certain", people(certain), v0.SA)
		f.Brief = fmt.Sprintf("%d %s certain together", certain, v0.SA)
		f.Example = personLabel(orig[0], example) + fmt.Sprintf(": every release allows them one %s, and it is theirs", v0.SA)
	}
	f.Detail = fmt.Sprintf("%s of %d whose %s is the only value every release allows (each release alone: %s inferred with a belief >= %s); %s whose most likely %s is right with a belief >= %s together, the releases read as independent",
		people(certain), scored, v0.SA, aloneRecords(alone, Inference), trim(Certain), people(inferred), v0.SA, trim(Certain))
	return f
}

// saPrior counts each value of the original's sensitive column (rows
// with it missing left out) and returns the first most frequent.
func saPrior(sa *model.Column) ([]int, int) {
	prior := make([]int, len(sa.Dict))
	for _, c := range sa.Codes {
		if c != model.Missing && int(c) < len(prior) {
			prior[c]++
		}
	}
	mode := 0
	for s, n := range prior {
		if n > prior[mode] {
			mode = s
		}
	}
	return prior, mode
}

// combineTuples combines, for every tuple of the original, the
// releases' posteriors (Together's model), sparse: the values a
// release's candidate regions give no probability drop out at once.
func combineTuples(rels []Opened, orig []*placed, prior []int, mode int) []combined {
	total := 0
	possible := int32(0)
	for _, n := range prior {
		total += n
		if n > 0 {
			possible++
		}
	}
	toOrig := make([][]int32, len(rels)) // per release: each view value's code in the original's column
	sa := orig[0].table.Column(rels[0].View.SA)
	for i, r := range rels {
		index := valueIndex(r.View.SAValues)
		toOrig[i] = make([]int32, len(r.View.SAValues))
		for s := range toOrig[i] {
			toOrig[i][s] = -1
		}
		for c, x := range sa.Dict {
			if s, ok := index(x); ok {
				toOrig[i][s] = int32(c)
			}
		}
	}
	out := make([]combined, len(orig[0].count))
	regs := make([][]briefRegion, len(rels))
	for i, r := range rels {
		regs[i] = briefRegions(r.View)
	}
	c := &combiner{acc: make([]float64, len(prior)), mix: make([]float64, len(prior)), prior: prior, total: float64(total)}
	for t := range out {
		out[t] = c.tuple(t, rels, orig, regs, toOrig)
		if out[t].guess == -2 { // no release tells anything: the prior's mode
			out[t] = combined{guess: int32(mode), top: float64(prior[mode]) / math.Max(1, float64(total)), possible: possible}
		}
	}
	return out
}

// combiner holds the scratch of combineTuples: acc the combined
// posterior of the values alive, mix one release's posterior of the
// values touched.
type combiner struct {
	acc, mix       []float64
	alive, touched []int32
	prior          []int
	total          float64
}

// tuple combines the releases' posteriors of tuple t (guess -2: no
// release places it in a region with records).
func (c *combiner) tuple(t int, rels []Opened, orig []*placed, regs [][]briefRegion, toOrig [][]int32) combined {
	first := true
	for i := range rels {
		w := c.release(orig[i].candidates(t), rels[i].View, regs[i], toOrig[i])
		if w == 0 {
			c.clearMix()
			continue
		}
		if first {
			first = false
			for _, s := range c.touched {
				if c.prior[s] > 0 {
					c.acc[s] = c.mix[s] / w
					c.alive = append(c.alive, s)
				}
			}
		} else {
			kept := c.alive[:0]
			for _, s := range c.alive {
				if c.mix[s] > 0 {
					c.acc[s] *= c.mix[s] / w / (float64(c.prior[s]) / c.total)
					kept = append(kept, s)
				} else {
					c.acc[s] = 0
				}
			}
			c.alive = kept
		}
		c.clearMix()
	}
	if first {
		return combined{guess: -2}
	}
	res := combined{guess: -1, possible: int32(len(c.alive))}
	sum := 0.0
	for _, s := range c.alive {
		sum += c.acc[s]
	}
	for _, s := range c.alive {
		if p := c.acc[s] / sum; p > res.top || p == res.top && s < res.guess {
			res.top, res.guess = p, s
		}
		c.acc[s] = 0
	}
	c.alive = c.alive[:0]
	return res
}

// release adds into mix one release's posterior of the person, unnormalized
// (the records-weighted sum of their candidate regions' beliefs), and
// returns its weight (0: the release tells nothing of them).
func (c *combiner) release(cands []int32, v *risk.View, regs []briefRegion, toOrig []int32) float64 {
	w := 0.0
	for _, r := range cands {
		reg := regs[r]
		if reg.belief < 0 || reg.records == 0 {
			continue
		}
		bl := v.Beliefs[reg.belief]
		for k, sv := range bl.Values {
			s := toOrig[sv]
			if s < 0 || bl.P[k] <= 0 {
				continue
			}
			if c.mix[s] == 0 {
				c.touched = append(c.touched, s)
			}
			c.mix[s] += bl.P[k] * reg.records
		}
		w += reg.records
	}
	return w
}

func (c *combiner) clearMix() {
	for _, s := range c.touched {
		c.mix[s] = 0
	}
	c.touched = c.touched[:0]
}
