package kja

import (
	"fmt"
	"privlab/algorithms/kja/format"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/figure"
	"privlab/algorithms/method"
	"privlab/algorithms/release"
	"privlab/model"
	"privlab/model/releasedir"
)

// release builds jat.csv and si.csv (Sacharidis et al., Sections 3.1-3.2):
// jat.csv holds one row per JT tuple kept, microdata and public tuples
// alike, with its box and sensitive group; si.csv one row per microdata
// tuple with its sensitive group and sensitive value. No artificial tuple
// is ever added (Section 3.1: they would open presence attacks). Both files
// are shuffled with the seed, so row positions link neither to the other
// nor to the input. The audit row map pins every jat.csv row to its tuple:
// an MT row, or -1-j for row j of the public table.
func (r *run) release(seed uint64) (*releasedir.Release, map[string][]int, error) {
	rng := model.NewRand(seed)
	header := format.JATHeader(r.in.Roles.QIs)
	if dup := duplicate(header); dup != "" {
		return nil, nil, &model.ParamError{Param: "qi", Value: dup, Reason: "jat.csv would have two columns named " + dup,
			Hint: "rename the quasi-identifier"}
	}
	sgs := release.NumbersFrom(r.in.IDBase, r.sgs)
	jat, jatMap := r.jatFile(rng, header, sgs)
	si, siMap := r.siFile(rng, sgs)
	man, err := r.releaseManifest(jat.Rows)
	if err != nil {
		return nil, nil, err
	}
	rel := &releasedir.Release{Files: []releasedir.ReleaseFile{jat, si}, Manifest: man}
	return rel, map[string][]int{format.FileJAT: jatMap, format.FileSI: siMap}, nil
}

// jatFile is jat.csv: one row per JT tuple kept with its box's id,
// sensitive group and ranges (Sacharidis et al., Section 3.1), shuffled.
// It returns the audit row map too: an MT row, or -1-j for row j of the
// public table.
func (r *run) jatFile(rng *model.Rand, header, sgs []string) (releasedir.ReleaseFile, []int) {
	t := r.t
	// A box's jat.csv record (its id, sensitive group and ranges), once
	// per box.
	texts := make([][]string, len(r.boxes))
	ids := release.NumbersFrom(r.in.IDBase, len(r.boxes))
	var jrows []int32 // per jat row: box
	var jtuple []int32
	for i, b := range r.boxes {
		texts[i] = make([]string, 2+2*t.d)
		texts[i][0], texts[i][1] = ids[i], sgs[b.sg]
		for a := range t.axes {
			texts[i][2+2*a], texts[i][3+2*a] = t.axes[a].text(b.b.lo[a]), t.axes[a].text(b.b.hi[a])
		}
		for _, tu := range b.tuples {
			jrows = append(jrows, int32(i))
			jtuple = append(jtuple, tu)
		}
	}
	perm := release.Shuffled(len(jrows), rng)
	jatMap := make([]int, len(perm))
	for i, p := range perm {
		tu := jtuple[p]
		if t.isMT(tu) {
			jatMap[i] = int(tu)
		} else {
			jatMap[i] = -1 - int(t.pd[int(tu)-t.mt])
		}
	}
	// A box's rows are one record: rendered once, copied per row.
	records := make([][]byte, len(texts))
	for i, rec := range texts {
		records[i] = releasedir.AppendCSVRecord(nil, rec)
	}
	return releasedir.ReleaseFile{Name: format.FileJAT, Header: header, Rows: len(perm), Fill: func(i int, rec []string) {
		copy(rec, texts[jrows[perm[i]]])
	}, Record: func(i int) []byte { return records[jrows[perm[i]]] }}, jatMap
}

// siFile is si.csv: the SA values of every sensitive group, one row per
// microdata tuple (Sacharidis et al., Section 3.2), shuffled, with the
// audit row map (the MT row of each).
func (r *run) siFile(rng *model.Rand, sgs []string) (releasedir.ReleaseFile, []int) {
	type siRow struct{ sg, row int32 }
	var srows []siRow
	for _, b := range r.boxes {
		for _, tu := range b.tuples[:b.mt] {
			srows = append(srows, siRow{int32(b.sg), tu})
		}
	}
	rng.Shuffle(len(srows), func(i, j int) { srows[i], srows[j] = srows[j], srows[i] })
	sa := r.in.Table.Column(r.in.Roles.SA)
	siMap := make([]int, len(srows))
	for i, s := range srows {
		siMap[i] = int(s.row)
	}
	return releasedir.ReleaseFile{Name: format.FileSI, Header: format.SIHeader(r.in.Roles.SA), Rows: len(srows), Fill: func(i int, rec []string) {
		rec[0] = sgs[srows[i].sg]
		rec[1] = sa.Value(int(srows[i].row))
	}}, siMap
}

// releaseManifest is the release's manifest, for a jat.csv of jtRows
// rows: its utility figures, details (methodology, sizes, QI domains)
// and notes.
func (r *run) releaseManifest(jtRows int) (releasedir.Manifest, error) {
	t := r.t
	res := r.res
	sa := r.in.Table.Column(r.in.Roles.SA)
	man := release.Manifest(res, r.in)
	man.Variant = r.cfg.variant
	man.Published = t.mt
	m := r.metrics()
	man.Utility = []releasedir.Figure{
		figure.NCP.Figure(m.GCP),
		figure.NCPSum.Figure(m.NCP),
		{Name: "DM", Value: m.DM, OK: true},
	}
	det := format.Details{Algorithm: r.cfg.algorithm, Methodology: r.cfg.method, Join: append([]string{}, t.joinCols...),
		SAKind: sa.Kind.String(), Boxes: len(r.boxes), SensitiveGroups: r.sgs, JTRows: jtRows, PublicRows: jtRows - t.mt,
		SmallestBox: summary(res, "smallest box (JT tuples)"), SmallestGroup: summary(res, "smallest sensitive group (MT tuples)"),
		Grouping: format.Groupings[r.cfg.method], QIPaired: t.qiPaired}
	det.NCPDomain = format.DomainMT
	if r.in.Public != nil {
		det.NCPDomain = format.DomainJT
	}
	for _, ax := range t.axes {
		e := format.DomainEntry{QI: ax.name, Kind: format.Numeric, Low: ax.lo, High: ax.hi}
		if !ax.numeric {
			e.Kind, e.Values = format.Categorical, ax.values
		}
		det.Domain = append(det.Domain, e)
	}
	details, err := det.Encode()
	if err != nil {
		return releasedir.Manifest{}, err
	}
	man.Details = details
	man.Notes = r.releaseNotes()
	return man, nil
}

// releaseNotes tells a reader how to read jat.csv and si.csv under the
// run's methodology (Sacharidis et al., Sections 3.1-3.2).
func (r *run) releaseNotes() []string {
	notes := []string{
		"jat.csv holds one row per JT tuple kept, microdata and public-database tuples alike and indistinguishable (Sacharidis et al., Definition 5), with its G-box (<qi>_min, <qi>_max) and sensitive group SG; si.csv holds the sensitive values of each SG, one row per microdata tuple (Section 3.2). Join them on SG.",
		"A categorical QI's range runs from <qi>_min to <qi>_max in the order details.domain lists its values (hierarchy order); numeric ranges are closed intervals.",
		"No artificial tuple is published (Section 3.1): every row of jat.csv is a real microdata or public-database individual.",
	}
	if r.cfg.method == plainKA {
		// Without a public database the boxes hold microdata tuples only.
		notes[0] = "jat.csv holds one row per microdata tuple with its box (<qi>_min, <qi>_max) and sensitive group SG; si.csv holds the sensitive values of each SG, one row per tuple. Join them on SG."
		notes[2] = "No artificial tuple is published: every row of jat.csv is a real microdata individual."
	}
	switch r.cfg.method {
	case directKA:
		notes = append(notes, "Direct: the sensitive groups merge neighbouring boxes until each holds at least k microdata tuples (details.sensitive_grouping merged-boxes: Mondrian over the boxes, each box whole, cut at the median of the boxes' centres along the widest axis while both sides keep k microdata tuples), so a group's sensitive values are as hidden as in a k-anonymous table (Section 3.2); si.csv gives each group's values, not each box's.")
	case refineKA:
		notes = append(notes, "Refinement: a sensitive group is a k-anonymous group of the first round (Section 3.2); each of its boxes holds at least one of its microdata tuples, which carry the group's sensitive values exactly as in the k-anonymous table.")
	default:
		notes = append(notes, "Plain k-anonymity: every row of jat.csv is a microdata tuple and every box its own sensitive group.")
	}
	if r.cfg.method != plainKA {
		notes = append(notes, r.peopleNote())
	}
	return notes
}

// peopleNote says how JT counts people (Section 3.1, issue 18.2).
func (r *run) peopleNote() string {
	t := r.t
	if len(t.joinCols) > 0 {
		return fmt.Sprintf("JT joins MT and PD on %s: a public row with a microdata row's identifier is that person (Section 3.1); "+
			"%d public rows without an identifier equal a microdata tuple on every QI and count as that person (details.qi_paired). Every JT tuple is a distinct person.",
			strings.Join(t.joinCols, ","), t.qiPaired)
	}
	return fmt.Sprintf("No identifier joins MT and PD, so a public row equal to a microdata tuple on every QI may be that person: %d such rows count as the microdata person, "+
		"never as another JT tuple (details.qi_paired; at each QI point at most as many as it has microdata tuples). Every JT tuple is then a distinct person whoever the public table holds, "+
		"provided a person in both tables has the same QI values in each (only an identifier column joins one whose values differ).", t.qiPaired)
}

// summary is a count the run's summary states.
func summary(res *method.Result, name string) int {
	for _, f := range res.Summary {
		if f.Name == name {
			return int(f.Value)
		}
	}
	return 0
}

func duplicate(names []string) string {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return n
		}
		seen[n] = true
	}
	return ""
}

// detail shows a box: as published, its private composition (microdata
// and public tuples: never exported) and its sensitive group's values.
func (r *run) detail(i, limit int) method.Detail {
	b := r.boxes[i]
	t := r.t
	pub := method.Section{Title: "published box", Header: []string{"QI", "min", "max"}}
	for a, ax := range t.axes {
		pub.Rows = append(pub.Rows, []string{ax.name, ax.text(b.b.lo[a]), ax.text(b.b.hi[a])})
	}
	notes := method.Section{Notes: []string{
		fmt.Sprintf("%d JT tuples: breach probability 1/%d = %.4f (Theorem 2)", len(b.tuples), len(b.tuples), 1/float64(len(b.tuples))),
		fmt.Sprintf("private: %d microdata and %d public tuples (never exported)", b.mt, len(b.tuples)-b.mt),
		fmt.Sprintf("sensitive group %d: %d microdata tuples share its values", b.sg+1, r.sgMT[b.sg]),
	}}
	members := method.Section{Title: "members (private)", Header: append([]string{"from"}, append(append([]string(nil), r.in.Roles.QIs...), r.in.Roles.SA)...),
		Total: len(b.tuples)}
	sa := r.in.Table.Column(r.in.Roles.SA)
	for j, tu := range b.tuples {
		if j >= limit {
			break
		}
		row := []string{"MT"}
		if !t.isMT(tu) {
			row[0] = "PD"
		}
		for a := range t.axes {
			row = append(row, t.axes[a].text(t.coord(tu, a)))
		}
		if t.isMT(tu) {
			row = append(row, sa.Value(int(tu)))
		} else {
			row = append(row, "—")
		}
		members.Rows = append(members.Rows, row)
	}
	counts := map[string]float64{}
	for _, o := range r.boxes {
		if o.sg == b.sg {
			for _, tu := range o.tuples[:o.mt] {
				counts[sa.Value(int(tu))]++
			}
		}
	}
	chart := method.Section{Title: fmt.Sprintf("sensitive group %d (si.csv)", b.sg+1)}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	series := method.Series{Name: "values"}
	for _, k := range keys {
		chart.Labels = append(chart.Labels, k)
		series.Values = append(series.Values, counts[k])
	}
	chart.Series = []method.Series{series}
	return method.Detail{Title: fmt.Sprintf("Box %d", i+1), Sections: []method.Section{notes, pub, members, chart}}
}

// charts draws the boxes: how many JT tuples they hold, how many of them
// are microdata (private), and the share of NCP each QI carries.
func (r *run) charts() []method.Section {
	sizes := make([]int, len(r.boxes))
	mts := make([]int, len(r.boxes))
	for i, b := range r.boxes {
		sizes[i], mts[i] = len(b.tuples), b.mt
	}
	per := make([]float64, r.t.d)
	for _, b := range r.boxes {
		for a := range per {
			per[a] += float64(b.mt) * (b.b.hi[a] - b.b.lo[a]) * r.t.sc[a]
		}
	}
	for a := range per {
		per[a] /= float64(max(1, r.t.mt))
	}
	loss := method.Section{Title: "NCP per QI: mean normalised extent of a microdata tuple's box",
		Labels: r.in.Roles.QIs, Series: []method.Series{{Name: "extent", Values: per, Largest: true}}}
	return []method.Section{
		histogram("boxes by JT tuples |g| (k = "+format.ParamK.Text(r.values)+")", sizes),
		histogram("boxes by microdata tuples (private)", mts),
		loss,
	}
}

// histogram counts values into at most 8 ranges.
func histogram(title string, xs []int) method.Section {
	s := method.Section{Title: title}
	if len(xs) == 0 {
		return s
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	width := (hi-lo)/8 + 1
	n := (hi-lo)/width + 1
	counts := make([]float64, n)
	for _, x := range xs {
		counts[(x-lo)/width]++
	}
	for i := 0; i < n; i++ {
		a, b := lo+i*width, lo+(i+1)*width-1
		if a == b {
			s.Labels = append(s.Labels, strconv.Itoa(a))
		} else {
			s.Labels = append(s.Labels, strconv.Itoa(a)+"-"+strconv.Itoa(b))
		}
	}
	s.Series = []method.Series{{Name: "boxes", Values: counts}}
	return s
}
