package check

import (
	"math"
	"path/filepath"
	"sort"

	"privlab/algorithms/figure"
	"privlab/algorithms/lossyjoin/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// generalizedColumns reads generalized.csv and domains.csv (at once) and
// binds the manifest's names to their headers. Nothing more is read when
// they do not.
func generalizedColumns(c *ctx, r *verify.Report) error {
	tables, err := c.rel.Tables(fileGen, fileDom)
	if err != nil {
		return err
	}
	c.gen, c.dom = tables[0], tables[1]
	okG := r.BindNames(fileGen, c.gen, format.GeneralizedHeader(c.m.QIs, c.m.SA))
	okD := r.BindNames(fileDom, c.dom, format.DomainsHeader)
	if !okG || !okD {
		return verify.ErrStop
	}
	return nil
}

// domainsLine: domains.csv gives every quasi-identifier a domain whose
// labels nest like a hierarchy's subdomains (readDomains). Nothing more
// is read when it does not.
func domainsLine(c *ctx, r *verify.Report) error {
	doms, ok := readDomains(c.rel, c.dom, c.m.QIs, r)
	if !ok {
		return verify.ErrStop
	}
	c.doms = doms
	return nil
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
		if !out[q].nested(q, r) {
			return nil, false
		}
	}
	r.Add(true, "domains", "domains.csv gives every quasi-identifier a domain whose labels nest like a hierarchy's subdomains")
	return out, true
}

// nested finds the domain's root (the label with the most values) and
// checks its labels are laminar: the labels holding a value form a chain
// of subsets, all within the root.
func (d *domain) nested(q string, r *verify.Report) bool {
	for l, vs := range d.values {
		if d.root == "" || len(vs) > len(d.values[d.root]) || (len(vs) == len(d.values[d.root]) && l < d.root) {
			d.root = l
		}
	}
	if d.root == "" {
		r.Add(false, "domains", "domains.csv lists no domain for %s", q)
		return false
	}
	holders := map[string][]string{}
	for l, vs := range d.values {
		for _, v := range vs {
			holders[v] = append(holders[v], l)
		}
	}
	for v, ls := range holders {
		if !d.set[d.root][v] {
			r.Add(false, "domains", "%s: value %q of label %q is outside the domain %q", q, v, ls[0], d.root)
			return false
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
					return false
				}
			}
		}
	}
	return true
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

// generalized are generalized.csv's QID-ECs (records with the same
// generalized QIs, numbered on codes), every row's class, the labels
// domains.csv lacks, and NCP (the mean span of a published label).
type generalized struct {
	cl      *classes
	classOf []int
	unknown int
	ncp     float64
}

// generalizedOf reads the classes once.
func (c *ctx) generalizedOf() *generalized {
	g, _ := c.genCl.Get(func() (*generalized, error) { return readGeneralized(c), nil })
	return g
}

func readGeneralized(c *ctx) *generalized {
	gen, nq := c.gen, len(c.m.QIs)
	g := &generalized{cl: &classes{}, classOf: make([]int, gen.Rows)}
	span := make([][]float64, nq) // per QI, per code: the label's span (NaN: no label)
	radix := make([]uint64, nq)
	for q, name := range c.m.QIs {
		col := gen.Columns[q]
		span[q] = make([]float64, len(col.Dict)+1)
		for code := range span[q] {
			span[q][code] = math.NaN()
			if label := textOf(col, code); c.doms[name].values[label] != nil {
				span[q][code] = c.doms[name].span(label)
			}
		}
		radix[q] = uint64(len(col.Dict) + 1)
	}
	keys := verify.NewTupleKeys(radix)
	codes := make([]uint32, nq)
	sa := gen.Columns[nq]
	for row := 0; row < gen.Rows; row++ {
		for q := range codes {
			code := verify.Code(gen.Columns[q], row)
			codes[q] = uint32(code)
			if s := span[q][code]; math.IsNaN(s) {
				g.unknown++
			} else {
				g.ncp += s
			}
		}
		i := int(keys.ID(codes))
		if i == len(g.cl.ids) {
			g.cl.add(verify.PublishedKey(gen.Columns[:nq], row))
		}
		g.cl.size[i]++
		g.cl.counts[i][sa.Value(row)]++
		g.classOf[row] = i
	}
	g.ncp /= math.Max(1, float64(gen.Rows*nq))
	return g
}

// labels: every generalized value is a label of domains.csv.
func labels(c *ctx, r *verify.Report) error {
	r.Add(c.generalizedOf().unknown == 0, "labels", "every generalized value of generalized.csv is a label of domains.csv (%d are not)", c.generalizedOf().unknown)
	return nil
}

// domainEntries: the details count domains.csv's rows.
func domainEntries(c *ctx, r *verify.Report) error {
	r.Claim("details.domain_entries", float64(c.det.DomainEntries), float64(c.dom.Rows))
	return nil
}

// generalizedClaims holds the manifest's counts, worst cases and utility
// to the files (verify.Report.Compare).
func generalizedClaims(c *ctx, r *verify.Report) error {
	g := c.generalizedOf()
	figures, holds := worst(g.cl, c.k, c.alpha)
	figures[figure.NCP.Name], figures[figOldNCP] = g.ncp, g.ncp
	r.Compare(c.rel, verify.Recomputed{Groups: len(g.cl.ids), Published: c.gen.Rows,
		Tables: map[string]*model.Table{fileGen: c.gen, fileDom: c.dom}, Figures: figures, Holds: holds}, c.opt)
	return nil
}

// genOriginal is generalized.csv held to the original: the sensitive
// multiset is the original's and every record is a distinct original
// record whose values its generalized labels cover, pinned by the audit
// record or decided by a maximum flow over combinations (genMatched).
type genOriginal struct {
	o        *verify.Original
	saDiffer int
	// rows are the audit record's row map (nil: none) and fits whether
	// it pins every row; without it matched rows of pubN published and
	// origN original combinations.
	rows                 []int
	fits                 bool
	matched, pubN, origN int
}

// genOriginalOf compares the release with the original once.
func (c *ctx) genOriginalOf() (*genOriginal, error) {
	return c.genOrig.Get(func() (*genOriginal, error) {
		o, err := verify.NewOriginal(c.opt.Original, c.m)
		if err != nil {
			return nil, err
		}
		f := &genOriginal{o: o, saDiffer: saDiffer(o, c.gen.Columns[len(c.m.QIs)])}
		if c.opt.Audit != nil {
			f.rows = c.opt.Audit.RowMap[fileGen]
		}
		if len(f.rows) > 0 {
			f.fits = genPinned(c, o, f.rows)
		} else {
			f.matched, f.pubN, f.origN = genMatched(c.m, c.gen, c.doms, o)
		}
		return f, nil
	})
}

// genPinned: the row map pins every row of generalized.csv to a distinct
// published original record whose values its labels cover and whose
// sensitive value it keeps.
func genPinned(c *ctx, o *verify.Original, rows []int) bool {
	gen, sa := c.gen, c.gen.Columns[len(c.m.QIs)]
	fits := len(rows) == gen.Rows && distinctRows(rows)
	for row := 0; fits && row < gen.Rows; row++ {
		in := rows[row]
		fits = in >= 0 && in < len(o.Kept) && o.Kept[in]
		for q, name := range c.m.QIs {
			v, _ := o.Text(o.QIs[q], in)
			fits = fits && c.doms[name].covers(gen.Columns[q].Value(row), v)
		}
		if fits {
			v, _ := o.Text(o.SA, in)
			fits = v == sa.Value(row)
		}
	}
	return fits
}

// generalizedSensitiveValues: generalized.csv's sensitive values are
// exactly the original's.
func generalizedSensitiveValues(c *ctx, r *verify.Report) error {
	f, err := c.genOriginalOf()
	if err != nil {
		return err
	}
	r.Add(f.saDiffer == 0, "sensitive values", "the sensitive values of %s are exactly the original's (%d values differ in count)", fileGen, f.saDiffer)
	return nil
}

// records: generalized.csv has one row per published original record.
func records(c *ctx, r *verify.Report) error {
	if f, err := c.genOriginalOf(); err == nil {
		r.Add(c.gen.Rows == f.o.Rows, "records", "generalized.csv has one row per published original record (%d rows, %d records)", c.gen.Rows, f.o.Rows)
	}
	return nil
}

// generalization: every row of generalized.csv is a distinct original
// record whose values its labels cover, with its sensitive value (by the
// audit record, in shuffled order; without it some assignment exists).
func generalization(c *ctx, r *verify.Report) error {
	f, err := c.genOriginalOf()
	switch {
	case err != nil:
	case len(f.rows) > 0:
		r.Add(f.fits, "generalization", "the audit record pins every row of generalized.csv to a distinct original record whose values its labels cover and whose sensitive value it keeps")
		if f.fits {
			verify.Shuffled(fileGen, f.rows, len(c.generalizedOf().cl.ids), r)
		}
	default:
		r.Add(f.matched == c.gen.Rows, "generalization", "%d of %d rows of generalized.csv match distinct original records whose values their labels cover, with their sensitive value (maximum flow over %d published and %d original combinations, without the audit record, which alone says which row is which)",
			f.matched, c.gen.Rows, f.pubN, f.origN)
	}
	return nil
}
