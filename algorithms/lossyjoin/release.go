package lossyjoin

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"

	"privlab/algorithms/lossyjoin/format"
	"privlab/algorithms/release"
	"privlab/model"
	"privlab/model/releasedir"
)

// linked reports whether two row maps pair the same input rows at the
// same positions often enough to link the files through row order: ten
// coincidences (independent uniform shuffles give one on average, ten with
// probability about 1e-7), or every row of a file of three or more. The
// checker applies the same rule.
func linked(a, b []int) bool {
	same := 0
	for i := range a {
		if i < len(b) && a[i] == b[i] {
			same++
		}
	}
	return same >= 10 || (len(a) >= 3 && same == len(a))
}

// maxDraws bounds the shuffles of ss.csv drawn until row order links
// nothing (a draw fails with probability about 1e-9, or 1/n for a table
// of one class; a release still linked after that many fails its own
// check).
const maxDraws = 1000

// orderTest is the checker's statistical test of row order (check's
// positionLink), which runs when no audit record pins ss.csv: position i
// matches when ss.csv row i carries nss.csv row i's class and a
// sensitive value the record behind nss.csv row i may have, either its
// own (the audit record pins nss.csv) or any of its QI tuple's records'
// (the QI values pin nss.csv rows whose tuple lies in one class). A
// count far above what independent shuffles give links the files.
type orderTest struct {
	classOf []int32
	sa      []int32
	// key numbers each row's QI tuple; oneClass[key] says whether its
	// records lie in one class, and values[first[key]:first[key+1]] are
	// its records' sensitive values, in increasing order.
	key      []int32
	oneClass []bool
	first    []int32
	values   []int32
	// own[row] counts the records of the row's class with its sensitive
	// value; in[key] (a tuple in one class) the records of that class
	// whose value is one of the tuple's.
	own []int32
	in  []int32
}

// newOrderTest counts what the test needs in passes over the rows and the
// classes (no per-row map but the QI tuples' numbering), so that it stays
// linear however many sensitive values a tuple or a class holds.
func (r *run) newOrderTest() *orderTest {
	n := r.in.Table.Rows
	t := &orderTest{classOf: r.classOf, sa: r.prob.sa}
	var tuples int
	t.key, tuples = r.tupleKeys()
	// The tuples' values: rows bucketed by key, then each bucket's values
	// sorted and made distinct.
	t.first = make([]int32, tuples+1)
	for _, k := range t.key {
		t.first[k+1]++
	}
	for k := 0; k < tuples; k++ {
		t.first[k+1] += t.first[k]
	}
	next := slices.Clone(t.first[:tuples])
	vals := make([]int32, n)
	class := make([]int32, tuples)
	t.oneClass = make([]bool, tuples)
	for k := range t.oneClass {
		t.oneClass[k] = true
		class[k] = -1
	}
	for row, k := range t.key {
		vals[next[k]] = t.sa[row]
		next[k]++
		switch c := r.classOf[row]; {
		case class[k] < 0:
			class[k] = c
		case class[k] != c:
			t.oneClass[k] = false
		}
	}
	w := int32(0)
	for k := 0; k < tuples; k++ {
		vs := vals[t.first[k]:t.first[k+1]]
		slices.Sort(vs)
		t.first[k] = w
		for i, v := range vs {
			if i == 0 || v != vs[i-1] {
				vals[w] = v
				w++
			}
		}
	}
	t.first[tuples] = w
	t.values = vals[:w]
	t.countClasses(r, class)
	return t
}

// countClasses fills own and in, class by class, on a count per
// sensitive value cleared after each class.
func (t *orderTest) countClasses(r *run, tupleClass []int32) {
	t.own = make([]int32, len(t.key))
	t.in = make([]int32, len(tupleClass))
	count := make([]int32, r.prob.m+1)
	for _, c := range r.classes {
		for _, row := range c.rows {
			count[t.sa[row]]++
		}
		for _, row := range c.rows {
			t.own[row] = count[t.sa[row]]
			if k := t.key[row]; t.oneClass[k] && t.in[k] == 0 {
				for _, v := range t.tupleValues(k) {
					t.in[k] += count[v]
				}
			}
		}
		for _, row := range c.rows {
			count[t.sa[row]] = 0
		}
	}
}

// tupleValues are tuple k's sensitive values, in increasing order.
func (t *orderTest) tupleValues(k int32) []int32 { return t.values[t.first[k]:t.first[k+1]] }

// tupleKeys numbers the rows' QI tuples 0..tuples-1: on one 64-bit key
// when the codes' ranges allow it, else on their bytes.
func (r *run) tupleKeys() ([]int32, int) {
	n := r.in.Table.Rows
	key := make([]int32, n)
	mult := make([]uint64, len(r.prob.attrs))
	span, packed := uint64(1), true
	for q, a := range r.prob.attrs {
		top := uint64(0)
		for _, c := range a.codes {
			top = max(top, uint64(c))
		}
		mult[q] = span
		hi, lo := bits.Mul64(span, top+1)
		if hi != 0 {
			packed = false
			break
		}
		span = lo
	}
	if packed {
		ids := make(map[uint64]int32)
		for row := range key {
			var k uint64
			for q, a := range r.prob.attrs {
				k += uint64(a.codes[row]) * mult[q]
			}
			id, ok := ids[k]
			if !ok {
				id = int32(len(ids))
				ids[k] = id
			}
			key[row] = id
		}
		return key, len(ids)
	}
	ids := map[string]int32{}
	buf := make([]byte, 0, 4*len(r.prob.attrs))
	for row := range key {
		buf = buf[:0]
		for _, a := range r.prob.attrs {
			buf = binary.LittleEndian.AppendUint32(buf, a.codes[row])
		}
		id, ok := ids[string(buf)]
		if !ok {
			id = int32(len(ids))
			ids[string(buf)] = id
		}
		key[row] = id
	}
	return key, len(ids)
}

// links applies both forms of the test to the orders nssMap and ssMap
// (the input row of each published row).
func (t *orderTest) links(nssMap, ssMap []int) bool {
	n := float64(len(nssMap))
	var own, tuple matchCount
	for i, a := range nssMap {
		b := ssMap[i]
		same := t.classOf[b] == t.classOf[a]
		own.add(float64(t.own[a])/n, same && t.sa[b] == t.sa[a])
		if k := t.key[a]; t.oneClass[k] {
			_, has := slices.BinarySearch(t.tupleValues(k), t.sa[b])
			tuple.add(float64(t.in[k])/n, same && has)
		}
	}
	return own.far() || tuple.far()
}

// matchCount sums positions that match and their chances.
type matchCount struct {
	matches, positions int
	mean, variance     float64
}

func (m *matchCount) add(p float64, match bool) {
	m.positions++
	m.mean += p
	m.variance += p * (1 - p)
	if match {
		m.matches++
	}
}

// far is the checker's rule: more matches than the mean plus the t whose
// Bernstein bound exp(-t^2/(2(var + t/3))) is 1e-9, or a match at every
// one of ten or more positions not all bound to match.
func (m *matchCount) far() bool {
	limit := math.Log(1e9)
	t := limit/3 + math.Sqrt(limit*limit/9+2*limit*m.variance)
	every := m.positions >= 10 && m.matches == m.positions && m.mean < float64(m.positions)-1e-9
	return float64(m.matches) > m.mean+t || every
}

// release builds the publishable files. nss.csv and ss.csv (Section 5:
// "Original QID attributes | Class ID" and "Class ID | Sensitive
// attribute") are shuffled independently, so a row's position links it
// neither to the input nor to the other file; variant alpha publishes
// generalized.csv (the generalized QIs and the sensitive value, shuffled)
// and domains.csv (the values each generalized label stands for, needed to
// read it).
func (r *run) release(seed uint64) (*releasedir.Release, map[string][]int, error) {
	rng := model.NewRand(seed)
	// Records listed class by class.
	records := make([]int32, 0, r.in.Table.Rows)
	for _, c := range r.classes {
		records = append(records, c.rows...)
	}
	man := release.Manifest(r.res, r.in)
	det := format.Details{Classes: len(r.classes),
		GroupFigures: release.Summaries(r.res, nil)}
	rowMaps := map[string][]int{}
	var files []releasedir.ReleaseFile
	if r.variant == VariantAlpha {
		files = r.generalizedFiles(records, rng, rowMaps, &det, &man)
	} else {
		files = r.joinFiles(records, rng, rowMaps, &det, &man)
	}
	if r.variant == VariantLossy || r.variant == VariantAlpha {
		det.Criterion = Criterion
		man.Notes = append(man.Notes, "attribute choice (Algorithm 1, Section 6): "+Criterion+".", RemainderRule+".")
	}
	details, err := det.Encode()
	if err != nil {
		return nil, nil, err
	}
	man.Details = details
	rel := &releasedir.Release{Files: files, Manifest: man}
	return rel, rowMaps, nil
}

// generalizedFiles are variant alpha's generalized.csv (shuffled) and
// domains.csv, with their notes and details.
func (r *run) generalizedFiles(records []int32, rng *model.Rand, rowMaps map[string][]int, det *format.Details, man *releasedir.Manifest) []releasedir.ReleaseFile {
	qis := r.in.Roles.QIs
	n := len(records)
	perm := release.Shuffled(n, rng)
	labels := r.labels()
	rowMap := make([]int, n)
	for i, p := range perm {
		rowMap[i] = int(records[p])
	}
	rowMaps[FileGeneralized] = rowMap
	dom := r.domainRows()
	det.DomainEntries = len(dom)
	man.Notes = []string{
		"generalized.csv is one generalized table: every record with its class's generalized quasi-identifiers and its sensitive value, shuffled; records with the same generalized quasi-identifiers form a QID-EC.",
		"domains.csv lists, for every generalized label, the values of the quasi-identifier's domain it stands for (and each quasi-identifier's whole domain).",
	}
	return []releasedir.ReleaseFile{
		{Name: FileGeneralized, Header: format.GeneralizedHeader(qis, r.in.Roles.SA), Rows: n,
			Fill: func(i int, rec []string) {
				row := records[perm[i]]
				c := r.classes[r.classOf[row]]
				for q := range qis {
					rec[q] = labels[q][c.vec[q]]
				}
				rec[len(qis)] = r.sa.Value(int(row))
			}},
		{Name: FileDomains, Header: format.DomainsHeader, Rows: len(dom),
			Fill: func(i int, rec []string) { copy(rec, dom[i][:]) }},
	}
}

// joinFiles are nss.csv and ss.csv (variants lossy and anatomy), each
// shuffled on its own, with their notes and details.
func (r *run) joinFiles(records []int32, rng *model.Rand, rowMaps map[string][]int, det *format.Details, man *releasedir.Manifest) []releasedir.ReleaseFile {
	qis := r.in.Roles.QIs
	n := len(records)
	nssMap, ssMap := r.unlinkedOrders(records, rng)
	rowMaps[FileNSS], rowMaps[FileSS] = nssMap, ssMap
	ids := release.NumbersFrom(r.in.IDBase, len(r.classes))
	nssQIs := make([]release.Gathered, len(qis))
	for q, name := range qis {
		nssQIs[q] = release.Gather(r.in.Table.Column(name), nssMap)
	}
	nssClass, ssClass := r.classesAt(nssMap), r.classesAt(ssMap)
	ssSA := release.Gather(r.sa, ssMap)
	det.Remark = Remark
	det.JoinRows = r.joinRows
	man.Notes = []string{Remark,
		"ClassID is the only link between the tables. An estimate of COUNT(*) with conditions on the quasi-identifiers and the sensitive attribute is, per class, (NSS rows that match) x (SS rows that match) / class size: the expected count on the lossy join, as Xiao and Tao estimate on Anatomy's tables. (The SQL of Wong et al., Section 7, read literally, counts every matching SS row of a class with one matching NSS row, which overcounts.)"}
	if r.variant == VariantAnatomy {
		det.L = r.l
		man.Notes = append(man.Notes, fmt.Sprintf("anatomy: the classes are Xiao and Tao's l-diverse buckets (l = %d), formed without regard to the quasi-identifiers", r.l))
	}
	return []releasedir.ReleaseFile{
		{Name: FileNSS, Header: format.NSSHeader(qis), Rows: n,
			Fill: func(i int, rec []string) {
				for q, g := range nssQIs {
					rec[q] = g.Value(i)
				}
				rec[len(qis)] = ids[nssClass[i]]
			}},
		{Name: FileSS, Header: format.SSHeader(r.in.Roles.SA), Rows: n,
			Fill: func(i int, rec []string) {
				rec[0] = ids[ssClass[i]]
				rec[1] = ssSA.Value(i)
			}},
	}
}

// unlinkedOrders are the row orders of nss.csv and ss.csv: two shuffles,
// ss.csv's drawn again (up to maxDraws times) while positions would pair
// records as they were.
func (r *run) unlinkedOrders(records []int32, rng *model.Rand) (nssMap, ssMap []int) {
	n := len(records)
	nssPerm := release.Shuffled(n, rng)
	ssPerm := release.Shuffled(n, rng)
	nssMap, ssMap = make([]int, n), make([]int, n)
	for i := range nssPerm {
		nssMap[i] = int(records[nssPerm[i]])
	}
	order := r.newOrderTest()
	for draw := 1; ; draw++ {
		for i := range ssPerm {
			ssMap[i] = int(records[ssPerm[i]])
		}
		if !linked(nssMap, ssMap) && !order.links(nssMap, ssMap) || draw == maxDraws {
			break
		}
		ssPerm = release.Shuffled(n, rng)
	}
	return nssMap, ssMap
}

// classesAt is the class of each input row a file writes, in the file's
// row order.
func (r *run) classesAt(rows []int) []int32 {
	out := make([]int32, len(rows))
	for i, row := range rows {
		out[i] = int32(r.classOf[row])
	}
	return out
}

// labels gives the published label of every hierarchy node a class uses,
// per QI: the node's label, made unique where two nodes of one hierarchy
// share a label but not their values (a leaf keeps its value).
func (r *run) labels() []map[int32]string {
	out := make([]map[int32]string, len(r.prob.attrs))
	for q := range r.prob.attrs {
		h := r.prob.attrs[q].h
		used := r.usedNodes(q)
		// Leaves first, so that a value is always written as itself.
		sort.SliceStable(used, func(i, j int) bool { return h.IsLeaf(int(used[i])) && !h.IsLeaf(int(used[j])) })
		span := map[string][2]int{}
		m := map[int32]string{}
		for _, n := range used {
			nd := h.Nodes[n]
			lab := nd.Label
			if s, ok := span[lab]; ok && s != [2]int{nd.First, nd.Last} {
				lo, hi := h.Nodes[h.Leaves[nd.First]].Label, h.Nodes[h.Leaves[nd.Last]].Label
				lab = fmt.Sprintf("%s [%s..%s]", lab, lo, hi)
				for k := 2; ; k++ {
					if s, ok := span[lab]; !ok || s == [2]int{nd.First, nd.Last} {
						break
					}
					lab = fmt.Sprintf("%s [%s..%s] #%d", nd.Label, lo, hi, k)
				}
			}
			span[lab] = [2]int{nd.First, nd.Last}
			m[n] = lab
		}
		out[q] = m
	}
	return out
}

// usedNodes lists the nodes of QI q that some class uses, and the root, in
// hierarchy order.
func (r *run) usedNodes(q int) []int32 {
	h := r.prob.attrs[q].h
	seen := map[int32]bool{0: true}
	for _, c := range r.classes {
		seen[c.vec[q]] = true
	}
	out := make([]int32, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := h.Nodes[out[i]], h.Nodes[out[j]]
		if a.First != b.First {
			return a.First < b.First
		}
		return a.Depth < b.Depth
	})
	return out
}

// domainRows are the rows of domains.csv: for every QI and every label it
// uses (and its root), the values of the label's subdomain.
func (r *run) domainRows() [][3]string {
	labels := r.labels()
	var out [][3]string
	for q, name := range r.in.Roles.QIs {
		h := r.prob.attrs[q].h
		for _, n := range r.usedNodes(q) {
			nd := h.Nodes[n]
			for i := nd.First; i <= nd.Last; i++ {
				out = append(out, [3]string{name, labels[q][n], h.Nodes[h.Leaves[i]].Label})
			}
		}
	}
	return out
}
