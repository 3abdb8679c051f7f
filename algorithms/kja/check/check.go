// Package check is the independent checker of k-join-anonymity releases
// (Sacharidis, Mouratidis, Papadias): it reads jat.csv and si.csv and
// re-checks, from the files alone, that every G-box holds at least k JT
// tuples (recounted, Definition 6 and Theorem 2), that each box reads the
// same on all its rows and lies in the stated domain, and that the
// sensitive groups are consistent (Section 3.2); with the original table
// (and the public table) it proves the release faithful: every microdata
// tuple is published once, inside its box, every box holds a microdata
// tuple and is the MBB of its members, and si.csv holds exactly the
// microdata's sensitive values, group by group. It imports model and
// algorithms/verify only, never the method.
package check

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/verify"
	"privlab/model"
)

// details is the manifest's method part, as the method writes it.
type details struct {
	Algorithm       string   `json:"k_algorithm"`
	Methodology     string   `json:"methodology"`
	Join            []string `json:"join_columns"`
	Domain          []domain `json:"domain"`
	SAKind          string   `json:"sensitive_kind"`
	Boxes           int      `json:"boxes"`
	SensitiveGroups int      `json:"sensitive_groups"`
	JTRows          int      `json:"jt_rows"`
	PublicRows      int      `json:"public_rows"`
	SmallestBox     int      `json:"smallest_box"`
	SmallestGroup   int      `json:"smallest_sensitive_group"`
	NCPDomain       string   `json:"ncp_domain"`
}

type domain struct {
	QI     string   `json:"qi"`
	Kind   string   `json:"kind"`
	Low    float64  `json:"low"`
	High   float64  `json:"high"`
	Values []string `json:"values"`
}

// axis reads one QI of the release.
type axis struct {
	domain
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

// Check verifies a kja release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	m := rel.Manifest
	man := filepath.Join(rel.Dir, "manifest.json")
	jat, err := rel.Table("jat.csv")
	if err != nil {
		return err
	}
	si, err := rel.Table("si.csv")
	if err != nil {
		return err
	}
	var det details
	if err := verify.DecodeDetails(m, &det); err != nil {
		return &model.InputError{File: man, Msg: "details: " + err.Error()}
	}
	want := []string{"GroupID", "SG"}
	for _, q := range m.QIs {
		want = append(want, q+"_min", q+"_max")
	}
	if !r.BindNames("jat.csv", jat, want) || !r.BindNames("si.csv", si, []string{"SG", m.SA}) || m.SA == "" {
		return nil
	}
	r.Add(true, "columns", "jat.csv holds GroupID, SG and a range per quasi-identifier; si.csv holds SG and %s only", m.SA)

	// The variant, the parameters and the domain.
	vr, known := variants[m.Variant]
	r.Add(known, "variant", "variant %q is one of k-join-anonymity's", m.Variant)
	if known {
		r.ClaimText("details.k_algorithm", det.Algorithm, vr[0])
		r.ClaimText("details.methodology", det.Methodology, vr[1])
	}
	method := vr[1]
	k, kerr := strconv.Atoi(strings.TrimSpace(m.Parameters["k"]))
	r.Add(kerr == nil && k >= 2, "parameter k", "k = %q is an integer >= 2", m.Parameters["k"])
	if s, ok := m.Parameters["split"]; ok && s != "widest" && s != "round-robin" {
		r.Add(false, "parameter split", "split = %q is neither widest nor round-robin", s)
	}
	// The domain NCP is normalised by: JT's whenever a public table was
	// given (every variant), MT's for the plain variants without one.
	r.Add(det.NCPDomain == "JT" || (det.NCPDomain == "MT" && method == plainKA), "NCP domain",
		"details.ncp_domain = %q: numeric extents span JT (microdata and public tuples), or MT for plain k-anonymity without a public table", det.NCPDomain)
	axes, err := readDomain(man, m, det)
	if err != nil {
		return err
	}
	if det.SAKind != "numeric" && det.SAKind != "categorical" {
		return &model.InputError{File: man, Msg: "details.sensitive_kind must be numeric or categorical"}
	}

	// The boxes, recounted from jat.csv.
	boxes, boxOf, sgIDs, err := readBoxes(rel.Dir, jat, axes)
	if err != nil {
		return err
	}
	inconsistent := 0
	for _, bx := range boxes {
		if bx.text == "" {
			inconsistent++
		}
	}
	r.Add(inconsistent == 0, "boxes", "every row of a box gives the same ranges and sensitive group (%d boxes differ)", inconsistent)
	outside := 0
	for _, bx := range boxes {
		for a, ax := range axes {
			if bx.lo[a] > bx.hi[a] || (ax.numeric && (bx.lo[a] < ax.Low || bx.hi[a] > ax.High)) {
				outside++
				break
			}
		}
	}
	r.Add(outside == 0, "domain", "every box is a range inside the stated domain of each quasi-identifier (%d are not)", outside)
	minSize := math.MaxInt
	for _, bx := range boxes {
		minSize = min(minSize, bx.rows)
	}
	if len(boxes) == 0 {
		minSize = 0
	}
	kOK := kerr == nil && minSize >= k && len(boxes) > 0
	r.Add(kOK, "k-join-anonymity", "every one of %d boxes holds at least k = %s JT tuples, recounted from jat.csv (smallest %d; breach probability <= 1/%d, Theorem 2)",
		len(boxes), m.Parameters["k"], minSize, max(minSize, 1))

	// Sensitive groups: si.csv against the boxes.
	nSG := len(sgIDs)
	siN := make([]int, nSG)
	siVals := make([]map[string]int, nSG)
	unknown := 0
	for row := 0; row < si.Rows; row++ {
		g, ok := sgIDs[si.Columns[0].Value(row)]
		if !ok {
			unknown++
			continue
		}
		siN[g]++
		if siVals[g] == nil {
			siVals[g] = map[string]int{}
		}
		siVals[g][si.Columns[1].Value(row)]++
	}
	if det.SAKind == "numeric" {
		for row := 0; row < si.Rows; row++ {
			if _, ok := model.ParseNumber(si.Columns[1].Value(row)); !ok {
				return &model.InputError{File: filepath.Join(rel.Dir, "si.csv"), Line: row + 2, Msg: "the sensitive attribute is numeric but this value is not a number"}
			}
		}
	}
	boxesOf := make([]int, nSG)
	rowsOf := make([]int, nSG)
	for _, bx := range boxes {
		boxesOf[bx.sg]++
		rowsOf[bx.sg] += bx.rows
	}
	short, over, shape := 0, 0, 0
	for g := 0; g < nSG; g++ {
		if siN[g] < boxesOf[g] {
			short++ // a box of the group would hold no microdata tuple
		}
		if siN[g] > rowsOf[g] {
			over++
		}
		if method != refineKA && boxesOf[g] != 1 {
			shape++
		}
		if method == plainKA && siN[g] != rowsOf[g] {
			shape++
		}
	}
	r.Add(unknown == 0, "sensitive groups", "every si.csv row names a sensitive group of jat.csv (%d do not)", unknown)
	r.Add(short == 0 && over == 0, "group counts", "every sensitive group has at least one sensitive value per box and no more than its JT tuples (%d short, %d over)", short, over)
	if method != refineKA {
		r.Add(shape == 0, "group shape", "under %s every sensitive group is one box%s (%d are not)", method,
			map[bool]string{true: " whose every tuple is a microdata tuple", false: ""}[method == plainKA], shape)
	}
	minSG := math.MaxInt
	for _, n := range siN {
		minSG = min(minSG, n)
	}
	if nSG == 0 {
		minSG = 0
	}
	// How many microdata tuples a sensitive group holds (Sacharidis et
	// al., Section 3.2): under Refinement a group is a first-round
	// k-anonymous group of MT, so at least k; under plain k-anonymity it
	// is a box of microdata tuples only, so at least k too; under Direct
	// it is a box, whose k counts JT tuples, so a single microdata tuple
	// is allowed.
	smallSG := 0
	for _, n := range siN {
		if kerr == nil && n < k {
			smallSG++
		}
	}
	switch method {
	case refineKA:
		r.Add(kerr == nil && smallSG == 0, "sensitive group size", "under refinement a sensitive group is a first-round k-anonymous group of the microdata: every one holds at least k = %s microdata tuples in si.csv (smallest %d; %d hold fewer)",
			m.Parameters["k"], minSG, smallSG)
	case plainKA:
		r.Add(kerr == nil && smallSG == 0, "sensitive group size", "under k-anonymity a sensitive group is one box of microdata tuples only: every one holds at least k = %s microdata tuples in si.csv (smallest %d; %d hold fewer)",
			m.Parameters["k"], minSG, smallSG)
	default:
		r.Add(true, "sensitive group size", "under %s a sensitive group is one box, and k counts its JT tuples: it may hold a single microdata tuple (smallest %d), so its microdata count is not held to k", method, minSG)
	}

	// Figures from the files: MT tuples per box are the group's count when
	// a group is one box (plain and Direct); under Refinement only the
	// original says how a group's tuples spread over its boxes.
	rc := verify.Recomputed{Groups: len(boxes), Published: si.Rows,
		Tables: map[string]*model.Table{"jat.csv": jat, "si.csv": si},
		Figures: map[string]float64{
			"smallest box (JT tuples)":   float64(minSize),
			"largest breach probability": 1 / math.Max(1, float64(minSize)),
		},
		Holds: map[string]bool{"smallest box (JT tuples)": kOK, "largest breach probability": kOK},
		Later: map[string]bool{},
		// Each box holds k JT tuples, so the breach probability is at most
		// 1/k (Theorem 2), and none lacks a microdata tuple (Section 4).
		Limits: map[string]string{"smallest box (JT tuples)": m.Parameters["k"], "largest breach probability": "1/" + m.Parameters["k"],
			"boxes without a microdata tuple": "0"},
	}
	later := []string{"boxes without a microdata tuple", "NCP", "NCP per record and QI", "DM"}
	if method != refineKA {
		mt := make([]int, len(boxes))
		for i, bx := range boxes {
			mt[i] = siN[bx.sg]
		}
		figures(rc, boxes, axes, mt)
	} else {
		for _, name := range later {
			rc.Later[name] = true
		}
	}
	before := len(r.Lines)
	r.Claim("details.boxes", float64(det.Boxes), float64(len(boxes)))
	r.Claim("details.sensitive_groups", float64(det.SensitiveGroups), float64(nSG))
	r.Claim("details.jt_rows", float64(det.JTRows), float64(jat.Rows))
	r.Claim("details.public_rows", float64(det.PublicRows), float64(jat.Rows-si.Rows))
	r.Claim("details.smallest_box", float64(det.SmallestBox), float64(minSize))
	r.Claim("details.smallest_sensitive_group", float64(det.SmallestGroup), float64(minSG))
	badJoin := 0
	for _, c := range det.Join {
		if !contains(m.Dropped, c) {
			badJoin++
		}
	}
	r.Add(badJoin == 0 && (method != plainKA || len(det.Join) == 0 || det.NCPDomain == "JT"), "join columns",
		"the columns that joined the tables are dropped columns (identifiers); plain k-anonymity names them only when a public table set its NCP domain")
	r.Claims(before, 6, nil)

	if opt.Original != nil {
		if err := faithful(rel, opt, r, &rc, faith{m: m, det: det, method: method, axes: axes, boxes: boxes, boxOf: boxOf,
			jat: jat, si: si, sgIDs: sgIDs, siVals: siVals}); err != nil {
			return err
		}
	}
	r.Compare(rel, rc, opt)
	return nil
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
func readDomain(man string, m *model.Manifest, det details) ([]*axis, error) {
	if len(det.Domain) != len(m.QIs) {
		return nil, &model.InputError{File: man, Msg: fmt.Sprintf("details.domain describes %d quasi-identifiers, the manifest names %d", len(det.Domain), len(m.QIs))}
	}
	out := make([]*axis, len(m.QIs))
	for i, d := range det.Domain {
		a := &axis{domain: d, numeric: d.Kind == "numeric"}
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
