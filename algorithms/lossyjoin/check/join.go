package check

import (
	"fmt"
	"math"
	"strings"

	"privlab/algorithms/lossyjoin/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

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
	s := c.size[i]
	if s == 0 {
		return 0, 0, 0
	}
	return float64(s), float64(c.maxCount(i)) / float64(s), float64(len(c.counts[i]))
}

// feasible is the (alpha,k) test of one class, exact: maxCount <= alpha
// x size on integers, alpha the decimal the manifest states (0.4999999999
// is not 1/2).
func feasible(size, maxCount, k int, alpha model.Bound) bool {
	return size >= k && alpha.Allows(maxCount, size)
}

// joined are the classes of nss.csv and ss.csv: the classes (sizes and
// values from ss.csv), each ClassID's index, the class of every ss.csv
// row, and the classes whose nss.csv size differs.
type joined struct {
	cl     *classes
	index  map[string]int
	ssOf   []int
	differ int
}

// joinColumns reads nss.csv and ss.csv (at once) and binds the
// manifest's names to their headers. Nothing more is read when they do
// not.
func joinColumns(c *ctx, r *verify.Report) error {
	tables, err := c.rel.Tables(fileNSS, fileSS)
	if err != nil {
		return err
	}
	c.nss, c.ss = tables[0], tables[1]
	okN := r.BindNames(fileNSS, c.nss, format.NSSHeader(c.m.QIs))
	okS := r.BindNames(fileSS, c.ss, format.SSHeader(c.m.SA))
	if !okN || !okS {
		return verify.ErrStop
	}
	r.Add(true, "columns", "nss.csv holds the %d quasi-identifiers and ClassID, ss.csv ClassID and %s (Section 5)", len(c.m.QIs), c.m.SA)
	return nil
}

// rowPairing: row order does not pair nss.csv with ss.csv, read from the
// files alone (Wong et al., Section 5: the lossy join of the two tables
// is the privacy; a ss.csv written in nss.csv's row order joins them
// back). Without the original a file whose classes follow the other's
// row by row fails: independent shuffles do not write one.
func rowPairing(c *ctx, r *verify.Report) error {
	verify.RowPairing(fileNSS, c.nss, len(c.nss.Columns)-1, fileSS, c.ss, 0, r)
	return nil
}

// joinedOf reads the classes once.
func (c *ctx) joinedOf() *joined {
	j, _ := c.classes.Get(func() (*joined, error) {
		// Read from the files alone: once for an export's two checks.
		v, err := c.rel.FileFact("lossyjoin/joined", func() (any, error) { return readJoined(c), nil })
		j, _ := v.(*joined)
		return j, err
	})
	return j
}

// readJoined reads ss.csv's classes and holds nss.csv's class sizes to
// them.
func readJoined(c *ctx) *joined {
	j := &joined{}
	j.cl, j.index, j.ssOf = readClasses(c.ss.Columns[0], c.ss.Columns[1], c.ss.Rows)
	nssClass := c.nss.Columns[len(c.m.QIs)]
	sizes := nssClass.Counts()
	for code, n := range sizes {
		if i, ok := j.index[nssClass.Dict[code]]; n > 0 && (!ok || j.cl.size[i] != n) {
			j.differ++
		}
	}
	seen := map[string]bool{}
	for code, n := range sizes {
		seen[nssClass.Dict[code]] = n > 0
	}
	for id := range j.index {
		if !seen[id] {
			j.differ++
		}
	}
	return j
}

// readClasses reads the classes of ss.csv on codes: each ClassID's size
// and sensitive values, its index, and the class of every row.
func readClasses(ssClass, saCol *model.Column, rows int) (*classes, map[string]int, []int) {
	cl := &classes{}
	index := map[string]int{}
	classOf := make([]int, len(ssClass.Dict)+1)
	for i := range classOf {
		classOf[i] = -1
	}
	counts := []map[int]int{}
	ssOf := make([]int, rows)
	for row := 0; row < rows; row++ {
		code := verify.Code(ssClass, row)
		i := classOf[code]
		if i < 0 {
			i = cl.add(ssClass.Value(row))
			index[ssClass.Value(row)] = i
			classOf[code] = i
			counts = append(counts, map[int]int{})
		}
		cl.size[i]++
		counts[i][verify.Code(saCol, row)]++
		ssOf[row] = i
	}
	for i, byCode := range counts {
		for code, n := range byCode {
			cl.counts[i][textOf(saCol, code)] += n
		}
	}
	return cl, index, ssOf
}

// textOf is a code's text ("" for the missing value, last).
func textOf(c *model.Column, code int) string {
	if code < len(c.Dict) {
		return c.Dict[code]
	}
	return ""
}

// oneRecordPerRow: every ClassID has as many rows in nss.csv as in
// ss.csv (Section 5: each row of either table is one record).
func oneRecordPerRow(c *ctx, r *verify.Report) error {
	j := c.joinedOf()
	r.Add(j.differ == 0 && c.nss.Rows == c.ss.Rows, "one record per row",
		"every ClassID has as many rows in nss.csv as in ss.csv, each row one record (%d classes differ; %d and %d rows)", j.differ, c.nss.Rows, c.ss.Rows)
	return nil
}

// classesOf are the variant's classes.
func (c *ctx) classesOf() *classes {
	if c.m.Variant == "alpha" {
		return c.generalizedOf().cl
	}
	return c.joinedOf().cl
}

// classesLine: the release has classes.
func classesLine(c *ctx, r *verify.Report) error {
	r.Add(len(c.classesOf().ids) > 0, "classes", "%d classes", len(c.classesOf().ids))
	return nil
}

// kAnonymity: every class holds at least k records (Definition 1).
func kAnonymity(c *ctx, r *verify.Report) error {
	cl, small := c.classesOf(), 0
	for i := range cl.ids {
		if cl.size[i] < c.k {
			small++
		}
	}
	r.Add(small == 0, "k-anonymity", "every class holds at least k = %d records (%d classes fewer)", c.k, small)
	return nil
}

// alphaLine: no sensitive value exceeds alpha of its class, exactly
// (Definition 1).
func alphaLine(c *ctx, r *verify.Report) error {
	cl, over, worstID := c.classesOf(), 0, ""
	for i := range cl.ids {
		if !feasible(cl.size[i], cl.maxCount(i), 1, c.alpha) {
			over++
			worstID = cl.ids[i]
		}
	}
	if over == 0 {
		r.Add(true, "alpha", "no sensitive value exceeds alpha = %s of its class (Definition 1)", model.FormatNumber(c.alpha.Float()))
	} else {
		r.Add(false, "alpha", "%d classes have a sensitive value above alpha = %s (e.g. class %s)", over, model.FormatNumber(c.alpha.Float()), worstID)
	}
	return nil
}

// lDiversity: Anatomy's classes hold at least l = ceil(1/alpha) distinct
// sensitive values.
func lDiversity(c *ctx, r *verify.Report) error {
	if c.m.Variant != "anatomy" {
		return nil
	}
	cl := c.classesOf()
	l := c.alpha.MinSize(1) // ceil(1/alpha), exactly
	r.Claim("details.l", float64(c.det.L), float64(l))
	few := 0
	for i := range cl.ids {
		if len(cl.counts[i]) < l {
			few++
		}
	}
	r.Add(few == 0, "l-diversity", "every class holds at least l = %d distinct sensitive values (Anatomy; %d classes fewer)", l, few)
	return nil
}

// remark: the manifest carries Section 5's remark.
func remark(c *ctx, r *verify.Report) error {
	r.Add(strings.Contains(c.det.Remark, "one record"), "remark", "the manifest carries Section 5's remark that each row of either table is one original record")
	return nil
}

// classClaims compares details.classes and details.group_figures with
// the classes.
func classClaims(c *ctx, r *verify.Report) error {
	cl := c.classesOf()
	r.Claim("details.classes", float64(c.det.Classes), float64(len(cl.ids)))
	want := []string{"records", "max SA frac", "SA values"}
	if len(c.det.GroupFigures) != len(want) {
		r.Add(false, "claim details.group_figures", "the manifest states %d per-class figures, the release has %d", len(c.det.GroupFigures), len(want))
		return nil
	}
	for fi, g := range c.det.GroupFigures {
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
	return nil
}

// joinRows: the lossy join of nss.csv and ss.csv on ClassID has the sum
// of the squared class sizes rows (Table 7 has 12).
func joinRows(c *ctx, r *verify.Report) error {
	r.Claim("details.join_rows", float64(c.det.JoinRows), float64(c.joinRowCount()))
	return nil
}

func (c *ctx) joinRowCount() int {
	n := 0
	for _, s := range c.joinedOf().cl.size {
		n += s * s
	}
	return n
}

// worst recomputes the worst cases, and whether they hold.
func worst(cl *classes, k int, alpha model.Bound) (map[string]float64, map[string]bool) {
	small, frac, within := math.Inf(1), 0.0, true
	for i := range cl.ids {
		s, f, _ := cl.figures(i)
		small, frac = math.Min(small, s), math.Max(frac, f)
		within = within && feasible(cl.size[i], cl.maxCount(i), 1, alpha)
	}
	if len(cl.ids) == 0 {
		small = 0
	}
	return map[string]float64{figSmallest: small, figFraction: frac}, map[string]bool{figSmallest: small >= float64(k), figFraction: within}
}

// joinClaims holds the manifest's counts, worst cases and utility to the
// files (verify.Report.Compare).
func joinClaims(c *ctx, r *verify.Report) error {
	cl := c.joinedOf().cl
	figures, holds := worst(cl, c.k, c.alpha)
	figures[figJoin] = float64(c.joinRowCount()) / math.Max(1, float64(c.nss.Rows))
	r.Compare(c.rel, verify.Recomputed{Groups: len(cl.ids), Published: c.nss.Rows,
		Tables: map[string]*model.Table{fileNSS: c.nss, fileSS: c.ss}, Figures: figures, Holds: holds}, c.opt)
	return nil
}
