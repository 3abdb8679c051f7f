// Package check is the independent checker of k-join-anonymity releases
// (Sacharidis, Mouratidis, Papadias): it reads jat.csv and si.csv and
// re-checks, from the files alone, that every G-box has at least k rows,
// that each box reads the same on all its rows and lies in the stated
// domain, and that every sensitive group holds at least k microdata
// tuples (Section 3.2); with the original table (and the public table) it
// proves the release faithful: every microdata tuple is published once,
// inside its box, every box holds a microdata tuple and is the MBB of its
// members, and si.csv holds exactly the microdata's sensitive values,
// group by group. That a box's rows are k distinct people (Definition 6,
// Theorem 2) needs JT: with both tables the public rows are matched to
// distinct public tuples of JT inside their boxes (recount); without them
// a release with public rows has k unconfirmed (verify.Report.Unproven).
// It imports model and algorithms/verify only, never the method.
package check

import (
	"fmt"
	"math"
	"path/filepath"
	"privlab/algorithms/kja/format"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/verify"
	"privlab/model"
)

// groupings is how each methodology forms its sensitive groups
// (Sacharidis et al., Section 3.2): a box, a first-round k-anonymous
// group of MT, or neighbouring boxes merged (Direct).
var groupings = map[string]string{plainKA: "box", refineKA: "first-round", directKA: "merged-boxes"}

// axis reads one QI of the release.
type axis struct {
	format.DomainEntry
	numeric bool
	pos     map[string]int
	extent  float64
}

// value is a text's position on the axis (false when it is not in the
// domain's vocabulary).
func (a *axis) value(text string) (float64, bool) {
	if a.numeric {
		return model.ParseNumber(text)
	}
	p, ok := a.pos[text]
	return float64(p), ok
}

// box is one G-box of jat.csv.
type box struct {
	id     string
	sg     int
	lo, hi []float64
	text   string // the box's cells, to compare its rows
	rows   int
	line   int // first line in jat.csv
}

const (
	plainKA  = "k-anonymity"
	directKA = "direct"
	refineKA = "refinement"
)

var variants = map[string][2]string{
	"mondrian": {"mondrian", plainKA}, "topdown": {"topdown", plainKA},
	"mondrian-direct": {"mondrian", directKA}, "topdown-direct": {"topdown", directKA},
	"mondrian-refine": {"mondrian", refineKA}, "topdown-refine": {"topdown", refineKA},
}

// release is a kja release as the checks read it.
type release struct {
	rel    *verify.Release
	m      *model.Manifest
	man    string // manifest.json's path
	det    format.Details
	method string
	k      int
	kerr   error
	axes   []*axis
	jat    *model.Table
	si     *model.Table
	boxes  []*box
	boxOf  []int          // per jat.csv row
	sgIDs  map[string]int // sensitive groups by their id
	siN    []int          // si.csv rows per sensitive group
	siVals []map[string]int
	// minSize is the smallest box's rows; kOK says every box has k.
	minSize int
	kOK     bool
	minSG   int
}

// Check verifies a kja release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	c, ok, err := open(rel, r)
	if err != nil || !ok {
		return err
	}
	if err := c.head(r); err != nil {
		return err
	}
	if err := c.readBoxes(r); err != nil {
		return err
	}
	if err := c.groups(r); err != nil {
		return err
	}
	rc := c.recomputed()
	c.claims(r)
	if opt.Original != nil {
		if err := faithful(rel, opt, r, &rc, faith{m: c.m, det: c.det, method: c.method, axes: c.axes, boxes: c.boxes, boxOf: c.boxOf,
			jat: c.jat, si: c.si, sgIDs: c.sgIDs, siVals: c.siVals, k: c.m.Parameters["k"]}); err != nil {
			return err
		}
	}
	c.unproven(r, opt)
	r.Compare(rel, rc, opt)
	return nil
}

// open reads the files, the details and binds the names (false: the
// names fail, nothing more is read).
func open(rel *verify.Release, r *verify.Report) (*release, bool, error) {
	c := &release{rel: rel, m: rel.Manifest, man: filepath.Join(rel.Dir, "manifest.json")}
	var err error
	if c.jat, err = rel.Table("jat.csv"); err != nil {
		return nil, false, err
	}
	if c.si, err = rel.Table("si.csv"); err != nil {
		return nil, false, err
	}
	if c.det, err = format.Read(c.m); err != nil {
		return nil, false, &model.InputError{File: c.man, Msg: err.Error()}
	}
	want := []string{"GroupID", "SG"}
	for _, q := range c.m.QIs {
		want = append(want, q+"_min", q+"_max")
	}
	if !r.BindNames("jat.csv", c.jat, want) || !r.BindNames("si.csv", c.si, []string{"SG", c.m.SA}) || c.m.SA == "" {
		return nil, false, nil
	}
	r.Add(true, "columns", "jat.csv holds GroupID, SG and a range per quasi-identifier; si.csv holds SG and %s only", c.m.SA)
	return c, true, nil
}

// head checks the variant, the parameters and the domain.
func (c *release) head(r *verify.Report) error {
	m, det := c.m, c.det
	vr, known := variants[m.Variant]
	r.Add(known, "variant", "variant %q is one of k-join-anonymity's", m.Variant)
	if known {
		r.ClaimText("details.k_algorithm", det.Algorithm, vr[0])
		r.ClaimText("details.methodology", det.Methodology, vr[1])
		r.ClaimText("details.sensitive_grouping", det.Grouping, groupings[vr[1]])
	}
	c.method = vr[1]
	c.k, c.kerr = strconv.Atoi(strings.TrimSpace(m.Parameters["k"]))
	r.Add(c.kerr == nil && c.k >= 2, "parameter k", "k = %q is an integer >= 2", m.Parameters["k"])
	if s, ok := m.Parameters["split"]; ok && s != "widest" && s != "round-robin" {
		r.Add(false, "parameter split", "split = %q is neither widest nor round-robin", s)
	}
	// The domain NCP is normalised by: JT's whenever a public table was
	// given (every variant), MT's for the plain variants without one.
	r.Add(det.NCPDomain == "JT" || (det.NCPDomain == "MT" && c.method == plainKA), "NCP domain",
		"details.ncp_domain = %q: numeric extents span JT (microdata and public tuples), or MT for plain k-anonymity without a public table", det.NCPDomain)
	var err error
	if c.axes, err = readDomain(c.man, m, det); err != nil {
		return err
	}
	if det.SAKind != "numeric" && det.SAKind != "categorical" {
		return &model.InputError{File: c.man, Msg: "details.sensitive_kind must be numeric or categorical"}
	}
	return nil
}

// readBoxes recounts the boxes from jat.csv: consistent rows, inside the
// domain, at least k rows each.
func (c *release) readBoxes(r *verify.Report) error {
	var err error
	if c.boxes, c.boxOf, c.sgIDs, err = readBoxes(c.rel.Dir, c.jat, c.axes); err != nil {
		return err
	}
	inconsistent, outside := 0, 0
	c.minSize = math.MaxInt
	for _, bx := range c.boxes {
		if bx.text == "" {
			inconsistent++
		}
		for a, ax := range c.axes {
			if bx.lo[a] > bx.hi[a] || (ax.numeric && (bx.lo[a] < ax.Low || bx.hi[a] > ax.High)) {
				outside++
				break
			}
		}
		c.minSize = min(c.minSize, bx.rows)
	}
	if len(c.boxes) == 0 {
		c.minSize = 0
	}
	r.Add(inconsistent == 0, "boxes", "every row of a box gives the same ranges and sensitive group (%d boxes differ)", inconsistent)
	r.Add(outside == 0, "domain", "every box is a range inside the stated domain of each quasi-identifier (%d are not)", outside)
	c.kOK = c.kerr == nil && c.minSize >= c.k && len(c.boxes) > 0
	k := c.m.Parameters["k"]
	if c.method == plainKA {
		r.Add(c.kOK, "k-join-anonymity", "every one of %d boxes holds at least k = %s JT tuples, recounted from jat.csv (smallest %d; breach probability <= 1/%d, Theorem 2)",
			len(c.boxes), k, c.minSize, max(c.minSize, 1))
		return nil
	}
	// A KJA box's rows are microdata and public tuples alike: only the
	// original and the public table show that they are distinct people.
	r.Add(c.kOK, "k-join-anonymity", "every one of %d boxes has at least k = %s rows in jat.csv (smallest %d); they are k distinct people, "+
		"and the breach probability at most 1/%d (Theorem 2), once the public rows are recounted against JT (--original and --public)",
		len(c.boxes), k, c.minSize, max(c.minSize, 1))
	return nil
}

// groups checks the sensitive groups of si.csv against the boxes
// (Sacharidis et al., Section 3.2): in every variant a group holds at
// least k microdata tuples, as SI comes from a k-anonymous grouping of MT.
func (c *release) groups(r *verify.Report) error {
	nSG := len(c.sgIDs)
	c.siN = make([]int, nSG)
	c.siVals = make([]map[string]int, nSG)
	unknown := 0
	numeric := c.det.SAKind == "numeric"
	for row := 0; row < c.si.Rows; row++ {
		if _, ok := model.ParseNumber(c.si.Columns[1].Value(row)); numeric && !ok {
			return &model.InputError{File: filepath.Join(c.rel.Dir, "si.csv"), Line: row + 2, Msg: "the sensitive attribute is numeric but this value is not a number"}
		}
		g, ok := c.sgIDs[c.si.Columns[0].Value(row)]
		if !ok {
			unknown++
			continue
		}
		c.siN[g]++
		if c.siVals[g] == nil {
			c.siVals[g] = map[string]int{}
		}
		c.siVals[g][c.si.Columns[1].Value(row)]++
	}
	boxesOf := make([]int, nSG)
	rowsOf := make([]int, nSG)
	for _, bx := range c.boxes {
		boxesOf[bx.sg]++
		rowsOf[bx.sg] += bx.rows
	}
	short, over, shape, small := 0, 0, 0, 0
	c.minSG = math.MaxInt
	for g := 0; g < nSG; g++ {
		if c.siN[g] < boxesOf[g] {
			short++ // a box of the group would hold no microdata tuple
		}
		if c.siN[g] > rowsOf[g] {
			over++
		}
		if c.method == plainKA && (boxesOf[g] != 1 || c.siN[g] != rowsOf[g]) {
			shape++
		}
		if c.kerr == nil && c.siN[g] < c.k {
			small++
		}
		c.minSG = min(c.minSG, c.siN[g])
	}
	if nSG == 0 {
		c.minSG = 0
	}
	r.Add(unknown == 0, "sensitive groups", "every si.csv row names a sensitive group of jat.csv (%d do not)", unknown)
	r.Add(short == 0 && over == 0, "group counts", "every sensitive group has at least one sensitive value per box and no more than its JT tuples (%d short, %d over)", short, over)
	if c.method == plainKA {
		r.Add(shape == 0, "group shape", "under k-anonymity every sensitive group is one box whose every tuple is a microdata tuple (%d are not)", shape)
	}
	r.Add(c.kerr == nil && small == 0, "sensitive group size", "every sensitive group holds at least k = %s microdata tuples in si.csv, "+
		"so its sensitive values are as hidden as in a k-anonymous table (Section 3.2: SI comes from a k-anonymous grouping of MT) (smallest %d; %d hold fewer)",
		c.m.Parameters["k"], c.minSG, small)
	return nil
}

// recomputed are the figures the files give. A box's microdata count is
// its sensitive group's only under plain k-anonymity (a group is one box
// of microdata tuples); under Direct and Refinement a group spans boxes,
// and only the original says how its tuples spread over them.
func (c *release) recomputed() verify.Recomputed {
	k := c.m.Parameters["k"]
	rc := verify.Recomputed{Groups: len(c.boxes), Published: c.si.Rows,
		Tables: map[string]*model.Table{"jat.csv": c.jat, "si.csv": c.si},
		Figures: map[string]float64{
			"smallest box (JT tuples)":   float64(c.minSize),
			"largest breach probability": 1 / math.Max(1, float64(c.minSize)),
		},
		Holds: map[string]bool{"smallest box (JT tuples)": c.kOK, "largest breach probability": c.kOK},
		Later: map[string]bool{},
		// Each box holds k JT tuples, so the breach probability is at most
		// 1/k (Theorem 2), and none lacks a microdata tuple (Section 4).
		Limits: map[string]string{"smallest box (JT tuples)": k, "largest breach probability": "1/" + k,
			"boxes without a microdata tuple": "0"},
	}
	if c.method == plainKA {
		mt := make([]int, len(c.boxes))
		for i, bx := range c.boxes {
			mt[i] = c.siN[bx.sg]
		}
		figures(rc, c.boxes, c.axes, mt)
	} else {
		for _, name := range []string{"boxes without a microdata tuple", "NCP", "NCP per record and QI", "DM"} {
			rc.Later[name] = true
		}
	}
	return rc
}

// claims holds the details the manifest states to the files.
func (c *release) claims(r *verify.Report) {
	det := c.det
	before, n := len(r.Lines), 6
	r.Claim("details.boxes", float64(det.Boxes), float64(len(c.boxes)))
	r.Claim("details.sensitive_groups", float64(det.SensitiveGroups), float64(len(c.sgIDs)))
	r.Claim("details.jt_rows", float64(det.JTRows), float64(c.jat.Rows))
	r.Claim("details.public_rows", float64(det.PublicRows), float64(c.jat.Rows-c.si.Rows))
	r.Claim("details.smallest_box", float64(det.SmallestBox), float64(c.minSize))
	r.Claim("details.smallest_sensitive_group", float64(det.SmallestGroup), float64(c.minSG))
	if c.method == plainKA {
		r.Claim("details.qi_paired", float64(det.QIPaired), 0) // plain k-anonymity counts no public tuple
		n++
	}
	badJoin := 0
	for _, col := range det.Join {
		if !contains(c.m.Dropped, col) {
			badJoin++
		}
	}
	r.Add(badJoin == 0 && (c.method != plainKA || len(det.Join) == 0 || det.NCPDomain == "JT"), "join columns",
		"the columns that joined the tables are dropped columns (identifiers); plain k-anonymity names them only when a public table set its NCP domain")
	r.Claims(before, n, nil)
}

// unproven names k and the breach probability as unconfirmed when a KJA
// release publishes public rows and the check was not given both the
// original and the public table: the files alone cannot show that a
// box's rows are distinct people (rows repeated or moved between boxes
// read the same), so the guarantee is not confirmed (privlab check exits
// 3), whatever else passes.
func (c *release) unproven(r *verify.Report, opt verify.Options) {
	if c.method == plainKA || c.jat.Rows <= c.si.Rows || opt.Original != nil && opt.Public != nil {
		return
	}
	k := c.m.Parameters["k"]
	r.Unprove("k-join-anonymity", "the %d public rows of jat.csv were not recounted against the join table: that every box holds k = %s distinct people, "+
		"and so a breach probability of at most 1/%s (Theorem 2), is unconfirmed; pass --original FILE --public FILE", c.jat.Rows-c.si.Rows, k, k)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// figures recomputes the worst case and utility figures that need the
// microdata count of every box (Sacharidis et al., Sections 2.1 and 3.3):
// NCP sums every MT tuple's normalised box perimeter, DM the MT tuples of
// its box.
func figures(rc verify.Recomputed, boxes []*box, axes []*axis, mt []int) {
	noMT := 0
	ncp, dm := 0.0, 0.0
	for i, bx := range boxes {
		if mt[i] == 0 {
			noMT++
		}
		per := 0.0
		for a, ax := range axes {
			if ax.extent > 0 {
				per += (bx.hi[a] - bx.lo[a]) / ax.extent
			}
		}
		ncp += float64(mt[i]) * per
		dm += float64(mt[i]) * float64(mt[i])
	}
	total := 0
	for _, n := range mt {
		total += n
	}
	gcp := 0.0
	if total > 0 && len(axes) > 0 {
		gcp = ncp / float64(total*len(axes))
	}
	rc.Figures["boxes without a microdata tuple"] = float64(noMT)
	rc.Holds["boxes without a microdata tuple"] = noMT == 0
	rc.Figures["NCP"], rc.Figures["NCP per record and QI"], rc.Figures["DM"] = ncp, gcp, dm
}

// readDomain reads details.domain: one entry per QI, in order, numeric
// with low <= high or categorical with distinct values.
func readDomain(man string, m *model.Manifest, det format.Details) ([]*axis, error) {
	if len(det.Domain) != len(m.QIs) {
		return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain describes %d quasi-identifiers, the manifest names %d", len(det.Domain), len(m.QIs))}
	}
	out := make([]*axis, len(m.QIs))
	for i, d := range det.Domain {
		a := &axis{DomainEntry: d, numeric: d.Kind == format.Numeric}
		switch {
		case d.QI != m.QIs[i]:
			return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain[%d] describes %q, not %q", i, d.QI, m.QIs[i])}
		case a.numeric:
			if !(d.Low <= d.High) || len(d.Values) > 0 {
				return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain of %s: low must not exceed high, and a numeric QI lists no values", d.QI)}
			}
			a.extent = d.High - d.Low
		case d.Kind == "categorical":
			if len(d.Values) == 0 {
				return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain of %s lists no values", d.QI)}
			}
			a.pos = map[string]int{}
			for j, v := range d.Values {
				if _, dup := a.pos[v]; dup {
					return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain of %s lists %q twice", d.QI, v)}
				}
				a.pos[v] = j
			}
			if d.Low != 0 || d.High != float64(len(d.Values)-1) {
				return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain of %s: low and high must be the first and last position (0 and %d)", d.QI, len(d.Values)-1)}
			}
			a.extent = float64(len(d.Values) - 1)
		default:
			return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain of %s: kind must be numeric or categorical", d.QI)}
		}
		out[i] = a
	}
	return out, nil
}

// readBoxes groups jat.csv's rows by GroupID. A box whose rows disagree
// (ranges or sensitive group) gets an empty text. It returns the boxes in
// GroupID order, each row's box and the sensitive groups by their id.
func readBoxes(dir string, jat *model.Table, axes []*axis) ([]*box, []int, map[string]int, error) {
	file := filepath.Join(dir, "jat.csv")
	byID := map[string]*box{}
	sgIDs := map[string]int{}
	var order []*box
	boxOf := make([]int, jat.Rows)
	cells := make([]string, 0, 1+2*len(axes))
	for row := 0; row < jat.Rows; row++ {
		id := jat.Columns[0].Value(row)
		if _, err := strconv.Atoi(id); err != nil {
			return nil, nil, nil, &model.InputError{File: file, Line: row + 2, Msg: "GroupID " + strconv.Quote(id) + " is not an integer"}
		}
		cells = cells[:0]
		for c := 1; c < len(jat.Columns); c++ {
			cells = append(cells, jat.Columns[c].Value(row))
		}
		text := strings.Join(cells, "\x00")
		bx := byID[id]
		if bx == nil {
			sgText := cells[0]
			if _, err := strconv.Atoi(sgText); err != nil {
				return nil, nil, nil, &model.InputError{File: file, Line: row + 2, Msg: "SG " + strconv.Quote(sgText) + " is not an integer"}
			}
			sg, ok := sgIDs[sgText]
			if !ok {
				sg = len(sgIDs)
				sgIDs[sgText] = sg
			}
			bx = &box{id: id, sg: sg, text: text, line: row + 2, lo: make([]float64, len(axes)), hi: make([]float64, len(axes))}
			for a, ax := range axes {
				for j, dst := range []*float64{&bx.lo[a], &bx.hi[a]} {
					v := cells[1+2*a+j]
					x, ok := ax.value(v)
					if !ok {
						what := "a number"
						if !ax.numeric {
							what = "a value of the manifest's domain of " + ax.QI
						}
						return nil, nil, nil, &model.InputError{File: file, Line: row + 2, Msg: fmt.Sprintf("%q is not %s", v, what)}
					}
					*dst = x
				}
			}
			byID[id] = bx
			order = append(order, bx)
		} else if bx.text != text {
			bx.text = ""
		}
		bx.rows++
	}
	sort.Slice(order, func(i, j int) bool {
		a, _ := strconv.Atoi(order[i].id)
		b, _ := strconv.Atoi(order[j].id)
		return a < b
	})
	index := map[*box]int{}
	for i, bx := range order {
		index[bx] = i
	}
	for row := 0; row < jat.Rows; row++ {
		boxOf[row] = index[byID[jat.Columns[0].Value(row)]]
	}
	return order, boxOf, sgIDs, nil
}
