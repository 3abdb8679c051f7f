package partitioned

import (
	"fmt"
	"math"
	"strconv"

	"privlab/algorithms/partitionplan"
	"privlab/algorithms/risk"
	"privlab/model/releasedir"
)

// combine is the one manifest of a partitioned release: the settings
// every partition shares, the counts summed, each constraint at its
// worst over the partitions, the attacks combined (Attacks), and the
// plan with every partition's manifest digest.
func combine(plan *partitionplan.Plan, parts []*releasedir.Manifest) (*releasedir.Manifest, error) {
	first := parts[0]
	m := &releasedir.Manifest{Tool: first.Tool, Version: first.Version, Method: first.Method, Variant: first.Variant, Title: first.Title,
		Paper: first.Paper, Certifies: first.Certifies, Parameters: map[string]string{}, QIs: first.QIs, SA: first.SA,
		Dropped: first.Dropped, MissingValues: first.MissingValues, Workload: first.Workload, Files: []releasedir.FileEntry{}, Verified: true}
	for k, v := range first.Parameters {
		if k != "seed" {
			m.Parameters[k] = v
		}
	}
	raw, err := encodePlan(plan)
	if err != nil {
		return nil, err
	}
	m.Partitioned = &releasedir.Partitioning{Plan: raw}
	for i, pm := range parts {
		sum, err := releasedir.ManifestDigest(pm)
		if err != nil {
			return nil, err
		}
		m.Partitioned.Parts = append(m.Partitioned.Parts, releasedir.Part{Dir: PartDir(i), RowsIn: pm.RowsIn, Published: pm.Published, Groups: pm.Groups, ManifestSHA256: sum})
		m.RowsIn += pm.RowsIn
		m.Published += pm.Published
		m.Suppressed += pm.Suppressed
		m.Groups += pm.Groups
		m.Verified = m.Verified && pm.Verified
		m.AcceptedBad = m.AcceptedBad || pm.AcceptedBad
	}
	m.WorstCases = WorstCases(parts)
	m.Attacks = Attacks(attacksOf(parts))
	m.Notes = append(m.Notes, fmt.Sprintf("partitioned run (SPEC 3.9): %d partitions cut on a sample of %d of %d rows; each part-NNNNN is a release of its own, checked and attacked on its own; the whole input's value counts were read by every partition",
		plan.Partitions, plan.SampleRows, plan.TableRows))
	return m, nil
}

func attacksOf(parts []*releasedir.Manifest) [][]releasedir.AttackFigure {
	out := make([][]releasedir.AttackFigure, len(parts))
	for i, pm := range parts {
		out[i] = pm.Attacks
	}
	return out
}

// WorstCases combines the partitions' constraint figures: a figure held
// against a limit at its worst over the partitions (the largest when
// every partition's is at most its limit, the smallest when at least),
// and not OK when one partition's is not. Figures without a limit are
// the partitions' own (each manifest states them).
func WorstCases(parts []*releasedir.Manifest) []releasedir.Figure {
	var out []releasedir.Figure
	index := map[string]int{}
	for _, pm := range parts {
		for _, f := range pm.WorstCases {
			if f.Limit == "" {
				continue
			}
			i, ok := index[f.Name]
			if !ok {
				index[f.Name] = len(out)
				out = append(out, f)
				continue
			}
			out[i] = worse(out[i], f)
		}
	}
	return out
}

// worse is the worse of two figures held against the same limit.
func worse(a, b releasedir.Figure) releasedir.Figure {
	if a.OK != b.OK {
		if !a.OK {
			return a
		}
		return b
	}
	limit, err := strconv.ParseFloat(a.Limit, 64)
	if err != nil || math.IsNaN(a.Value) {
		return b
	}
	atMost := a.Value <= limit && b.Value <= limit
	if atMost == (b.Value > a.Value) {
		return b
	}
	return a
}

// Attacks combines the partitions' attacks, by name: the successes and
// trials summed (each partition attacked against the people the plan
// places in it), the baseline and control weighted by trials, the
// measured figure and its bound the worst partition's (a partition's worst
// case is the union's), the records summed; broken when a partition's
// is, not bounded when one is not bounded, else holds.
func Attacks(parts [][]releasedir.AttackFigure) []releasedir.AttackFigure {
	var out []releasedir.AttackFigure
	acc := map[string]*combined{}
	for _, attacks := range parts {
		for _, a := range attacks {
			c, ok := acc[a.Attack]
			if !ok {
				c = &combined{first: a}
				acc[a.Attack] = c
				out = append(out, a)
			}
			c.add(a)
		}
	}
	for i := range out {
		out[i] = acc[out[i].Attack].figure()
	}
	return out
}

type combined struct {
	first                    releasedir.AttackFigure
	notRun                   string
	measured                 float64
	ran                      bool
	records, trials          int
	successes, base, control float64
	noControl, noBase        bool
	bound                    *float64
	// broken and unbounded: some partition broke its bound, or had none.
	broken, unbounded bool
}

func (c *combined) add(a releasedir.AttackFigure) {
	if a.NotRun != "" || a.Measured == nil {
		c.notRun = a.NotRun
		return
	}
	// The figure and its bound are the worst partition's, as a pair: a
	// bound may be the partition's own (sampling's expected confidence),
	// so the verdict is the partitions', not the largest figure against
	// the smallest bound.
	if !c.ran || *a.Measured > c.measured {
		c.measured, c.bound = *a.Measured, a.Bound
	}
	c.ran = true
	c.records += a.Records
	switch {
	case a.Holds == nil:
		c.unbounded = true
	case !*a.Holds:
		c.broken = true
	}
	if a.Rate == nil || a.Trials == 0 {
		return
	}
	t := float64(a.Trials)
	c.trials += a.Trials
	c.successes += *a.Rate * t
	if a.Baseline == nil {
		c.noBase = true
	} else {
		c.base += *a.Baseline * t
	}
	if a.Control == nil {
		c.noControl = true
	} else {
		c.control += *a.Control * t
	}
}

// figure is the combined attack, as a manifest states it.
func (c *combined) figure() releasedir.AttackFigure {
	f := c.first
	f.Rate, f.Baseline, f.Control, f.Risk, f.Interval, f.Trials = nil, nil, nil, nil, nil, 0
	if !c.ran {
		f.NotRun = c.notRun
		return f
	}
	f.NotRun = ""
	f.Measured, f.Records, f.Bound = ptr(c.measured), c.records, c.bound
	f.Detail = fmt.Sprintf("combined over the partitions: the largest figure of any partition, %d records in all", c.records)
	switch {
	case c.broken:
		f.Holds = ptrBool(false)
	case c.unbounded:
		f.Holds = nil
	default:
		f.Holds = ptrBool(true)
	}
	if c.trials == 0 {
		return f
	}
	cal := risk.Calibration{Successes: c.successes, Trials: c.trials, Baseline: math.NaN(), Control: math.NaN()}
	n := float64(c.trials)
	if !c.noBase {
		cal.Baseline = c.base / n
		f.Baseline = ptr(cal.Baseline)
	}
	if !c.noControl {
		cal.Control = c.control / n
		f.Control = ptr(cal.Control)
	}
	iv := cal.Interval()
	f.Trials, f.Rate, f.Risk, f.Interval = c.trials, ptr(cal.Rate()), ptr(cal.Risk()), []float64{iv[0], iv[1]}
	return f
}

func ptr(x float64) *float64 { return &x }

func ptrBool(b bool) *bool { return &b }
