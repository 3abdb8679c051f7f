package ambiguity

import (
	"fmt"
	"path/filepath"
	"privlab/algorithms/ambiguity/format"
	"sort"
	"strconv"
	"strings"
	"sync"

	"privlab/algorithms/release"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// ATFile is one auxiliary table (the format package declares it).
type ATFile = format.ATFile

// auditGroups is the key of the audit record's group map.
const auditGroups = format.AuditGroups

// release builds the files: every at_<qi>.csv (value, GroupID) and st.csv
// (GroupID, SA, Frequency) with rows shuffled by the seed, and GroupIDs a
// permutation drawn from the seed, so that neither row positions nor
// group numbers follow the input's order (SPEC 7.3).
func (r *run) release(seed uint64) (*releasedir.Release, map[string][]int, error) {
	s := r.sch
	rng := model.NewRand(seed)
	perm := rng.Perm(s.groups) // group j is published as IDBase+perm[j]+1 (see groupIDs)
	// The audit's group map and the manifest draw no random number: they
	// are made on another core while the tables are shuffled (a panic
	// there is raised again here).
	var rows []int
	var man releasedir.Manifest
	var err error
	var panicked any
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { panicked = recover() }()
		rows = r.auditRows(perm)
		man, err = r.manifest()
	}()
	files := r.shuffledFiles(perm, rng)
	<-done
	if panicked != nil {
		panic(panicked)
	}
	if err != nil {
		return nil, nil, err
	}
	rel := &releasedir.Release{Files: files, Manifest: man}
	return rel, map[string][]int{auditGroups: rows}, nil
}

// shuffledFiles are the release's files, each table's rows shuffled by
// rng (in table order: the same draws for the same seed).
func (r *run) shuffledFiles(perm []int, rng *model.Rand) []releasedir.ReleaseFile {
	s := r.sch
	var files []releasedir.ReleaseFile
	// Append writes a row's record straight from the values' CSV text
	// (each value's quoted once) and its GroupID's digits, which never
	// need quotes: the bytes AppendCSVRecord gives of Fill's record.
	for i := range s.at {
		at := &s.at[i]
		f := &shuffled{t: at, order: release.Shuffled(len(at.code), rng), perm: perm, base: r.in.IDBase}
		fields := csvFields(at.text)
		files = append(files, releasedir.ReleaseFile{Name: r.atFiles[i], Header: format.ATHeader(s.qis[i]), Rows: len(at.code),
			Fill: func(x int, rec []string) {
				f.once.Do(f.build)
				rec[0] = at.text[f.codeAt(x)]
				rec[1] = f.id(x)
			},
			Append: func(b []byte, x int) []byte {
				f.once.Do(f.build)
				b = append(append(b, fields[f.codeAt(x)]...), ',')
				return append(append(b, f.id(x)...), '\n')
			}})
	}
	st := &s.st
	f := &shuffled{t: st, order: release.Shuffled(len(st.code), rng), perm: perm, base: r.in.IDBase}
	fields := csvFields(st.text)
	return append(files, releasedir.ReleaseFile{Name: format.FileST, Header: format.STHeader(s.sa), Rows: len(st.code),
		Fill: func(x int, rec []string) {
			f.once.Do(f.build)
			rec[0] = f.id(x)
			rec[1] = st.text[f.codeAt(x)]
			rec[2] = strconv.Itoa(int(f.freq[x]))
		},
		Append: func(b []byte, x int) []byte {
			f.once.Do(f.build)
			b = append(append(b, f.id(x)...), ',')
			b = append(append(b, fields[f.codeAt(x)]...), ',')
			return append(strconv.AppendInt(b, int64(f.freq[x]), 10), '\n')
		}})
}

// csvFields is each text as a CSV field (releasedir.AppendCSVField).
func csvFields(texts []string) [][]byte {
	out := make([][]byte, len(texts))
	for i, t := range texts {
		out[i] = releasedir.AppendCSVField(nil, t)
	}
	return out
}

// auditRows is the audit's group map: the rows of group 1, 2, ... in
// published order, each group's in increasing order.
func (r *run) auditRows(perm []int) []int {
	byID := make([]int, len(perm))
	for j, p := range perm {
		byID[p] = j
	}
	rows := make([]int, 0, r.res.Published)
	for _, j := range byID {
		start := len(rows)
		for _, row := range r.groups[j] {
			rows = append(rows, int(row))
		}
		sort.Ints(rows[start:])
	}
	return rows
}

// manifest is the release's manifest: its details, figures and notes.
func (r *run) manifest() (releasedir.Manifest, error) {
	s := r.sch
	st := &s.st
	det := format.Details{SensitiveTable: format.FileST, Kinds: map[string]string{}, CeilInvBeta: r.g, MinGroupSize: s.size[0], MaxGroupSize: s.size[0],
		MinDistinctSA: int(st.count[0]), GroupIDBase: r.in.IDBase}
	for i, q := range s.qis {
		det.AuxiliaryTables = append(det.AuxiliaryTables, ATFile{QI: q, File: r.atFiles[i]})
		det.Kinds[q] = s.at[i].kind.String()
	}
	det.Kinds[s.sa] = st.kind.String()
	for g := 0; g < s.groups; g++ {
		det.MinGroupSize = min(det.MinGroupSize, s.size[g])
		det.MaxGroupSize = max(det.MaxGroupSize, s.size[g])
		det.MinDistinctSA = min(det.MinDistinctSA, int(st.count[g]))
		det.MaxFrequency = max(det.MaxFrequency, int(s.maxFreq[g]))
	}
	det.FigureSummary = release.Summaries(r.res, nil)
	man := release.Manifest(r.res, r.in)
	// The figures across groups are informational (outside Wang's model)
	// and need the input to recompute: the checker confirms them with the
	// original.
	man.Utility = append(man.Utility,
		releasedir.Figure{Name: coveredByMany, Value: float64(r.across.Multi), OK: true},
		releasedir.Figure{Name: combinedPresence, Value: r.across.MaxCombined, OK: true})
	details, err := det.Encode()
	if err != nil {
		return releasedir.Manifest{}, err
	}
	man.Details = details
	man.Notes = []string{
		"Each at_<qi>.csv lists, for one quasi-identifier, the distinct values of every QI-group (value, GroupID); st.csv lists every group's sensitive values with their frequency (GroupID, value, Frequency). " +
			"No row stands for a record: a record's values are split over the tables and meet again only through GroupID (Wang, Definition 3.3).",
		"A record covered by group G (each of its values is in G's auxiliary tables) is in the data with probability |G| / prod_i |G_ATi| (Theorem 5.1), " +
			"and has sensitive value v with probability c_v / |G| given that it is (Theorem 5.2), for an attacker who knows nothing beyond the release.",
		"Theorem 5.1 bounds presence within a group; a record whose values also appear in other groups' tables is covered by each of those groups, " +
			"and an attacker who combines them believes it present with probability 1 - prod_G (1 - p_G) over the groups G covering it, which can exceed alpha. " +
			"The paper's model does not consider this: the figures \"" + coveredByMany + "\" and \"" + combinedPresence + "\" state it for the input's records " +
			"(a check with the original table recomputes them).",
		"Count queries are estimated per group: the ST count of matching sensitive values times the fraction of the group's AT values meeting each condition, multiplied across attributes (Section 6, Example 6.1).",
	}
	return man, nil
}

// shuffled is one table's rows in published order (order), gathered
// once, when the file is first rendered, into arrays read in sequence
// (a release is rendered more than once, for its figures and into its
// files, and reading the table through the shuffled order costs a cache
// miss per cell): the value codes (a byte each when the table has at
// most 256 values), the frequencies (st.csv), and the GroupIDs printed
// into slots of width bytes, one per row (group j is published as
// base+perm[j]+1), row x's size[x] bytes long.
type shuffled struct {
	once  sync.Once
	t     *valueTable
	order []int32
	perm  []int
	base  int // method.Input.IDBase
	code8 []uint8
	code  []int32
	freq  []int32
	ids   string
	width int
	size  []uint8
}

func (f *shuffled) build() {
	n := len(f.order)
	if len(f.t.text) <= 256 {
		f.code8 = make([]uint8, n)
	} else {
		f.code = make([]int32, n)
	}
	if f.t.freq != nil {
		f.freq = make([]int32, n)
	}
	f.width = len(strconv.Itoa(f.base + len(f.perm)))
	f.size = make([]uint8, n)
	var ids strings.Builder // its text is not copied
	ids.Grow(f.width * n)
	var slot [20]byte
	// Each row's code and published GroupID packed in one word, in the
	// table's order (read in sequence), then gathered in the published
	// order: one cache miss per row rather than one per array.
	// The gathers are loops of their own: their loads do not wait on one
	// another, so the processor keeps many cache misses in flight (in the
	// loop that formats the ids it kept one or two).
	packed := make([]uint64, n)
	for row, g := range f.t.group {
		packed[row] = uint64(uint32(f.t.code[row]))<<32 | uint64(f.perm[g]+1)
	}
	ids32 := make([]uint32, n)
	if f.code8 != nil {
		for x, row := range f.order {
			w := packed[row]
			f.code8[x], ids32[x] = uint8(w>>32), uint32(w)
		}
	} else {
		for x, row := range f.order {
			w := packed[row]
			f.code[x], ids32[x] = int32(w>>32), uint32(w)
		}
	}
	packed = nil
	if f.freq != nil {
		for x, row := range f.order {
			f.freq[x] = f.t.freq[row]
		}
	}
	for x, id := range ids32 {
		digits := strconv.AppendUint(slot[:0], uint64(f.base)+uint64(id), 10)
		f.size[x] = uint8(len(digits))
		ids.Write(slot[:f.width])
	}
	f.ids, f.order = ids.String(), nil
}

// codeAt is row x's value code.
func (f *shuffled) codeAt(x int) int32 {
	if f.code8 != nil {
		return int32(f.code8[x])
	}
	return f.code[x]
}

// id is row x's GroupID text.
func (f *shuffled) id(x int) string {
	start := x * f.width
	return f.ids[start : start+int(f.size[x])]
}

// openScheme reads a release's files back into a scheme: each file
// parsed by shared when it gives it (nil: none does) as this would load
// it, else loaded here.
func openScheme(dir string, shared func(name string) (*model.Table, error)) (*scheme, error) {
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	man := filepath.Join(dir, "manifest.json")
	det, err := format.Read(m)
	if err != nil {
		return nil, &model.InputError{File: man, Msg: err.Error(), Hint: "privlab check tells what is wrong with the release"}
	}
	if len(det.AuxiliaryTables) != len(m.QIs) || det.SensitiveTable == "" {
		return nil, &model.InputError{File: man, Msg: "details must name one auxiliary table per quasi-identifier and the sensitive table"}
	}
	listed := map[string]bool{}
	for _, f := range m.Files {
		listed[f.Name] = true
	}
	s := &scheme{qis: m.QIs, sa: m.SA}
	load := func(file, col string, header []string) (*model.Table, error) {
		if !listed[file] || filepath.Base(file) != file {
			return nil, &model.InputError{File: man, Msg: fmt.Sprintf("%s is not a file of the release", file)}
		}
		kinds := map[string]model.Kind{}
		if det.Kinds[col] == format.Numeric {
			kinds[col] = model.Numeric
		} else {
			kinds[col] = model.Categorical
		}
		path := filepath.Join(dir, file)
		if t := sharedTable(shared, file, col, kinds[col]); t != nil && strings.Join(t.Names(), ",") == strings.Join(header, ",") {
			return t, nil
		}
		t, err := releasedir.LoadTable(path, csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}, Kinds: kinds})
		if err != nil {
			return nil, err
		}
		if strings.Join(t.Names(), ",") != strings.Join(header, ",") {
			return nil, &model.InputError{File: path, Line: 1, Msg: "expected the columns " + strings.Join(header, ",")}
		}
		return t, nil
	}
	st, err := load(det.SensitiveTable, m.SA, format.STHeader(m.SA))
	if err != nil {
		return nil, err
	}
	if msg := det.GroupIDBaseProblem(); msg != "" {
		return nil, &model.InputError{File: man, Msg: msg, Hint: "privlab check tells what is wrong with the release"}
	}
	keys, err := s.readST(st, filepath.Join(dir, det.SensitiveTable), det.GroupIDBase)
	if err != nil {
		return nil, err
	}
	for i, a := range det.AuxiliaryTables {
		if a.QI != m.QIs[i] {
			return nil, &model.InputError{File: man, Msg: fmt.Sprintf("auxiliary table %d is for %s, not the quasi-identifier %s", i+1, a.QI, m.QIs[i])}
		}
		t, err := load(a.File, a.QI, format.ATHeader(a.QI))
		if err != nil {
			return nil, err
		}
		vt, err := readAT(t, keys, filepath.Join(dir, a.File), det.SensitiveTable)
		if err != nil {
			return nil, err
		}
		s.at = append(s.at, vt)
	}
	s.groups = len(s.ids)
	s.rowsLater = true
	s.finish()
	for i := range s.at {
		for g, c := range s.at[i].count {
			if c == 0 {
				return nil, &model.InputError{File: filepath.Join(dir, det.AuxiliaryTables[i].File), Msg: fmt.Sprintf("a group of %s has no value here", det.SensitiveTable)}
			}
			_ = g
		}
	}
	return s, nil
}

// sharedTable is file as shared parsed it when that is the table
// openScheme's own loading gives: with rows (the loader reads a file of
// its header alone only when told), col of the kind the details state
// (the others' kinds are inferred alike). Nil otherwise, and when shared
// is nil or cannot read the file (loading it says why).
func sharedTable(shared func(name string) (*model.Table, error), file, col string, kind model.Kind) *model.Table {
	if shared == nil {
		return nil
	}
	t, err := shared(file)
	if err != nil || t.Rows == 0 {
		return nil
	}
	if c := t.Column(col); c == nil || c.Kind != kind {
		return nil
	}
	return t
}

// readST reads st.csv's rows into s.st (groups numbered in order of
// first appearance) and returns the keys that find a group by its text.
func (s *scheme) readST(st *model.Table, file string, idBase int) (*groupKeys, error) {
	s.st = tableOfColumn(st.Columns[1])
	stGroup, keys := s.firstAppearance(st.Columns[0], idBase)
	freqOf := make([]int, len(st.Columns[2].Dict)+1) // 0: not a frequency
	for code := range freqOf {
		if f, err := strconv.Atoi(codeText(st.Columns[2], code)); err == nil && f > 0 {
			freqOf[code] = f
		}
	}
	s.st.code, s.st.group, s.st.freq = make([]int32, st.Rows), make([]int32, st.Rows), make([]int32, st.Rows)
	for row := 0; row < st.Rows; row++ {
		f := freqOf[codeOf(st.Columns[2], row)]
		if f <= 0 {
			return nil, &model.InputError{File: file, Line: row + 2, Msg: "Frequency must be a whole number >= 1"}
		}
		s.st.code[row] = int32(st.Columns[1].Codes[row])
		s.st.group[row] = stGroup[codeOf(st.Columns[0], row)]
		s.st.freq[row] = int32(f)
	}
	return keys, nil
}

// readAT reads an auxiliary table's rows, each GroupID one of st.csv's
// (stName).
func readAT(t *model.Table, keys *groupKeys, file, stName string) (valueTable, error) {
	vt := tableOfColumn(t.Columns[0])
	ids := t.Columns[1]
	groupOf := make([]int32, len(ids.Dict)+1)
	for code := range groupOf {
		groupOf[code] = keys.find(codeText(ids, code))
	}
	vt.code, vt.group = make([]int32, t.Rows), make([]int32, t.Rows)
	for row := 0; row < t.Rows; row++ {
		g := groupOf[codeOf(ids, row)]
		if g < 0 {
			return vt, &model.InputError{File: file, Line: row + 2, Msg: fmt.Sprintf("GroupID %s is not in %s", ids.Value(row), stName)}
		}
		vt.code[row] = int32(t.Columns[0].Codes[row])
		vt.group[row] = g
	}
	return vt, nil
}

func tableOfColumn(c *model.Column) valueTable {
	return valueTable{name: c.Name, kind: c.Kind, col: c, text: c.Dict, num: c.Nums}
}

// codeOf is a row's code, the missing value's len(Dict).
func codeOf(c *model.Column, row int) int {
	if code := c.Codes[row]; code != model.Missing {
		return int(code)
	}
	return len(c.Dict)
}

// codeText is a code's text ("" for the missing value's).
func codeText(c *model.Column, code int) string {
	if code < len(c.Dict) {
		return c.Dict[code]
	}
	return ""
}

// firstAppearance numbers the GroupIDs of st.csv's column in order of
// first appearance (s.ids their texts): the group of every code, and
// the keys that find a group by its text in the other files (GroupIDs
// from idBase+1, format.Details.GroupIDBase, index their array).
func (s *scheme) firstAppearance(ids *model.Column, idBase int) ([]int32, *groupKeys) {
	of := make([]int32, len(ids.Dict)+1)
	for i := range of {
		of[i] = -1
	}
	for row := range ids.Codes {
		if code := codeOf(ids, row); of[code] < 0 {
			of[code] = int32(len(s.ids))
			s.ids = append(s.ids, codeText(ids, code))
		}
	}
	keys := &groupKeys{byNumber: make([]int32, 2*len(s.ids)+16), base: idBase, byText: map[string]int32{}}
	for g, id := range s.ids {
		keys.add(id, int32(g))
	}
	return of, keys
}

// groupKeys finds a group by its GroupID text: a whole number written
// plainly, less base, indexes an array, any other text a map.
type groupKeys struct {
	byNumber []int32 // group+1 (0: none), by GroupID less base
	base     int
	byText   map[string]int32
}

// plainNumber reads digits without a leading zero (at most 18).
func plainNumber(s string) (int, bool) {
	if len(s) == 0 || len(s) > 18 || s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = 10*n + int(d)
	}
	return n, true
}

func (k *groupKeys) add(text string, g int32) {
	if n, ok := plainNumber(text); ok && n >= k.base && n-k.base < len(k.byNumber) {
		k.byNumber[n-k.base] = g + 1
		return
	}
	k.byText[text] = g
}

// find is the group of text, -1 for none.
func (k *groupKeys) find(text string) int32 {
	if n, ok := plainNumber(text); ok && n >= k.base && n-k.base < len(k.byNumber) {
		return k.byNumber[n-k.base] - 1
	}
	if g, ok := k.byText[text]; ok {
		return g
	}
	return -1
}

// inGroupOrder reorders, the first time Answer asks, the tables of a
// scheme read from files (rowsLater) that a query may read row by row
// group by group (stably: a group's rows keep the files' order) and sets
// their start, as a run's tables are: those without bitsets, and the
// numeric ones (SUM and AVG read their values). A count on the others
// reads their bitsets only (saBlock, scale), made from the rows in any
// order, so a check's workload sorts none of them.
func (s *scheme) inGroupOrder(b *groupBits) {
	if !s.rowsLater {
		return
	}
	s.rowsOnce.Do(func() {
		for i := range s.at {
			if !b.at[i].has() || s.at[i].kind == model.Numeric {
				s.at[i].sortByGroup(s.groups)
			}
		}
		if !b.st.has() || s.st.kind == model.Numeric {
			s.st.sortByGroup(s.groups)
		}
	})
}

func (t *valueTable) sortByGroup(groups int) {
	t.start = make([]int32, groups+1)
	for _, g := range t.group {
		t.start[g+1]++
	}
	for g := 0; g < groups; g++ {
		t.start[g+1] += t.start[g]
	}
	next := append([]int32(nil), t.start[:groups]...)
	code, group := make([]int32, len(t.code)), make([]int32, len(t.code))
	var freq []int32
	if t.freq != nil {
		freq = make([]int32, len(t.freq))
	}
	for r, g := range t.group {
		x := next[g]
		next[g]++
		code[x], group[x] = t.code[r], g
		if freq != nil {
			freq[x] = t.freq[r]
		}
	}
	t.code, t.group, t.freq = code, group, freq
}
