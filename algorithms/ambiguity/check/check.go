// Package check is the independent checker of ambiguity releases (Hui
// Wang, Ambiguity): from at_<qi>.csv and st.csv alone it recomputes every
// group's presence probability |G| / prod_i |G_ATi| (Theorem 5.1) and
// association probability c / |G| (Theorem 5.2), holds them against alpha
// and beta, checks the structure Algorithm 2 guarantees (duplicate-free
// auxiliary tables, one occurrence of each sensitive value per group and
// at least ceil(1/beta) of them: Theorems 7.1-7.2) and every figure the
// manifest states. With the original table it proves the release is
// faithful: each published record is covered by exactly the group that
// holds it (Lemma 5.1), each group's tables hold its members' values and
// nothing else, and the frequencies are its members' sensitive values;
// and it recomputes the figures across groups the manifest states
// (records covered by more than one group, the largest combined presence
// 1 - prod_G (1 - p_G); outside Wang's model), which count the input's
// records. It imports model and algorithms/verify only, never the method.
package check

import (
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/verify"
	"privlab/model"
)

// The names the manifest gives its figures (the method's contract).
const (
	worstPresence    = "max presence probability"
	worstAssociation = "max association probability"
	utilityName      = "average group size"
	auditGroups      = "groups"
	// Informational figures across groups (outside Wang's model), which
	// only the original confirms: they count the input's records.
	coveredByMany    = "records covered by >1 group (input records, published or not)"
	combinedPresence = "outside Wang's model: max combined presence 1-prod(1-p_G) over the groups covering a record"
)

// figureLabels are the per-group figures, in the method's order.
var figureLabels = []string{"Pr(t in T)", "Pr(t,s|t)", "join", "SA values"}

// details is the manifest's method part.
type details struct {
	AuxiliaryTables []struct {
		QI   string `json:"qi"`
		File string `json:"file"`
	} `json:"auxiliary_tables"`
	SensitiveTable string            `json:"sensitive_table"`
	Kinds          map[string]string `json:"kinds"`
	CeilInvBeta    float64           `json:"ceil_inv_beta"`
	MinGroupSize   float64           `json:"min_group_size"`
	MaxGroupSize   float64           `json:"max_group_size"`
	MinDistinctSA  float64           `json:"min_distinct_sensitive"`
	MaxFrequency   float64           `json:"max_frequency"`
	FigureSummary  []struct {
		Figure string  `json:"figure"`
		Min    float64 `json:"min"`
		Mean   float64 `json:"mean"`
		Max    float64 `json:"max"`
	} `json:"group_figures"`
}

// table is one value table read back: per row its value (as a code of
// the file's column) and its group index.
type table struct {
	file  string
	t     *model.Table
	value *model.Column
	group []int32
	// count is the rows per group.
	count []int
}

// release is what the checker reads.
type release struct {
	groups int
	ids    []int // GroupID of each group index (1..groups)
	at     []*table
	st     *table
	freq   []int // per st row
	size   []int // per group
	maxF   []int
}

// Check verifies an ambiguity release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	m := rel.Manifest
	man := filepath.Join(rel.Dir, "manifest.json")
	det, err := readDetails(m, man)
	if err != nil {
		return err
	}
	alpha, aok := param(m, "alpha")
	beta, bok := param(m, "beta")
	r.Add(aok && bok, "parameters", "alpha = %s and beta = %s are probabilities in (0,1]", m.Parameters["alpha"], m.Parameters["beta"])
	if !aok || !bok {
		return nil
	}
	if len(det.AuxiliaryTables) != len(m.QIs) || len(m.QIs) == 0 || m.SA == "" {
		return &model.InputError{File: man, Msg: fmt.Sprintf("details name %d auxiliary tables for %d quasi-identifiers", len(det.AuxiliaryTables), len(m.QIs)),
			Hint: "an ambiguity release has one at_<qi>.csv per quasi-identifier, and a sensitive attribute"}
	}
	names := map[string]bool{det.SensitiveTable: true}
	for i, a := range det.AuxiliaryTables {
		r.ClaimText(fmt.Sprintf("details.auxiliary_tables[%d].qi", i), a.QI, m.QIs[i])
		if names[a.File] {
			return &model.InputError{File: man, Msg: fmt.Sprintf("details name %s twice", a.File)}
		}
		names[a.File] = true
	}
	for _, col := range append(append([]string(nil), m.QIs...), m.SA) {
		if k := det.Kinds[col]; k != "numeric" && k != "categorical" {
			r.Add(false, "claim details.kinds", "the kind of %s is %q; want numeric or categorical", col, k)
		}
	}
	// Every listed file is one of the tables (or the report).
	var extra []string
	for _, f := range rel.Files() {
		if !names[f] && f != "report.md" {
			extra = append(extra, f)
		}
	}
	r.Add(len(extra) == 0, "release files", "the release lists the %d auxiliary tables, the sensitive table and the report only%s", len(m.QIs), listIf(" ; also: ", extra))

	rl, ok, err := read(rel, det, r)
	if err != nil || !ok {
		return err
	}

	// The privacy figures, group by group.
	g := ceilInv(beta)
	pres := make([]float64, rl.groups)
	assoc := make([]float64, rl.groups)
	join := make([]float64, rl.groups)
	distinct := make([]float64, rl.groups)
	worstP, worstA, badDiv := -1, -1, 0
	holdsP, holdsA := true, true
	for gi := 0; gi < rl.groups; gi++ {
		j := big.NewInt(1)
		for _, at := range rl.at {
			j.Mul(j, big.NewInt(int64(at.count[gi])))
		}
		join[gi], _ = new(big.Float).SetInt(j).Float64()
		pres[gi] = float64(rl.size[gi]) / join[gi]
		assoc[gi] = float64(rl.maxF[gi]) / float64(rl.size[gi])
		// Exactly, on the counts: |G| <= alpha x prod_i |G_ATi| and c <=
		// beta x |G|, alpha and beta the decimals the manifest states.
		holdsP = holdsP && alpha.AllowsBig(big.NewInt(int64(rl.size[gi])), j)
		holdsA = holdsA && beta.Allows(rl.maxF[gi], rl.size[gi])
		distinct[gi] = float64(rl.st.count[gi])
		if worstP < 0 || pres[gi] > pres[worstP] {
			worstP = gi
		}
		if worstA < 0 || assoc[gi] > assoc[worstA] {
			worstA = gi
		}
		if rl.maxF[gi] != 1 || rl.st.count[gi] < g {
			badDiv++
		}
	}
	maxP, maxA := pres[worstP], assoc[worstA]
	r.Add(holdsP, "alpha-presence", "every record a group covers has Pr(t in T) = |G| / prod_i |G_ATi| <= alpha = %s (Theorem 5.1; max %.4g in group %d)",
		m.Parameters["alpha"], maxP, rl.ids[worstP])
	r.Add(holdsA, "beta-association", "every sensitive value has Pr((t,s) in T | t in T) = c / |G| <= beta = %s (Theorem 5.2; max %.4g in group %d)",
		m.Parameters["beta"], maxA, rl.ids[worstA])
	r.Add(badDiv == 0, "diversity", "every group holds each sensitive value once and at least ceil(1/beta) = %d of them (Algorithm 2, Theorems 7.1-7.2; %d groups do not)", g, badDiv)

	published := 0
	for _, s := range rl.size {
		published += s
	}
	tables := map[string]*model.Table{rl.st.file: rl.st.t}
	for _, at := range rl.at {
		tables[at.file] = at.t
	}
	rc := verify.Recomputed{Groups: rl.groups, Published: published, Tables: tables,
		Figures: map[string]float64{worstPresence: maxP, worstAssociation: maxA, utilityName: float64(published) / float64(rl.groups)},
		Holds:   map[string]bool{worstPresence: holdsP, worstAssociation: holdsA},
		Later:   map[string]bool{coveredByMany: true, combinedPresence: true},
		// alpha-presence and beta-association (Theorems 5.1, 5.2).
		Limits: map[string]string{worstPresence: m.Parameters["alpha"], worstAssociation: m.Parameters["beta"]},
	}
	var o *verify.Originals
	if opt.Original != nil {
		if o, err = verify.NewOriginals(opt.Original, m); err != nil {
			return err
		}
		many, combined := acrossGroups(rl, o, pres)
		rc.Figures[coveredByMany], rc.Figures[combinedPresence] = float64(many), combined
	}
	// The method always states these figures; one left out is not verified.
	stated := map[string]bool{}
	for _, f := range m.WorstCases {
		stated[f.Name] = true
	}
	for _, f := range m.Utility {
		stated[f.Name] = true
	}
	for _, name := range []string{worstPresence, worstAssociation, utilityName} {
		if !stated[name] {
			r.Add(false, "claim "+name, "the manifest does not state it")
		}
	}
	r.Compare(rel, rc, opt)

	// The details.
	minS, maxS, minD, maxF := rl.size[0], rl.size[0], rl.st.count[0], rl.maxF[0]
	for gi := range rl.size {
		minS, maxS = min(minS, rl.size[gi]), max(maxS, rl.size[gi])
		minD, maxF = min(minD, rl.st.count[gi]), max(maxF, rl.maxF[gi])
	}
	r.Claim("details.ceil_inv_beta", det.CeilInvBeta, float64(g))
	r.Claim("details.min_group_size", det.MinGroupSize, float64(minS))
	r.Claim("details.max_group_size", det.MaxGroupSize, float64(maxS))
	r.Claim("details.min_distinct_sensitive", det.MinDistinctSA, float64(minD))
	r.Claim("details.max_frequency", det.MaxFrequency, float64(maxF))
	perGroup := [][]float64{pres, assoc, join, distinct}
	if len(det.FigureSummary) != len(figureLabels) {
		r.Add(false, "claim details.group_figures", "the manifest summarises %d figures, the method has %d", len(det.FigureSummary), len(figureLabels))
	} else {
		for i, f := range det.FigureSummary {
			r.ClaimText(fmt.Sprintf("details.group_figures[%d].figure", i), f.Figure, figureLabels[i])
			lo, mean, hi := summary(perGroup[i])
			r.Claim("details.group_figures."+figureLabels[i]+".min", f.Min, lo)
			r.Claim("details.group_figures."+figureLabels[i]+".mean", f.Mean, mean)
			r.Claim("details.group_figures."+figureLabels[i]+".max", f.Max, hi)
		}
	}

	if o != nil {
		return checkOriginal(rel, rl, o, opt, published, r)
	}
	return nil
}

// acrossGroups recomputes the figures across groups from the files and
// the original: how many of the input's records (published or not) are
// covered by more than one group, each of their values being in that
// group's auxiliary table, and the largest 1 - prod_G (1 - p_G) over the
// groups G covering a record, p_G being the presence recomputed from the
// files. Records with the same QI values are counted once: each group's
// combinations are enumerated and looked up among them (a group with
// more than enumBudget combinations scans them instead).
func acrossGroups(rl *release, o *verify.Originals, pres []float64) (many int, combined float64) {
	k := len(rl.at)
	code := make([]map[string]uint32, k)
	for i, at := range rl.at {
		code[i] = make(map[string]uint32, len(at.value.Dict))
		for c, v := range at.value.Dict {
			code[i][v] = uint32(c)
		}
	}
	// The input's distinct QI tuples whose every value some group holds.
	var keys [][]uint32
	var count []int
	tuple := make([]uint32, k)
next:
	for _, rows := range o.ByKey {
		for i, col := range o.QIs {
			text, _ := o.Text(col, rows[0])
			c, ok := code[i][text]
			if !ok {
				continue next // a value no group holds: covered by none
			}
			tuple[i] = c
		}
		keys, count = append(keys, append([]uint32(nil), tuple...)), append(count, len(rows))
	}
	ix := newKeyIndex(radices(rl, false), keys)
	gv := newGroupValues(rl)
	covering := make([]int, len(keys))
	absent := make([]float64, len(keys))
	for j := range absent {
		absent[j] = 1
	}
	cover := func(g int32, j int32) {
		covering[j]++
		absent[j] *= 1 - pres[g]
	}
	for g := int32(0); int(g) < rl.groups; g++ {
		if gv.size(g) > enumBudget {
			for j, t := range keys {
				if gv.covers(g, t) {
					cover(g, int32(j))
				}
			}
			continue
		}
		gv.combos(g, tuple, func() bool {
			if j := ix.find(tuple); j >= 0 {
				cover(g, j)
			}
			return true
		})
	}
	for j := range keys {
		if covering[j] > 1 {
			many += count[j]
		}
		if covering[j] > 0 {
			combined = math.Max(combined, 1-absent[j])
		}
	}
	return many, combined
}

// readDetails decodes the manifest's details strictly: an unknown field
// is a claim the checker cannot verify.
func readDetails(m *model.Manifest, man string) (*details, error) {
	var d details
	if err := verify.DecodeDetails(m, &d); err != nil {
		return nil, &model.InputError{File: man, Msg: "details are not those of an ambiguity release: " + err.Error()}
	}
	return &d, nil
}

// param reads a probability bound of the manifest exactly (the decimal
// it states, not the float64 nearest it): it must lie in (0,1].
func param(m *model.Manifest, name string) (model.Bound, bool) {
	x, ok := model.ParseBound(m.Parameters[name])
	r := x.Rat()
	return x, ok && r.Sign() > 0 && r.Cmp(big.NewRat(1, 1)) <= 0
}

// ceilInv is the least g with 1/g <= beta, exactly.
func ceilInv(beta model.Bound) int {
	return max(beta.MinSize(1), 1)
}

func summary(x []float64) (lo, mean, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
		mean += v / float64(len(x))
	}
	return lo, mean, hi
}

func listIf(prefix string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	return prefix + strings.Join(items, ", ")
}

// read loads st.csv and every auxiliary table and checks their form:
// headers bound to the manifest's names, GroupIDs 1..G, positive whole
// frequencies, no duplicate rows, every group in every table.
func read(rel *verify.Release, det *details, r *verify.Report) (*release, bool, error) {
	m := rel.Manifest
	st, err := rel.Table(det.SensitiveTable)
	if err != nil {
		return nil, false, err
	}
	if !r.BindNames(det.SensitiveTable, st, []string{"GroupID", m.SA, "Frequency"}) {
		return nil, false, nil
	}
	rl := &release{}
	file := filepath.Join(rel.Dir, det.SensitiveTable)
	byID := map[string]int32{}
	stIDs := make([]int, st.Rows)
	rl.freq = make([]int, st.Rows)
	for row := 0; row < st.Rows; row++ {
		id, err := strconv.Atoi(st.Columns[0].Value(row))
		if err != nil || id < 1 || strconv.Itoa(id) != st.Columns[0].Value(row) {
			return nil, false, &model.InputError{File: file, Line: row + 2, Msg: fmt.Sprintf("GroupID %q is not a whole number >= 1", st.Columns[0].Value(row))}
		}
		f, err := strconv.Atoi(st.Columns[2].Value(row))
		if err != nil || f < 1 || strconv.Itoa(f) != st.Columns[2].Value(row) {
			return nil, false, &model.InputError{File: file, Line: row + 2, Msg: fmt.Sprintf("Frequency %q is not a whole number >= 1", st.Columns[2].Value(row))}
		}
		stIDs[row], rl.freq[row] = id, f
		byID[st.Columns[0].Value(row)] = 0
	}
	rl.groups = len(byID)
	if rl.groups == 0 {
		r.Add(false, "groups", "%s has no group", det.SensitiveTable)
		return nil, false, nil
	}
	// GroupIDs are 1..G: the audit record lists groups in that order.
	ids := make([]int, 0, rl.groups)
	for id := range byID {
		n, _ := strconv.Atoi(id)
		ids = append(ids, n)
	}
	sort.Ints(ids)
	if ids[0] != 1 || ids[len(ids)-1] != rl.groups {
		r.Add(false, "groups", "the GroupIDs of %s are not 1..%d", det.SensitiveTable, rl.groups)
		return nil, false, nil
	}
	rl.ids = ids
	for id := range byID {
		n, _ := strconv.Atoi(id)
		byID[id] = int32(n - 1)
	}
	rl.st = &table{file: det.SensitiveTable, t: st, value: st.Columns[1], group: make([]int32, st.Rows), count: make([]int, rl.groups)}
	rl.size = make([]int, rl.groups)
	rl.maxF = make([]int, rl.groups)
	seen := map[uint64]bool{}
	dups := 0
	for row := 0; row < st.Rows; row++ {
		gi := int32(stIDs[row] - 1)
		rl.st.group[row] = gi
		rl.st.count[gi]++
		rl.size[gi] += rl.freq[row]
		rl.maxF[gi] = max(rl.maxF[gi], rl.freq[row])
		key := uint64(gi)<<32 | uint64(st.Columns[1].Codes[row])
		if seen[key] {
			dups++
		}
		seen[key] = true
	}
	r.Add(dups == 0, "duplicate-free", "%s lists each sensitive value once per group (%d repeated)", det.SensitiveTable, dups)

	missing := 0
	for _, a := range det.AuxiliaryTables {
		t, err := rel.Table(a.File)
		if err != nil {
			return nil, false, err
		}
		if !r.BindNames(a.File, t, []string{a.QI, "GroupID"}) {
			return nil, false, nil
		}
		at := &table{file: a.File, t: t, value: t.Columns[0], group: make([]int32, t.Rows), count: make([]int, rl.groups)}
		clear(seen)
		dups, unknown := 0, 0
		for row := 0; row < t.Rows; row++ {
			gi, ok := byID[t.Columns[1].Value(row)]
			if !ok {
				unknown++
				at.group[row] = -1
				continue
			}
			at.group[row] = gi
			at.count[gi]++
			key := uint64(gi)<<32 | uint64(t.Columns[0].Codes[row])
			if seen[key] {
				dups++
			}
			seen[key] = true
		}
		r.Add(dups == 0, "duplicate-free", "%s lists each value once per group (Definition 3.3; %d repeated)", a.File, dups)
		r.Add(unknown == 0, "groups", "every GroupID of %s is a group of %s (%d are not)", a.File, det.SensitiveTable, unknown)
		for _, c := range at.count {
			if c == 0 {
				missing++
			}
		}
		rl.at = append(rl.at, at)
	}
	r.Add(missing == 0, "groups", "every group has values in every auxiliary table (%d gaps)", missing)
	return rl, missing == 0, nil
}

// checkOriginal proves the release faithful to the original: which
// records a group holds comes from the audit record's group map, or,
// when there is none, from maximum flows that find an assignment
// consistent with the files (membersByFlow); then every published record
// must be covered by its group, each group's tables must hold exactly its
// members' values, and the frequencies must be its members' sensitive
// values.
func checkOriginal(rel *verify.Release, rl *release, o *verify.Originals, opt verify.Options, published int, r *verify.Report) error {
	m := rel.Manifest
	r.Claim("rows_suppressed", float64(m.Suppressed), float64(opt.Original.Rows-published))
	members, ok := membersFromAudit(rl, o, opt.Audit, published, r)
	if !ok {
		return nil
	}
	byFlow := members == nil
	var cand func([]value) int
	if byFlow {
		var placed int
		var b *boxes
		members, placed, b = membersByFlow(rl, o)
		cand = func(f []value) int { return impossible(rl, b, f) }
		if placed < published {
			r.Add(false, "faithful", "no assignment of distinct original records to the groups gives each group its st.csv frequencies of records it covers (Lemma 5.1): at most %d of the %d published records (maximum flow, without the audit record)", placed, published)
			return nil
		}
		r.Add(true, "faithful", "distinct original records can be assigned to the groups so that each group holds exactly its st.csv frequencies of records it covers (Lemma 5.1; maximum flow over value combinations, without the audit record, which alone says which group holds whom)")
	}
	tabs := append(append([]*table(nil), rl.at...), rl.st)
	uncovered, freqOff := 0, 0
	var fabricated []value
	for ti, tb := range tabs {
		u, f, extra := againstMembers(tb, ti, tb == rl.st, members, o, rl, !byFlow, r)
		uncovered, freqOff, fabricated = uncovered+u, freqOff+f, append(fabricated, extra...)
	}
	r.Add(uncovered == 0, "coverage", "every one of the %d published records is covered by the group that holds it: each of its values is in that group's tables (Lemma 5.1; %d values missing)", published, uncovered)
	fabricatedLine(fabricated, cand, r)
	r.Add(freqOff == 0, "frequencies", "%s lists exactly the members' sensitive values with their frequencies, group by group (%d differ)", rl.st.file, freqOff)
	return nil
}

// againstMembers holds one table to the members: it returns the member
// values the table lacks, the sensitive values and frequencies that
// differ (st.csv), and the table's values no member has (auxiliary
// tables); with shuffle, it tests the row order against the input's.
// A member's value is looked up among its group's few table rows.
func againstMembers(tb *table, ti int, isST bool, members [][]int, o *verify.Originals, rl *release, shuffle bool, r *verify.Report) (uncovered, freqOff int, fabricated []value) {
	col := o.SA
	if !isST {
		col = o.QIs[ti]
	}
	code := tableCodes(tb, col, o)
	// The table's rows, group by group.
	// (A row of a GroupID st.csv lacks, group -1, failed above: it is in
	// no group and so no member's.)
	start := make([]int, rl.groups+1)
	for row := 0; row < tb.t.Rows; row++ {
		if g := tb.group[row]; g >= 0 {
			start[g+1]++
		}
	}
	for g := 0; g < rl.groups; g++ {
		start[g+1] += start[g]
	}
	byGroup, next := make([]int, tb.t.Rows), append([]int(nil), start[:rl.groups]...)
	for row := 0; row < tb.t.Rows; row++ {
		if g := tb.group[row]; g >= 0 {
			byGroup[next[g]] = row
			next[g]++
		}
	}
	// first[row] is the smallest input row behind a table row (its
	// position in the input, for the shuffle check), count[row] its members.
	first, count := make([]int, tb.t.Rows), make([]int, tb.t.Rows)
	for i := range first {
		first[i] = -1
	}
	lacking := map[uint64]bool{} // group<<32 | code of member values the table lacks
	for gi, rows := range members {
		for _, row := range rows {
			c := code(row)
			if c < 0 {
				uncovered++
				continue
			}
			j := -1
			for _, k := range byGroup[start[gi]:start[gi+1]] {
				if int32(tb.value.Codes[k]) == c {
					j = k
				}
			}
			if j < 0 {
				lacking[uint64(gi)<<32|uint64(c)] = true
				continue
			}
			if first[j] < 0 || row < first[j] {
				first[j] = row
			}
			count[j]++
		}
	}
	uncovered += len(lacking)
	for row := 0; row < tb.t.Rows; row++ {
		switch {
		case first[row] < 0:
			fabricated = append(fabricated, value{ti, tb.group[row], tb.value.Codes[row]})
		case isST && count[row] != rl.freq[row]:
			freqOff++
		}
	}
	if shuffle && len(fabricated) == 0 {
		verify.Shuffled(tb.file, first, rl.groups, r)
	}
	if isST {
		// In st.csv a value missing or extra is a frequency that differs.
		freqOff, uncovered, fabricated = freqOff+uncovered+len(fabricated), 0, nil
	}
	return uncovered, freqOff, fabricated
}

// tableCodes maps an original row's value of col to the code of the
// table's value column (-1: the table has no such value), looking each
// distinct value up once.
func tableCodes(tb *table, col *model.Column, o *verify.Originals) func(row int) int32 {
	codes := make(map[string]int32, len(tb.value.Dict))
	for c, v := range tb.value.Dict {
		codes[v] = int32(c)
	}
	lookup := func(row int) int32 {
		text, _ := o.Text(col, row)
		if c, ok := codes[text]; ok {
			return c
		}
		return -1
	}
	byCode := make([]int32, len(col.Dict))
	for i := range byCode {
		byCode[i] = -2 // not looked up yet
	}
	return func(row int) int32 {
		oc := col.Codes[row]
		if oc == model.Missing {
			return lookup(row)
		}
		if byCode[oc] == -2 {
			byCode[oc] = lookup(row)
		}
		return byCode[oc]
	}
}

// fabricatedLine adds the line that every published value is a value of
// a member of its group. With the audit record (cand nil) the members
// are known. Without it the flow's assignment is one of possibly many: a
// value none of its members has fails only when no record the group could
// hold has it (cand counts those), and which member holds it stays
// unsettled.
func fabricatedLine(fabricated []value, cand func([]value) int, r *verify.Report) {
	if cand == nil || len(fabricated) == 0 {
		r.Add(len(fabricated) == 0, "values", "every published value is a value of a member of its group (%d are not)", len(fabricated))
		return
	}
	n := cand(fabricated)
	r.Add(n == 0, "values", "every published value is the value of an original record its group could hold (%d are not; which member holds which value only the audit record settles)", n)
}

// membersFromAudit reads the audit record's group map (nil, true when
// there is none).
func membersFromAudit(rl *release, o *verify.Originals, audit *model.Audit, published int, r *verify.Report) ([][]int, bool) {
	if audit == nil || len(audit.RowMap[auditGroups]) == 0 {
		return nil, true
	}
	rows := audit.RowMap[auditGroups]
	if len(rows) != published {
		r.Add(false, "audit", "the audit record's group map lists %d records; the release publishes %d", len(rows), published)
		return nil, false
	}
	members := make([][]int, rl.groups)
	used := make([]bool, o.Table.Rows)
	off := 0
	for gi := 0; gi < rl.groups; gi++ {
		members[gi] = rows[off : off+rl.size[gi]]
		off += rl.size[gi]
		for _, row := range members[gi] {
			ok := row >= 0 && row < o.Table.Rows && !used[row]
			for i := 0; ok && i < len(o.QIs); i++ {
				_, ok = o.Text(o.QIs[i], row)
			}
			if !ok {
				r.Add(false, "audit", "the audit record's group map does not fit this original: row %d is not a published record, or listed twice", row)
				return nil, false
			}
			if _, ok := o.Text(o.SA, row); !ok {
				r.Add(false, "audit", "the audit record's group map lists row %d, which has no sensitive value", row)
				return nil, false
			}
			used[row] = true
		}
	}
	r.Add(true, "audit", "the audit record assigns %d distinct input records to the %d groups, as many per group as st.csv says", len(rows), rl.groups)
	return members, true
}
