// Package check is the independent checker of lossyjoin releases (Wong,
// Liu, Yin, Huang, Fu, Pei, (alpha,k)-anonymity by lossy join). From
// nss.csv and ss.csv (variants lossy and anatomy) or generalized.csv and
// domains.csv (variant alpha) it recomputes every class's size and largest
// sensitive share and holds them to k and alpha (generalized
// (alpha,k)-anonymity, Definition 1), recomputes every figure the manifest
// states, and with the original table proves the release faithful: the
// published QI and SA multisets are the original's, every class's
// sensitive values are those of its records, and row order links neither
// file to the input nor NSS to SS. It imports model and algorithms/verify
// only, never the method.
package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/verify"
	"privlab/model"
)

// The files and columns of a release.
const (
	fileNSS = "nss.csv"
	fileSS  = "ss.csv"
	fileGen = "generalized.csv"
	fileDom = "domains.csv"
	classID = "ClassID"
)

// Names of the figures the manifest states.
const (
	figSmallest = "smallest class"
	figFraction = "largest SA fraction in a class"
	figJoin     = "lossy join rows per record"
	figNCP      = "NCP"
)

// groupFigure is one entry of details.group_figures.
type groupFigure struct {
	Figure string  `json:"figure"`
	Min    float64 `json:"min"`
	Mean   float64 `json:"mean"`
	Max    float64 `json:"max"`
}

// details is the method's part of the manifest, read strictly.
type details struct {
	Remark        string        `json:"remark"`
	Criterion     string        `json:"criterion"`
	Classes       int           `json:"classes"`
	JoinRows      int           `json:"join_rows"`
	L             int           `json:"l"`
	GroupFigures  []groupFigure `json:"group_figures"`
	DomainEntries int           `json:"domain_entries"`
}

// classes are the recomputed QID-ECs: per class its size and sensitive
// value counts.
type classes struct {
	ids    []string
	size   []int
	counts []map[string]int
}

func (c *classes) add(id string) int {
	c.ids = append(c.ids, id)
	c.size = append(c.size, 0)
	c.counts = append(c.counts, map[string]int{})
	return len(c.ids) - 1
}

// figures are the per-class figures the workbench shows: size, largest
// sensitive share, distinct sensitive values.
func (c *classes) figures(i int) (size, frac, distinct float64) {
	m := 0
	for _, n := range c.counts[i] {
		m = max(m, n)
	}
	s := c.size[i]
	if s == 0 {
		return 0, 0, 0
	}
	return float64(s), float64(m) / float64(s), float64(len(c.counts[i]))
}

// feasible is the (alpha,k) test of one class (the method's tolerance).
func feasible(size, maxCount, k int, alpha float64) bool {
	return size >= k && float64(maxCount) <= alpha*float64(size)+1e-9*float64(size)
}

// Check verifies a lossyjoin release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	m := rel.Manifest
	k, alpha := params(m, r)
	det, err := readDetails(rel)
	if err != nil {
		return err
	}
	switch m.Variant {
	case "lossy", "anatomy":
		return checkJoin(rel, opt, r, k, alpha, det)
	case "alpha":
		return checkGeneralized(rel, opt, r, k, alpha, det)
	}
	return &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: fmt.Sprintf("unknown variant %q of lossyjoin", m.Variant),
		Hint: "variants: lossy, alpha, anatomy"}
}

// params reads k and alpha, the parameters that bound the data: a value
// out of range fails (and the checks go on with the weakest bound, k = 2
// and alpha = 1, so the other lines still say what holds).
func params(m *model.Manifest, r *verify.Report) (int, float64) {
	k, err := strconv.Atoi(strings.TrimSpace(m.Parameters["k"]))
	kok := err == nil && k >= 2
	alpha, err := strconv.ParseFloat(strings.TrimSpace(m.Parameters["alpha"]), 64)
	aok := err == nil && alpha > 0 && alpha <= 1
	r.Add(kok && aok, "parameters", "k = %q (an integer >= 2) and alpha = %q (in (0,1])", m.Parameters["k"], m.Parameters["alpha"])
	if !kok {
		k = 2
	}
	if !aok {
		alpha = 1
	}
	for _, f := range m.WorstCases {
		switch f.Name {
		case figSmallest:
			r.Add(f.Limit == m.Parameters["k"], "claim "+f.Name+" limit", "held against %q, k is %q", f.Limit, m.Parameters["k"])
		case figFraction:
			r.Add(f.Limit == m.Parameters["alpha"], "claim "+f.Name+" limit", "held against %q, alpha is %q", f.Limit, m.Parameters["alpha"])
		}
	}
	return k, alpha
}

// readDetails decodes the manifest's details strictly: a field the method
// does not write is a failure, not ignored.
func readDetails(rel *verify.Release) (*details, error) {
	b, err := json.Marshal(rel.Manifest.Details)
	if err != nil {
		return nil, err
	}
	d := &details{}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(d); err != nil {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: "details: " + err.Error()}
	}
	return d, nil
}

// checkJoin verifies nss.csv and ss.csv.
func checkJoin(rel *verify.Release, opt verify.Options, r *verify.Report, k int, alpha float64, det *details) error {
	m := rel.Manifest
	nss, err := rel.Table(fileNSS)
	if err != nil {
		return err
	}
	ss, err := rel.Table(fileSS)
	if err != nil {
		return err
	}
	okN := r.BindNames(fileNSS, nss, append(append([]string(nil), m.QIs...), classID))
	okS := r.BindNames(fileSS, ss, []string{classID, m.SA})
	if !okN || !okS {
		return nil
	}
	r.Add(true, "columns", "nss.csv holds the %d quasi-identifiers and ClassID, ss.csv ClassID and %s (Section 5)", len(m.QIs), m.SA)
	nq := len(m.QIs)
	nssClass, ssClass := nss.Columns[nq], ss.Columns[0]
	saCol := ss.Columns[1]

	// Classes: sizes from each file, sensitive values from ss.csv.
	cl := &classes{}
	index := map[string]int{}
	nssSize := map[string]int{}
	for row := 0; row < nss.Rows; row++ {
		nssSize[nssClass.Value(row)]++
	}
	ssOf := make([]int, ss.Rows)
	for row := 0; row < ss.Rows; row++ {
		id := ssClass.Value(row)
		i, ok := index[id]
		if !ok {
			i = cl.add(id)
			index[id] = i
		}
		cl.size[i]++
		cl.counts[i][saCol.Value(row)]++
		ssOf[row] = i
	}
	differ := 0
	for id, n := range nssSize {
		if i, ok := index[id]; !ok || cl.size[i] != n {
			differ++
		}
	}
	for id := range index {
		if _, ok := nssSize[id]; !ok {
			differ++
		}
	}
	r.Add(differ == 0 && nss.Rows == ss.Rows, "one record per row",
		"every ClassID has as many rows in nss.csv as in ss.csv, each row one record (%d classes differ; %d and %d rows)", differ, nss.Rows, ss.Rows)
	judge(cl, k, alpha, r)
	if m.Variant == "anatomy" {
		l := int(math.Ceil(1/alpha - 1e-9))
		r.Claim("details.l", float64(det.L), float64(l))
		few := 0
		for i := range cl.ids {
			if len(cl.counts[i]) < l {
				few++
			}
		}
		r.Add(few == 0, "l-diversity", "every class holds at least l = %d distinct sensitive values (Anatomy; %d classes fewer)", l, few)
	}
	r.Add(strings.Contains(det.Remark, "one record"), "remark", "the manifest carries Section 5's remark that each row of either table is one original record")
	joinRows := 0
	for _, s := range cl.size {
		joinRows += s * s
	}
	claims(r, cl, det, m.Variant)
	r.Claim("details.join_rows", float64(det.JoinRows), float64(joinRows))
	rc := verify.Recomputed{Groups: len(cl.ids), Published: nss.Rows,
		Tables:  map[string]*model.Table{fileNSS: nss, fileSS: ss},
		Figures: worst(cl, k, alpha), Holds: holds(cl, k, alpha)}
	rc.Figures[figJoin] = float64(joinRows) / math.Max(1, float64(nss.Rows))
	if opt.Original != nil {
		if err := joinOriginal(m, nss, ss, ssOf, cl, index, opt, r); err != nil {
			return err
		}
	}
	r.Compare(rel, rc, opt)
	return nil
}

// judge adds the (alpha,k) lines.
func judge(cl *classes, k int, alpha float64, r *verify.Report) {
	small, over := 0, 0
	worstID := ""
	for i := range cl.ids {
		size, _, _ := cl.figures(i)
		m := 0
		for _, n := range cl.counts[i] {
			m = max(m, n)
		}
		if int(size) < k {
			small++
		}
		if !feasible(cl.size[i], m, 1, alpha) {
			over++
			worstID = cl.ids[i]
		}
	}
	r.Add(len(cl.ids) > 0, "classes", "%d classes", len(cl.ids))
	r.Add(small == 0, "k-anonymity", "every class holds at least k = %d records (%d classes fewer)", k, small)
	if over == 0 {
		r.Add(true, "alpha", "no sensitive value exceeds alpha = %s of its class (Definition 1)", model.FormatNumber(alpha))
	} else {
		r.Add(false, "alpha", "%d classes have a sensitive value above alpha = %s (e.g. class %s)", over, model.FormatNumber(alpha), worstID)
	}
}

// worst recomputes the worst cases.
func worst(cl *classes, k int, alpha float64) map[string]float64 {
	small, frac := math.Inf(1), 0.0
	for i := range cl.ids {
		s, f, _ := cl.figures(i)
		small, frac = math.Min(small, s), math.Max(frac, f)
	}
	if len(cl.ids) == 0 {
		small = 0
	}
	return map[string]float64{figSmallest: small, figFraction: frac}
}

func holds(cl *classes, k int, alpha float64) map[string]bool {
	w := worst(cl, k, alpha)
	return map[string]bool{figSmallest: w[figSmallest] >= float64(k), figFraction: w[figFraction] <= alpha+1e-9}
}

// claims compares details.classes and details.group_figures with the
// classes.
func claims(r *verify.Report, cl *classes, det *details, variant string) {
	r.Claim("details.classes", float64(det.Classes), float64(len(cl.ids)))
	want := []string{"records", "max SA frac", "SA values"}
	if len(det.GroupFigures) != len(want) {
		r.Add(false, "claim details.group_figures", "the manifest states %d per-class figures, the release has %d", len(det.GroupFigures), len(want))
		return
	}
	for fi, g := range det.GroupFigures {
		r.ClaimText(fmt.Sprintf("details.group_figures[%d].figure", fi), g.Figure, want[fi])
		lo, hi, mean := math.Inf(1), math.Inf(-1), 0.0
		for i := range cl.ids {
			s, f, d := cl.figures(i)
			x := []float64{s, f, d}[fi]
			lo, hi = math.Min(lo, x), math.Max(hi, x)
			mean += x / float64(len(cl.ids))
		}
		if len(cl.ids) == 0 {
			lo, hi = 0, 0
		}
		r.Claim(fmt.Sprintf("details.group_figures.%s.min", want[fi]), g.Min, lo)
		r.Claim(fmt.Sprintf("details.group_figures.%s.mean", want[fi]), g.Mean, mean)
		r.Claim(fmt.Sprintf("details.group_figures.%s.max", want[fi]), g.Max, hi)
	}
}

// saMultiset compares the published sensitive values with the original's.
func saMultiset(o *verify.Originals, file string, sa *model.Column, rows int, r *verify.Report) {
	count := map[string]int{}
	for row := 0; row < rows; row++ {
		count[sa.Value(row)]++
	}
	for _, rs := range o.ByKey {
		for _, row := range rs {
			v, _ := o.Text(o.SA, row)
			count[v]--
		}
	}
	differ := 0
	for _, n := range count {
		if n != 0 {
			differ++
		}
	}
	r.Add(differ == 0, "sensitive values", "the sensitive values of %s are exactly the original's (%d values differ in count)", file, differ)
}

// joinOriginal proves nss.csv and ss.csv faithful to the original: the QI
// and SA multisets, every class's sensitive values are its records'
// (Temp table of Section 3, projected), and row order links nothing.
func joinOriginal(m *model.Manifest, nss, ss *model.Table, ssOf []int, cl *classes, index map[string]int,
	opt verify.Options, r *verify.Report) error {
	o, err := verify.NewOriginals(opt.Original, m)
	if err != nil {
		return err
	}
	nq := len(m.QIs)
	keys, same := o.SameTuples(fileNSS, nss.Columns[:nq], nss.Rows, r)
	saMultiset(o, fileSS, ss.Columns[1], ss.Rows, r)
	if !same {
		return nil
	}
	nssClass := nss.Columns[nq]
	classesOf := map[string]map[string]bool{}
	for row, key := range keys {
		if classesOf[key] == nil {
			classesOf[key] = map[string]bool{}
		}
		classesOf[key][nssClass.Value(row)] = true
	}
	pinned, ok := o.Pin(fileNSS, keys, opt.Audit, func(key string) bool { return len(classesOf[key]) <= 1 }, r)
	if !ok {
		return nil
	}
	if !distinctRows(pinned) {
		r.Add(false, "audit", "the audit record's row map of nss.csv names an input row twice")
		return nil
	}
	// Every class's SS values are the original values of its NSS records.
	origCounts := make([]map[string]int, len(cl.ids))
	unknown := 0
	for row, in := range pinned {
		i, ok := index[nssClass.Value(row)]
		if !ok {
			unknown++
			continue
		}
		if origCounts[i] == nil {
			origCounts[i] = map[string]int{}
		}
		v, _ := o.Text(o.SA, in)
		origCounts[i][v]++
	}
	bad := unknown
	for i := range cl.ids {
		if !sameCounts(origCounts[i], cl.counts[i]) {
			bad++
		}
	}
	r.Add(bad == 0, "classes faithful", "every class's ss.csv values are the original values of its nss.csv records (%d classes differ)", bad)
	verify.Shuffled(fileNSS, pinned, len(classesOf), r)

	// ss.csv rows are pinned by the audit record only.
	var ssRows []int
	if opt.Audit != nil {
		ssRows = opt.Audit.RowMap[fileSS]
	}
	if len(ssRows) == 0 {
		r.Add(true, "position link", "undecided: without the audit record's row map of ss.csv the files do not say which record an ss.csv row is")
		return nil
	}
	nssAt := map[int]int{}
	for row, in := range pinned {
		nssAt[in] = row
	}
	fits := len(ssRows) == ss.Rows && distinctRows(ssRows)
	for row := 0; fits && row < ss.Rows; row++ {
		in := ssRows[row]
		nrow, ok := nssAt[in]
		v, _ := "", false
		if ok {
			v, _ = o.Text(o.SA, in)
		}
		fits = ok && v == ss.Columns[1].Value(row) && ss.Columns[0].Value(row) == nssClass.Value(nrow)
	}
	if !fits {
		r.Add(false, "audit", "the audit record's row map of ss.csv does not fit this original and nss.csv (each ss.csv row must be the sensitive value and class of one record of nss.csv)")
		return nil
	}
	r.Add(true, "audit", "the audit record pins every row of ss.csv to the record of nss.csv with the same class and an equal sensitive value")
	values := map[string]bool{}
	for row := 0; row < ss.Rows; row++ {
		values[ss.Columns[1].Value(row)] = true
	}
	verify.Shuffled(fileSS, ssRows, len(values), r)
	coincide := 0
	for i := range pinned {
		if pinned[i] == ssRows[i] {
			coincide++
		}
	}
	n := len(pinned)
	linked := coincide >= 10 || (n >= 3 && coincide == n)
	r.Add(!linked, "position link", "row i of nss.csv and row i of ss.csv are the same record at %d of %d positions (independent shuffles give about one)", coincide, n)
	return nil
}

func distinctRows(rows []int) bool {
	seen := make(map[int]bool, len(rows))
	for _, x := range rows {
		if seen[x] {
			return false
		}
		seen[x] = true
	}
	return true
}

func sameCounts(a, b map[string]int) bool {
	n := 0
	for k, x := range a {
		if x != 0 {
			n++
			if b[k] != x {
				return false
			}
		}
	}
	m := 0
	for _, x := range b {
		if x != 0 {
			m++
		}
	}
	return n == m
}

// domain is one QI's labels read from domains.csv.
type domain struct {
	numeric bool
	values  map[string][]string // label -> values
	set     map[string]map[string]bool
	root    string
}

// readDomains parses domains.csv: every attribute a quasi-identifier,
// values unique within a label, one label (the root) holding every value
// of the others, and labels nested or disjoint (a hierarchy's subdomains).
func readDomains(rel *verify.Release, dom *model.Table, qis []string, r *verify.Report) (map[string]*domain, bool) {
	file := filepath.Join(rel.Dir, fileDom)
	out := map[string]*domain{}
	for _, q := range qis {
		out[q] = &domain{numeric: true, values: map[string][]string{}, set: map[string]map[string]bool{}}
	}
	for row := 0; row < dom.Rows; row++ {
		a, l, v := dom.Columns[0].Value(row), dom.Columns[1].Value(row), dom.Columns[2].Value(row)
		d, ok := out[a]
		if !ok {
			r.Add(false, "domains", "%s:%d: %q is not a quasi-identifier", file, row+2, a)
			return nil, false
		}
		if d.set[l] == nil {
			d.set[l] = map[string]bool{}
		}
		if d.set[l][v] {
			r.Add(false, "domains", "%s:%d: %s label %q lists %q twice", file, row+2, a, l, v)
			return nil, false
		}
		d.set[l][v] = true
		d.values[l] = append(d.values[l], v)
		if _, isNum := model.ParseNumber(v); !isNum {
			d.numeric = false
		}
	}
	for _, q := range qis {
		d := out[q]
		for l, vs := range d.values {
			if d.root == "" || len(vs) > len(d.values[d.root]) || (len(vs) == len(d.values[d.root]) && l < d.root) {
				d.root = l
			}
		}
		if d.root == "" {
			r.Add(false, "domains", "domains.csv lists no domain for %s", q)
			return nil, false
		}
		// Laminar: the labels holding a value form a chain of subsets.
		holders := map[string][]string{}
		for l, vs := range d.values {
			for _, v := range vs {
				holders[v] = append(holders[v], l)
			}
		}
		for v, ls := range holders {
			if !d.set[d.root][v] {
				r.Add(false, "domains", "%s: value %q of label %q is outside the domain %q", q, v, ls[0], d.root)
				return nil, false
			}
			sort.Slice(ls, func(i, j int) bool {
				if len(d.values[ls[i]]) != len(d.values[ls[j]]) {
					return len(d.values[ls[i]]) > len(d.values[ls[j]])
				}
				return ls[i] < ls[j]
			})
			for i := 1; i < len(ls); i++ {
				for _, x := range d.values[ls[i]] {
					if !d.set[ls[i-1]][x] {
						r.Add(false, "domains", "%s: labels %q and %q overlap without one containing the other", q, ls[i-1], ls[i])
						return nil, false
					}
				}
			}
		}
	}
	r.Add(true, "domains", "domains.csv gives every quasi-identifier a domain whose labels nest like a hierarchy's subdomains")
	return out, true
}

// span is the NCP share of a label: its range over the domain's (numeric),
// or its values minus one over the domain's (categorical).
func (d *domain) span(label string) float64 {
	vs, root := d.values[label], d.values[d.root]
	if d.numeric {
		lo, hi := bounds(vs)
		rlo, rhi := bounds(root)
		if rhi > rlo {
			return (hi - lo) / (rhi - rlo)
		}
		return 0
	}
	if len(root) > 1 {
		return float64(len(vs)-1) / float64(len(root)-1)
	}
	return 0
}

func bounds(vs []string) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		x, _ := model.ParseNumber(v)
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// covers reports whether label's subdomain holds the original text v.
func (d *domain) covers(label, v string) bool {
	if d.set[label][v] {
		return true
	}
	if d.numeric {
		x, ok := model.ParseNumber(v)
		if !ok {
			return false
		}
		for _, w := range d.values[label] {
			if y, _ := model.ParseNumber(w); y == x {
				return true
			}
		}
	}
	return false
}

// checkGeneralized verifies generalized.csv and domains.csv.
func checkGeneralized(rel *verify.Release, opt verify.Options, r *verify.Report, k int, alpha float64, det *details) error {
	m := rel.Manifest
	gen, err := rel.Table(fileGen)
	if err != nil {
		return err
	}
	dom, err := rel.Table(fileDom)
	if err != nil {
		return err
	}
	okG := r.BindNames(fileGen, gen, append(append([]string(nil), m.QIs...), m.SA))
	okD := r.BindNames(fileDom, dom, []string{"attribute", "label", "value"})
	if !okG || !okD {
		return nil
	}
	nq := len(m.QIs)
	doms, ok := readDomains(rel, dom, m.QIs, r)
	if !ok {
		return nil
	}
	// QID-ECs: records with the same generalized QIs.
	cl := &classes{}
	index := map[string]int{}
	classOf := make([]int, gen.Rows)
	unknown := 0
	ncp := 0.0
	sa := gen.Columns[nq]
	for row := 0; row < gen.Rows; row++ {
		key := verify.PublishedKey(gen.Columns[:nq], row)
		i, ok := index[key]
		if !ok {
			i = cl.add(key)
			index[key] = i
		}
		cl.size[i]++
		cl.counts[i][sa.Value(row)]++
		classOf[row] = i
		for q, name := range m.QIs {
			label := gen.Columns[q].Value(row)
			if _, ok := doms[name].values[label]; !ok {
				unknown++
				continue
			}
			ncp += doms[name].span(label)
		}
	}
	ncp /= math.Max(1, float64(gen.Rows*nq))
	r.Add(unknown == 0, "labels", "every generalized value of generalized.csv is a label of domains.csv (%d are not)", unknown)
	judge(cl, k, alpha, r)
	claims(r, cl, det, m.Variant)
	r.Claim("details.domain_entries", float64(det.DomainEntries), float64(dom.Rows))
	rc := verify.Recomputed{Groups: len(cl.ids), Published: gen.Rows,
		Tables:  map[string]*model.Table{fileGen: gen, fileDom: dom},
		Figures: worst(cl, k, alpha), Holds: holds(cl, k, alpha)}
	rc.Figures[figNCP] = ncp
	if opt.Original != nil {
		if err := genOriginal(m, gen, doms, classOf, len(cl.ids), opt, r); err != nil {
			return err
		}
	}
	r.Compare(rel, rc, opt)
	return nil
}

// genOriginal proves generalized.csv faithful to the original: the
// sensitive multiset is the original's and every record is a distinct
// original record whose values its generalized labels cover, pinned by
// the audit record or, for small releases, by a maximum matching.
func genOriginal(m *model.Manifest, gen *model.Table, doms map[string]*domain, classOf []int, nClasses int,
	opt verify.Options, r *verify.Report) error {
	o, err := verify.NewOriginals(opt.Original, m)
	if err != nil {
		return err
	}
	nq := len(m.QIs)
	sa := gen.Columns[nq]
	saMultiset(o, fileGen, sa, gen.Rows, r)
	r.Add(gen.Rows == o.Rows(), "records", "generalized.csv has one row per published original record (%d rows, %d records)", gen.Rows, o.Rows())
	covered := func(row, in int) bool {
		for q, name := range m.QIs {
			v, _ := o.Text(o.QIs[q], in)
			if !doms[name].covers(gen.Columns[q].Value(row), v) {
				return false
			}
		}
		v, _ := o.Text(o.SA, in)
		return v == sa.Value(row)
	}
	var rows []int
	if opt.Audit != nil {
		rows = opt.Audit.RowMap[fileGen]
	}
	if len(rows) > 0 {
		published := map[int]bool{}
		for _, rs := range o.ByKey {
			for _, x := range rs {
				published[x] = true
			}
		}
		fits := len(rows) == gen.Rows && distinctRows(rows)
		for row := 0; fits && row < gen.Rows; row++ {
			fits = published[rows[row]] && covered(row, rows[row])
		}
		r.Add(fits, "generalization", "the audit record pins every row of generalized.csv to a distinct original record whose values its labels cover and whose sensitive value it keeps")
		if fits {
			verify.Shuffled(fileGen, rows, nClasses, r)
		}
		return nil
	}
	// Without the audit record: a maximum matching of published rows onto
	// original records they cover, by distinct (labels, value) and
	// (values, value) combinations; only when it stays small.
	type group struct {
		row   int // a representative row
		count int
	}
	pub := map[string]*group{}
	var pubKeys []string
	for row := 0; row < gen.Rows; row++ {
		key := verify.PublishedKey(gen.Columns, row)
		if g, ok := pub[key]; ok {
			g.count++
			continue
		}
		pub[key] = &group{row: row, count: 1}
		pubKeys = append(pubKeys, key)
	}
	// Original records by QI values and sensitive value.
	origRows := map[string][]int{}
	for key, rs := range o.ByKey {
		for _, x := range rs {
			v, _ := o.Text(o.SA, x)
			origRows[key+v] = append(origRows[key+v], x)
		}
	}
	origKeys := make([]string, 0, len(origRows))
	for key := range origRows {
		origKeys = append(origKeys, key)
	}
	sort.Strings(origKeys)
	if len(pubKeys)*len(origKeys) > 4_000_000 {
		r.Add(false, "generalization", "undetermined: %d x %d combinations are too many to match without the audit record written beside the release", len(pubKeys), len(origKeys))
		return nil
	}
	f := verify.NewFlow()
	src, sink := f.Node(), f.Node()
	origNode := map[string]int{}
	for _, key := range origKeys {
		n := f.Node()
		origNode[key] = n
		f.Edge(n, sink, len(origRows[key]))
	}
	for _, key := range pubKeys {
		g := pub[key]
		n := f.Node()
		f.Edge(src, n, g.count)
		for _, ok := range origKeys {
			if covered(g.row, origRows[ok][0]) {
				f.Edge(n, origNode[ok], g.count)
			}
		}
	}
	matched := f.MaxFlow(src, sink)
	r.Add(matched == gen.Rows, "generalization", "%d of %d rows of generalized.csv match distinct original records whose values their labels cover", matched, gen.Rows)
	return nil
}
