// Package check is the independent checker of lossyjoin releases (Wong,
// Liu, Yin, Huang, Fu, Pei, (alpha,k)-anonymity by lossy join). From
// nss.csv and ss.csv (variants lossy and anatomy) or generalized.csv and
// domains.csv (variant alpha) it recomputes every class's size and largest
// sensitive share and holds them to k and alpha (generalized
// (alpha,k)-anonymity, Definition 1), recomputes every figure the manifest
// states, and with the original table proves the release faithful: the
// published QI and SA multisets are the original's, every class's
// sensitive values are those of its records, and row order links neither
// file to the input nor NSS to SS. The audit record pins every row to its
// record; without it the classes are held to the original by maximum
// flows (assignable) and the row order by a test against independent
// shuffles (positionLink). It imports model and algorithms/verify only,
// never the method.
package check

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"path/filepath"
	"slices"
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

// maxCount is class i's largest count of one sensitive value.
func (c *classes) maxCount(i int) int {
	m := 0
	for _, n := range c.counts[i] {
		m = max(m, n)
	}
	return m
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

// feasible is the (alpha,k) test of one class, exact: maxCount <= alpha
// x size on integers, alpha the decimal the manifest states (0.4999999999
// is not 1/2).
func feasible(size, maxCount, k int, alpha model.Bound) bool {
	return size >= k && alpha.Allows(maxCount, size)
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
func params(m *model.Manifest, r *verify.Report) (int, model.Bound) {
	k, err := strconv.Atoi(strings.TrimSpace(m.Parameters["k"]))
	kok := err == nil && k >= 2
	alpha, aok := model.ParseBound(m.Parameters["alpha"])
	aok = aok && alpha.Rat().Sign() > 0 && alpha.Rat().Cmp(big.NewRat(1, 1)) <= 0
	r.Add(kok && aok, "parameters", "k = %q (an integer >= 2) and alpha = %q (in (0,1])", m.Parameters["k"], m.Parameters["alpha"])
	if !kok {
		k = 2
	}
	if !aok {
		alpha, _ = model.ParseBound("1")
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
	d := &details{}
	if err := verify.DecodeDetails(rel.Manifest, d); err != nil {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: "details: " + err.Error()}
	}
	return d, nil
}

// checkJoin verifies nss.csv and ss.csv.
func checkJoin(rel *verify.Release, opt verify.Options, r *verify.Report, k int, alpha model.Bound, det *details) error {
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
	nssSize := map[string]int{}
	for row := 0; row < nss.Rows; row++ {
		nssSize[nssClass.Value(row)]++
	}
	cl, index, ssOf := readClasses(ssClass, saCol, ss.Rows)
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
		l := alpha.MinSize(1) // ceil(1/alpha), exactly
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

// readClasses reads the classes of ss.csv: each ClassID's size and
// sensitive values, its index, and the class of every row.
func readClasses(ssClass, saCol *model.Column, rows int) (*classes, map[string]int, []int) {
	cl := &classes{}
	index := map[string]int{}
	ssOf := make([]int, rows)
	for row := 0; row < rows; row++ {
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
	return cl, index, ssOf
}

// judge adds the (alpha,k) lines.
func judge(cl *classes, k int, alpha model.Bound, r *verify.Report) {
	small, over := 0, 0
	worstID := ""
	for i := range cl.ids {
		if cl.size[i] < k {
			small++
		}
		if !feasible(cl.size[i], cl.maxCount(i), 1, alpha) {
			over++
			worstID = cl.ids[i]
		}
	}
	r.Add(len(cl.ids) > 0, "classes", "%d classes", len(cl.ids))
	r.Add(small == 0, "k-anonymity", "every class holds at least k = %d records (%d classes fewer)", k, small)
	if over == 0 {
		r.Add(true, "alpha", "no sensitive value exceeds alpha = %s of its class (Definition 1)", model.FormatNumber(alpha.Float()))
	} else {
		r.Add(false, "alpha", "%d classes have a sensitive value above alpha = %s (e.g. class %s)", over, model.FormatNumber(alpha.Float()), worstID)
	}
}

// worst recomputes the worst cases.
func worst(cl *classes, k int, alpha model.Bound) map[string]float64 {
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

func holds(cl *classes, k int, alpha model.Bound) map[string]bool {
	w := worst(cl, k, alpha)
	within := true
	for i := range cl.ids {
		within = within && feasible(cl.size[i], cl.maxCount(i), 1, alpha)
	}
	return map[string]bool{figSmallest: w[figSmallest] >= float64(k), figFraction: within}
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
// (Temp table of Section 3, projected), and row order links nothing. With
// the audit record's row map of nss.csv the records are pinned exactly;
// without it (local recoding splits identical QI tuples across classes,
// so the files alone cannot pin them) the check decides whether an
// assignment of the original records to the classes exists (assignable)
// and tests the row order statistically (positionLink).
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
	// nssOf is the class of each nss.csv row (-1: a ClassID ss.csv lacks,
	// which "one record per row" has failed).
	nssOf := make([]int, nss.Rows)
	classesOf := map[string]map[int]bool{}
	for row, key := range keys {
		i, ok := index[nssClass.Value(row)]
		if !ok {
			i = -1
		}
		nssOf[row] = i
		if classesOf[key] == nil {
			classesOf[key] = map[int]bool{}
		}
		classesOf[key][i] = true
	}
	if opt.Audit == nil || len(opt.Audit.RowMap[fileNSS]) == 0 {
		withoutAudit(o, keys, nssOf, classesOf, ss, ssOf, cl, r)
		return nil
	}
	pinned, ok := o.Pin(fileNSS, keys, opt.Audit, nil, r)
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
		i := nssOf[row]
		if i < 0 {
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

	// ss.csv rows are pinned by the audit record only; without its row
	// map of ss.csv the row order is tested against independent shuffles.
	ssRows := opt.Audit.RowMap[fileSS]
	if len(ssRows) == 0 {
		allowed := make([][]string, len(pinned))
		for row, in := range pinned {
			v, _ := o.Text(o.SA, in)
			allowed[row] = []string{v}
		}
		positionLink(nssOf, allowed, "the audit record pins", ss, ssOf, cl, r)
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

// withoutAudit checks nss.csv and ss.csv against the original when no
// audit record pins the rows. Local recoding (Algorithm 1, Section 6)
// puts records with identical QI tuples into different classes, so which
// original record a row of such a tuple is cannot be read from the
// files; what can be decided is whether the original records can be
// distributed over the classes so that every class receives exactly its
// nss.csv QI tuples and its ss.csv sensitive values (assignable). The
// rows whose tuple lies in one class are pinned, and their order is held
// against the input's and, position by position, against ss.csv's
// (positionLink).
func withoutAudit(o *verify.Originals, keys []string, nssOf []int, classesOf map[string]map[int]bool,
	ss *model.Table, ssOf []int, cl *classes, r *verify.Report) {
	assignable(o, keys, nssOf, cl, r)
	// Rows of tuples that lie in one class: interchangeable records, so
	// pinned in the original's order of the tuple's rows.
	next := map[string]int{}
	var order []int
	distinct := map[string]bool{}
	allowed := make([][]string, len(keys))
	valuesOf := map[string][]string{}
	for row, key := range keys {
		if len(classesOf[key]) != 1 || nssOf[row] < 0 {
			continue
		}
		order = append(order, o.ByKey[key][next[key]])
		next[key]++
		distinct[key] = true
		vs, ok := valuesOf[key]
		if !ok {
			seen := map[string]bool{}
			for _, in := range o.ByKey[key] {
				v, _ := o.Text(o.SA, in)
				if !seen[v] {
					seen[v] = true
					vs = append(vs, v)
				}
			}
			valuesOf[key] = vs
		}
		allowed[row] = vs
	}
	verify.Shuffled(fileNSS, order, len(distinct), r)
	positionLink(nssOf, allowed, "the QI values pin (their tuple lies in one class)", ss, ssOf, cl, r)
}

// assignable decides whether the original records can be the classes'
// members: for every QI tuple (key) its original records, each with its
// sensitive value, must be distributed over the classes so that class c
// receives exactly nss(c, key) of them (its nss.csv rows of the tuple) and,
// over all tuples, exactly ss(c, v) records of each sensitive value v (its
// ss.csv rows). With x(key, v, c) the records of tuple key and value v in
// class c, the margins are
//
//	sum_c x(key, v, c) = orig(key, v), sum_v x(key, v, c) = nss(c, key), sum_key x(key, v, c) = ss(c, v).
//
// Two maximum flows test two pairs of margins: (key, v) -> (c, v) with
// capacity nss(c, key) into sinks ss(c, v), and (key, v) -> (key, c) with
// capacity ss(c, v) into sinks nss(c, key). Each is a necessary condition
// (both must carry every record), but the three margins together form a
// three-way transportation problem the flows only bound. So the check
// also builds an assignment (peel): where the files force one, class by
// class, a contradiction disproves the release; elsewhere it tries one
// that fits. A complete assignment proves the release consistent with
// the original; without one the line says the flows are necessary, not
// sufficient.
func assignable(o *verify.Originals, keys []string, nssOf []int, cl *classes, r *verify.Report) {
	orig := map[keyValue]int{}
	var pairs []keyValue
	n := 0
	for key, rows := range o.ByKey {
		for _, in := range rows {
			v, _ := o.Text(o.SA, in)
			kv := keyValue{key, v}
			if orig[kv] == 0 {
				pairs = append(pairs, kv)
			}
			orig[kv]++
			n++
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].key != pairs[j].key {
			return pairs[i].key < pairs[j].key
		}
		return pairs[i].v < pairs[j].v
	})
	nssCount := map[keyClass]int{}
	classList := map[string][]int{}
	unknown := 0
	for row, key := range keys {
		c := nssOf[row]
		if c < 0 {
			unknown++
			continue
		}
		kc := keyClass{key, c}
		if nssCount[kc] == 0 {
			classList[key] = append(classList[key], c)
		}
		nssCount[kc]++
	}
	for _, cs := range classList {
		sort.Ints(cs)
	}
	// Flow 1: tuple and value to class and value.
	f1 := verify.NewFlow()
	src1, sink1 := f1.Node(), f1.Node()
	type classValue struct {
		c int
		v string
	}
	cvNode := map[classValue]int{}
	for c := range cl.ids {
		vs := make([]string, 0, len(cl.counts[c]))
		for v := range cl.counts[c] {
			vs = append(vs, v)
		}
		sort.Strings(vs)
		for _, v := range vs {
			node := f1.Node()
			cvNode[classValue{c, v}] = node
			f1.Edge(node, sink1, cl.counts[c][v])
		}
	}
	for _, kv := range pairs {
		node := f1.Node()
		f1.Edge(src1, node, orig[kv])
		for _, c := range classList[kv.key] {
			if to, ok := cvNode[classValue{c, kv.v}]; ok {
				f1.Edge(node, to, nssCount[keyClass{kv.key, c}])
			}
		}
	}
	flow1 := f1.MaxFlow(src1, sink1)
	// Flow 2: tuple and value to tuple and class.
	f2 := verify.NewFlow()
	src2, sink2 := f2.Node(), f2.Node()
	kcNode := map[keyClass]int{}
	for _, kv := range pairs {
		node := f2.Node()
		f2.Edge(src2, node, orig[kv])
		for _, c := range classList[kv.key] {
			kc := keyClass{kv.key, c}
			to, ok := kcNode[kc]
			if !ok {
				to = f2.Node()
				kcNode[kc] = to
				f2.Edge(to, sink2, nssCount[kc])
			}
			if s := cl.counts[c][kv.v]; s > 0 {
				f2.Edge(node, to, s)
			}
		}
	}
	flow2 := f2.MaxFlow(src2, sink2)

	spanning := 0
	for _, cs := range classList {
		if len(cs) > 1 {
			spanning++
		}
	}
	left, contradiction := peel(orig, classList, nssCount, cl)
	what := fmt.Sprintf("the original records can be distributed over the classes so that each receives exactly its nss.csv QI tuples and its ss.csv sensitive values (maximum flows %d and %d of %d records; %d QI tuples lie in more than one class", flow1, flow2, n, spanning)
	switch {
	case flow1 != n || flow2 != n || unknown > 0:
		r.Add(false, "classes faithful", "no assignment of the original records to the classes gives each class its nss.csv QI tuples and its ss.csv sensitive values (maximum flows %d and %d of %d records): some class's ss.csv values are not those of its nss.csv records", flow1, flow2, n)
	case contradiction != "":
		r.Add(false, "classes faithful", "no assignment of the original records to the classes gives each class its nss.csv QI tuples and its ss.csv sensitive values: %s", contradiction)
	case left == 0:
		r.Add(true, "classes faithful", "consistent with the original: %s, and an assignment of every record was found, class by class; the audit record pins it exactly)", what)
	default:
		r.Add(true, "classes faithful", "consistent, not proven without the audit record: %s; for %d classes no assignment was found, and the flows are necessary, not sufficient)", what, left)
	}
}

type keyValue struct{ key, v string }

type keyClass struct {
	key string
	c   int
}

// peel fixes the assignment class by class where the files force it. A
// class whose QI tuples all lie in no other unfixed class takes all their
// remaining records; a class with one tuple that lies elsewhere too takes
// the records of its other tuples and, of that tuple, exactly the
// sensitive values its ss.csv rows still lack. Each step is forced, so a
// count that does not fit (a tuple's remaining records not its nss.csv
// rows, a class short of a value) proves that no assignment exists
// (contradiction); when every class is fixed the steps are an assignment
// (left = 0). Fixing a class can leave a tuple in one unfixed class,
// which may then be fixed in turn. The classes still unfixed then take,
// one by one, records that fit (fitClass), in up to four orders: left
// counts the classes of the best order that found none.
func peel(orig map[keyValue]int, classList map[string][]int, nssCount map[keyClass]int, cl *classes) (left int, contradiction string) {
	remainingOf := map[string]map[string]int{} // key -> value -> records not yet placed
	for kv, x := range orig {
		if remainingOf[kv.key] == nil {
			remainingOf[kv.key] = map[string]int{}
		}
		remainingOf[kv.key][kv.v] = x
	}
	keysOf := make([][]string, len(cl.ids))
	open := map[string]int{} // key -> unfixed classes holding it
	var sorted []string
	for key := range classList {
		sorted = append(sorted, key)
	}
	sort.Strings(sorted)
	for _, key := range sorted {
		for _, c := range classList[key] {
			keysOf[c] = append(keysOf[c], key)
		}
		open[key] = len(classList[key])
	}
	fixed := make([]bool, len(cl.ids))
	queue := make([]int, len(cl.ids))
	for c := range queue {
		queue[c] = c
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if fixed[c] {
			continue
		}
		shared := ""
		several := false
		for _, key := range keysOf[c] {
			if open[key] > 1 {
				several = shared != ""
				shared = key
				if several {
					break
				}
			}
		}
		if several {
			continue
		}
		need := map[string]int{}
		for v, x := range cl.counts[c] {
			need[v] = x
		}
		for _, key := range keysOf[c] {
			if key == shared {
				continue
			}
			total := 0
			for v, x := range remainingOf[key] {
				total += x
				need[v] -= x
				if need[v] < 0 {
					return 0, fmt.Sprintf("class %s holds every remaining record of a QI tuple, whose %s values are more than its ss.csv rows of %s", cl.ids[c], v, v)
				}
			}
			if total != nssCount[keyClass{key, c}] {
				return 0, fmt.Sprintf("class %s holds every remaining record of a QI tuple: %d, not its %d nss.csv rows of the tuple", cl.ids[c], total, nssCount[keyClass{key, c}])
			}
			remainingOf[key] = nil
			open[key] = 0
		}
		total := 0
		for v, x := range need {
			total += x
			if shared == "" && x != 0 {
				return 0, fmt.Sprintf("class %s's records give %s %d times fewer than its ss.csv rows", cl.ids[c], v, x)
			}
		}
		if shared != "" {
			if total != nssCount[keyClass{shared, c}] {
				return 0, fmt.Sprintf("class %s lacks %d sensitive values for its %d nss.csv rows of a QI tuple", cl.ids[c], total, nssCount[keyClass{shared, c}])
			}
			for v, x := range need {
				if x > remainingOf[shared][v] {
					return 0, fmt.Sprintf("class %s needs %d more records of value %s from a QI tuple that has %d left", cl.ids[c], x, v, remainingOf[shared][v])
				}
				remainingOf[shared][v] -= x
			}
			open[shared]--
			if open[shared] == 1 {
				for _, other := range classList[shared] {
					if !fixed[other] && other != c {
						queue = append(queue, other)
					}
				}
			}
		}
		fixed[c] = true
	}
	// The rest: class by class, records that fit (a transportation
	// problem within the class, taking plentiful records first). Success
	// is an assignment; a class that finds none proves nothing, so three
	// other orders of the classes are tried.
	var rest []int
	involved := map[string]bool{}
	for c := range fixed {
		if !fixed[c] {
			rest = append(rest, c)
			for _, key := range keysOf[c] {
				involved[key] = true
			}
		}
	}
	if len(rest) == 0 {
		return 0, ""
	}
	saved := map[string]map[string]int{}
	for key := range involved {
		saved[key] = maps.Clone(remainingOf[key])
	}
	rng := model.NewRand(1)
	left = len(rest)
	for attempt := 0; attempt < 4 && left > 0; attempt++ {
		order := append([]int(nil), rest...)
		switch {
		case attempt == 1:
			slices.Reverse(order)
		case attempt > 1:
			for i := len(order) - 1; i > 0; i-- {
				j := rng.Intn(i + 1)
				order[i], order[j] = order[j], order[i]
			}
		}
		for key := range involved {
			remainingOf[key] = maps.Clone(saved[key])
		}
		failed := 0
		for _, c := range order {
			if !fitClass(c, keysOf[c], cl, nssCount, remainingOf) {
				failed++
			}
		}
		left = min(left, failed)
	}
	return left, ""
}

// fitClass places records of the class's QI tuples (remaining) into
// class c so that it receives exactly its nss.csv tuples and ss.csv
// values, and takes them from remaining; false when none fit.
func fitClass(c int, keys []string, cl *classes, nssCount map[keyClass]int, remaining map[string]map[string]int) bool {
	vs := make([]string, 0, len(cl.counts[c]))
	for v := range cl.counts[c] {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	supply := make([]int, len(keys))
	capacity := make([][]int, len(keys))
	for i, key := range keys {
		supply[i] = nssCount[keyClass{key, c}]
		capacity[i] = make([]int, len(vs))
		for j, v := range vs {
			capacity[i][j] = remaining[key][v]
		}
	}
	demand := make([]int, len(vs))
	for j, v := range vs {
		demand[j] = cl.counts[c][v]
	}
	x, ok := transport(supply, demand, capacity)
	if !ok {
		return false
	}
	for i, key := range keys {
		for j, v := range vs {
			remaining[key][v] -= x[i][j]
		}
	}
	return true
}

// transport finds x[i][j] <= capacity[i][j] with row sums supply and
// column sums demand (equal totals), by augmenting paths; false when
// none exists.
func transport(supply, demand []int, capacity [][]int) ([][]int, bool) {
	total, want := 0, 0
	for _, s := range supply {
		total += s
	}
	for _, d := range demand {
		want += d
	}
	if total != want {
		return nil, false
	}
	nr, nc := len(supply), len(demand)
	x := make([][]int, nr)
	for i := range x {
		x[i] = make([]int, nc)
	}
	// Each row tries its columns by capacity, largest first.
	byCapacity := make([][]int, nr)
	for i := range byCapacity {
		byCapacity[i] = make([]int, nc)
		for j := range byCapacity[i] {
			byCapacity[i][j] = j
		}
		sort.SliceStable(byCapacity[i], func(a, b int) bool {
			return capacity[i][byCapacity[i][a]] > capacity[i][byCapacity[i][b]]
		})
	}
	rowLeft := append([]int(nil), supply...)
	colLeft := append([]int(nil), demand...)
	for flow := 0; flow < total; {
		// Breadth-first search from rows with supply left: a row reaches
		// column j through spare capacity, a column reaches row i back
		// through flow already placed.
		fromRow := make([]int, nc) // column -> row it was reached from
		fromCol := make([]int, nr) // row -> column it was reached from (-1: a start)
		seenRow := make([]bool, nr)
		seenCol := make([]bool, nc)
		var queue []int
		for i := range rowLeft {
			if rowLeft[i] > 0 {
				seenRow[i] = true
				fromCol[i] = -1
				queue = append(queue, i)
			}
		}
		end := -1
		for len(queue) > 0 && end < 0 {
			i := queue[0]
			queue = queue[1:]
			for _, j := range byCapacity[i] {
				if seenCol[j] || x[i][j] >= capacity[i][j] {
					continue
				}
				seenCol[j] = true
				fromRow[j] = i
				if colLeft[j] > 0 {
					end = j
					break
				}
				for k := 0; k < nr; k++ {
					if !seenRow[k] && x[k][j] > 0 {
						seenRow[k] = true
						fromCol[k] = j
						queue = append(queue, k)
					}
				}
			}
		}
		if end < 0 {
			return nil, false
		}
		// Push one unit back along the path.
		j := end
		colLeft[j]--
		for {
			i := fromRow[j]
			x[i][j]++
			prev := fromCol[i]
			if prev < 0 {
				rowLeft[i]--
				break
			}
			x[i][prev]--
			j = prev
		}
		flow++
	}
	return x, true
}

// falseAlarm is the chance of failing a genuine release the position
// test allows.
const falseAlarm = 1e-9

// positionLink tests whether row order pairs nss.csv with ss.csv when no
// audit record pins ss.csv's rows (Section 5 publishes the two tables
// shuffled independently). allowed[i] lists the sensitive values the
// record behind nss.csv row i can have (nil: the row is not pinned);
// position i matches when ss.csv row i has nss.csv row i's class and one
// of those values. Independent shuffles put a uniformly random record at
// position i, which matches with probability p_i = sum over the allowed
// values v of count_c(v)/n (c the row's class, count_c(v) its ss.csv rows
// of value v); the matches number sum p_i on average, with variance about
// sum p_i(1-p_i). By Bernstein's inequality they exceed the mean by t
// with probability at most exp(-t^2/(2(var + t/3))): a count above the
// mean by the t that makes this 1e-9 fails (about 6.4 standard
// deviations when they are many, never less than 2 ln(1e9)/3, about 14,
// matches), and so does a match at every one of ten or more pinned
// positions (a ss.csv written in nss.csv's record order) unless every
// position is bound to match. The generator redraws a shuffle this test
// would fail.
func positionLink(nssOf []int, allowed [][]string, pinnedBy string, ss *model.Table, ssOf []int, cl *classes, r *verify.Report) {
	n := ss.Rows
	sa := ss.Columns[1]
	matches, pinned := 0, 0
	mean, variance := 0.0, 0.0
	for i := 0; i < len(allowed) && i < n; i++ {
		c := nssOf[i]
		if allowed[i] == nil || c < 0 {
			continue
		}
		pinned++
		in := 0
		for _, v := range allowed[i] {
			in += cl.counts[c][v]
		}
		p := float64(in) / float64(n)
		mean += p
		variance += p * (1 - p)
		if ssOf[i] == c && slices.Contains(allowed[i], sa.Value(i)) {
			matches++
		}
	}
	limit := math.Log(1 / falseAlarm)
	t := limit/3 + math.Sqrt(limit*limit/9+2*limit*variance)
	everyOne := pinned >= 10 && matches == pinned && mean < float64(pinned)-1e-9
	linked := float64(matches) > mean+t || everyOne
	r.Add(!linked, "position link", "row i of ss.csv has the class and a sensitive value of the record behind row i of nss.csv at %d of the %d positions whose record %s; independent shuffles give %.1f, standard deviation %.1f, and more than %.1f, or all of ten or more, is a link",
		matches, pinned, pinnedBy, mean, math.Sqrt(variance), mean+t)
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
func checkGeneralized(rel *verify.Release, opt verify.Options, r *verify.Report, k int, alpha model.Bound, det *details) error {
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
	// Without the audit record: a maximum flow over distinct combinations
	// (genMatched) decides whether the rows can go to distinct records.
	matched, pubN, origN := genMatched(m, gen, doms, o)
	r.Add(matched == gen.Rows, "generalization", "%d of %d rows of generalized.csv match distinct original records whose values their labels cover, with their sensitive value (maximum flow over %d published and %d original combinations, without the audit record, which alone says which row is which)",
		matched, gen.Rows, pubN, origN)
	return nil
}
