package kja

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/kja/check"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// coords places a table's row on the QIs the way the paper does (Section
// 2.1), independently of buildJT: numbers as they are, categorical values
// by their position in the hierarchy's leaves.
func coords(in *InputView, tab *model.Table, row int) []float64 {
	out := make([]float64, len(in.qis))
	for a, q := range in.qis {
		c := tab.Column(q)
		if c.Kind == model.Numeric {
			out[a], _ = strconv.ParseFloat(c.Value(row), 64)
			continue
		}
		h := in.hs[q]
		l, ok := h.Leaf(c.Value(row))
		if !ok {
			return nil
		}
		out[a] = float64(h.LeafPos(l))
	}
	return out
}

// InputView is what the invariants read of an instance.
type InputView struct {
	qis []string
	hs  map[string]*hierarchy.Hierarchy
}

// checkInvariants asserts Section 4's guarantees on a run, from the tables
// themselves: every box holds >= k JT tuples and >= 1 MT tuple; every MT
// tuple is in exactly one box and no tuple in two; external tuples are PD
// rows not joined with MT (when joined); each box is the MBB of its
// members; each MT tuple's sensitive group holds exactly the SA values of
// the group's MT tuples.
func checkInvariants(t *testing.T, inst *instance, r *run) {
	t.Helper()
	in := r.in
	view := &InputView{qis: in.Roles.QIs, hs: in.Hierarchies}
	k := r.cfg.k
	seenMT := make([]int, inst.mt.Rows)
	seenPD := map[int32]bool{}
	mtIDs := map[string]bool{}
	for row := 0; row < inst.mt.Rows; row++ {
		mtIDs[inst.mt.Column("id").Value(row)] = true
	}
	for bi, b := range r.boxes {
		if len(b.tuples) < k || b.mt < 1 {
			t.Fatalf("%s box %d: %d tuples, %d MT (k = %d)", r.cfg.variant, bi, len(b.tuples), b.mt, k)
		}
		lo, hi := make([]float64, inst.d), make([]float64, inst.d)
		for a := range lo {
			lo[a], hi[a] = math.Inf(1), math.Inf(-1)
		}
		mtHere := 0
		for _, tu := range b.tuples {
			var p []float64
			if int(tu) < r.t.mt {
				mtHere++
				seenMT[tu]++
				p = coords(view, inst.mt, int(tu))
			} else {
				if r.cfg.method == plainKA {
					t.Fatalf("plain k-anonymity published an external tuple")
				}
				row := r.t.pd[int(tu)-r.t.mt]
				if seenPD[row] {
					t.Fatalf("PD row %d published twice", row)
				}
				seenPD[row] = true
				if len(in.Roles.IDs) > 0 && mtIDs[inst.pd.Column("id").Value(int(row))] {
					t.Fatalf("%s: PD row %d is an MT person, published as another individual", r.cfg.variant, row)
				}
				p = coords(view, inst.pd, int(row))
			}
			for a, v := range p {
				lo[a], hi[a] = math.Min(lo[a], v), math.Max(hi[a], v)
			}
		}
		if mtHere != b.mt {
			t.Fatalf("box %d counts %d MT tuples, holds %d", bi, b.mt, mtHere)
		}
		for a := range lo {
			if lo[a] != b.b.lo[a] || hi[a] != b.b.hi[a] {
				t.Fatalf("%s box %d is not the MBB of its members on QI %d: [%v,%v] vs [%v,%v]", r.cfg.variant, bi, a, b.b.lo[a], b.b.hi[a], lo[a], hi[a])
			}
		}
	}
	for row, n := range seenMT {
		if n != 1 {
			t.Fatalf("%s: MT row %d is in %d boxes", r.cfg.variant, row, n)
		}
	}
}

// plainGroups lists the MT rows of each sensitive group, sorted.
func sgMembers(r *run) []string {
	rows := make([][]int, r.sgs)
	for _, b := range r.boxes {
		for _, tu := range b.tuples[:b.mt] {
			rows[b.sg] = append(rows[b.sg], int(tu))
		}
	}
	out := make([]string, len(rows))
	for i, rs := range rows {
		sort.Ints(rs)
		out[i] = fmt.Sprint(rs)
	}
	sort.Strings(out)
	return out
}

func runVariant(t *testing.T, inst *instance, variant string, k int, seed uint64) *run {
	t.Helper()
	in := *inst.in
	in.Variant = variant
	in.Values = model.Values{"k": strconv.Itoa(k), "seed": strconv.FormatUint(seed, 10)}
	r, err := newRun(context.Background(), &in)
	if err != nil {
		t.Fatalf("%s: %v", variant, err)
	}
	return r
}

// TestPropertiesRandom runs every variant on random MT and PD and checks
// the invariants, the sensitive groups (Refinement's are the first-round
// k-anonymous groups, inside whose boxes its boxes lie; Section 3.2) and
// that KJA's NCP is at most plain Mondrian's on average.
func TestPropertiesRandom(t *testing.T) {
	var ncp = map[string]float64{}
	for seed := uint64(1); seed <= 60; seed++ {
		inst := randomInstance(t, seed)
		k := 2 + int(seed%7)
		if k > inst.mt.Rows {
			k = inst.mt.Rows
		}
		runs := map[string]*run{}
		for _, v := range Variants {
			r := runVariant(t, inst, v, k, seed)
			checkInvariants(t, inst, r)
			runs[v] = r
		}
		// Sensitive groups.
		for _, alg := range []string{"mondrian", "topdown"} {
			plain, ref, dir := runs[alg], runs[alg+"-refine"], runs[alg+"-direct"]
			if fmt.Sprint(sgMembers(plain)) != fmt.Sprint(sgMembers(ref)) {
				t.Fatalf("seed %d: %s-refine's sensitive groups are not %s's k-anonymous groups", seed, alg, alg)
			}
			if plain.sgs != len(plain.boxes) || dir.sgs > len(dir.boxes) {
				t.Fatalf("seed %d: plain has sensitive groups that are not boxes, or direct more groups than boxes", seed)
			}
			first := make([]box, plain.sgs)
			for _, b := range plain.boxes {
				first[b.sg] = b.b
			}
			// Refinement's first round is plain's run on MT: match groups by
			// their members to compare boxes.
			byMembers := map[string]box{}
			for _, b := range plain.boxes {
				byMembers[fmt.Sprint(sortedRows(b.tuples[:b.mt]))] = b.b
			}
			members := make([][]int32, ref.sgs)
			for _, b := range ref.boxes {
				members[b.sg] = append(members[b.sg], b.tuples[:b.mt]...)
			}
			for _, b := range ref.boxes {
				outer := byMembers[fmt.Sprint(sortedRows(members[b.sg]))]
				for a := range b.b.lo {
					if b.b.lo[a] < outer.lo[a] || b.b.hi[a] > outer.hi[a] {
						t.Fatalf("seed %d: a %s-refine box leaves its first-round box", seed, alg)
					}
				}
			}
		}
		// NCP, all normalised by the same domain (the plain runs read MT
		// alone, so renormalise them by JT's).
		jtScale := runs[MondrianDirect].t.sc
		for v, r := range runs {
			sum := 0.0
			for _, b := range r.boxes {
				for a := range b.b.lo {
					sum += float64(b.mt) * (b.b.hi[a] - b.b.lo[a]) * jtScale[a]
				}
			}
			ncp[v] += sum
		}
	}
	t.Logf("total NCP over the instances: %v", ncp)
	for _, alg := range []string{"mondrian", "topdown"} {
		for _, m := range []string{"-direct", "-refine"} {
			if ncp[alg+m] > ncp[alg]*1.0001 {
				t.Errorf("%s%s: NCP %v above %s's %v on average", alg, m, ncp[alg+m], alg, ncp[alg])
			}
		}
	}
}

func sortedRows(rows []int32) []int32 {
	out := append([]int32(nil), rows...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// exportRelease writes a run's release (as the pipeline does, without
// the pipeline) and returns the directory and the audit record.
func exportRelease(t *testing.T, r *run, seed uint64) (string, *releasedir.Audit) {
	t.Helper()
	res, err := r.result(Method{}.Spec())
	if err != nil {
		t.Fatal(err)
	}
	rel, rowMap, err := res.Release(seed)
	if err != nil {
		t.Fatal(err)
	}
	rel.Manifest.RowsIn = r.in.Table.Rows
	rel.Manifest.MissingValues = "drop"
	dir := filepath.Join(t.TempDir(), "rel")
	audit := &releasedir.Audit{Seed: seed, SeedFixed: true, RowMap: rowMap}
	if _, err := releasedir.Write(dir, rel, releasedir.WriteOptions{Audit: audit}); err != nil {
		t.Fatal(err)
	}
	return dir, audit
}

func checkRelease(dir string, opt verify.Options) (*verify.Report, error) {
	return verify.NewShared(dir).Check(opt, func(string) (verify.Declared, bool) { return verify.Declared{Check: check.Check}, true })
}

// TestReleasesCheckAndAnswer exports random runs, checks them with the
// independent checker (with and without the original, public table and
// audit record), and answers queries from the run and from the files:
// the answers must be identical, COUNT over the whole domain is |MT|,
// and a sensitive value's count over the whole domain is exact.
func TestReleasesCheckAndAnswer(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 12; seed++ {
		inst := randomInstance(t, 100+seed)
		k := 2 + int(seed%5)
		for _, v := range Variants {
			r := runVariant(t, inst, v, k, seed)
			dir, audit := exportRelease(t, r, seed)
			for _, opt := range []verify.Options{{}, {Original: inst.mt, Public: inst.pd, Audit: audit}, {Original: inst.mt, Audit: audit}} {
				rep, err := checkRelease(dir, opt)
				if err != nil || !rep.OK() {
					t.Fatalf("seed %d %s: check (original %v, public %v) fails: %v\n%s", seed, v, opt.Original != nil, opt.Public != nil, err, strings.Join(rep.Strings(), "\n"))
				}
			}
			// Without the audit record, Mondrian's disjoint boxes still pin
			// every MT tuple.
			if strings.HasPrefix(v, "mondrian") {
				rep, err := checkRelease(dir, verify.Options{Original: inst.mt, Public: inst.pd})
				if err != nil || !rep.OK() {
					t.Fatalf("seed %d %s without audit: %v\n%s", seed, v, err, strings.Join(rep.Strings(), "\n"))
				}
			}
			files, err := Method{}.OpenRelease(dir)
			if err != nil {
				t.Fatal(err)
			}
			live := r.index()
			qs := []string{"COUNT(*)", "COUNT(*) WHERE sa = 's1'", "COUNT(*) WHERE q0 BETWEEN 3 AND 9 AND sa IN ('s0', 's2')",
				"COUNT(*) WHERE q0 > 2 AND q0 <= 20", "COUNT(*) WHERE q0 != 4", "COUNT(*) WHERE q0 IN (1, 2, 5)"}
			if inst.catAxis {
				qs = append(qs, fmt.Sprintf("COUNT(*) WHERE q%d IN ('c1', 'c2') AND q0 < 10", inst.d-1))
			}
			for _, text := range qs {
				q, err := query.Parse(text)
				if err != nil {
					t.Fatal(err)
				}
				a, err1 := live.Answer(q)
				b, err2 := files.Answer(q)
				if err1 != nil || err2 != nil || a.Estimate != b.Estimate {
					t.Fatalf("seed %d %s %s: run %v %v, files %v %v", seed, v, text, a, err1, b, err2)
				}
			}
			all, _ := query.Parse("COUNT(*)")
			if a, _ := live.Answer(all); math.Abs(a.Estimate-float64(inst.mt.Rows)) > 1e-9 {
				t.Fatalf("%s: COUNT(*) = %v, want %d", v, a.Estimate, inst.mt.Rows)
			}
			s1, _ := query.Parse("COUNT(*) WHERE sa = 's1'")
			truth, _ := s1.Truth(inst.mt)
			if a, _ := live.Answer(s1); math.Abs(a.Estimate-truth.Value) > 1e-9 {
				t.Fatalf("%s: COUNT of s1 = %v, want %v", v, a.Estimate, truth.Value)
			}
		}
	}
}

// For plain k-anonymity a box's microdata count is published exactly (a
// sensitive group is one box; Direct's groups span boxes since issue
// 18.1), so a query that is one Mondrian box (boxes are disjoint) returns
// that box's MT count.
func TestPlainBoxCountsAreExact(t *testing.T) {
	inst := randomInstance(t, 7)
	for _, v := range []string{MondrianPlain} {
		r := runVariant(t, inst, v, 3, 1)
		ix := r.index()
		for _, b := range r.boxes[:min(10, len(r.boxes))] {
			var preds []string
			for a, ax := range r.t.axes {
				if ax.numeric {
					preds = append(preds, fmt.Sprintf("%s BETWEEN %s AND %s", ax.name, model.FormatNumber(b.b.lo[a]), model.FormatNumber(b.b.hi[a])))
				} else {
					var vals []string
					for p := int(b.b.lo[a]); p <= int(b.b.hi[a]); p++ {
						vals = append(vals, "'"+ax.values[p]+"'")
					}
					preds = append(preds, fmt.Sprintf("%s IN (%s)", ax.name, strings.Join(vals, ",")))
				}
			}
			q, err := query.Parse("COUNT(*) WHERE " + strings.Join(preds, " AND "))
			if err != nil {
				t.Fatal(err)
			}
			a, err := ix.Answer(q)
			if err != nil || math.Abs(a.Estimate-float64(b.mt)) > 1e-9 {
				t.Fatalf("%s: box query %s = %v (%v), want %d", v, q.Text, a.Estimate, err, b.mt)
			}
		}
	}
}

// TestSensitiveGroupsHoldK (issue 18.1): in every variant every sensitive
// group holds at least k microdata tuples (Sacharidis et al., Section 3.2:
// SI comes from a k-anonymous grouping of MT, so attribute disclosure is
// k-anonymity's), counted here from the boxes' members; Direct's groups
// are whole boxes, each box in one group. A Direct box of one microdata
// tuple with its own group would publish that person's sensitive value.
func TestSensitiveGroupsHoldK(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		inst := randomInstance(t, 300+seed)
		k := min(2+int(seed%9), inst.mt.Rows)
		for _, v := range Variants {
			r := runVariant(t, inst, v, k, seed)
			mt := make([]int, r.sgs)
			for _, b := range r.boxes {
				if b.sg < 0 || b.sg >= r.sgs {
					t.Fatalf("seed %d %s: a box in sensitive group %d of %d", seed, v, b.sg, r.sgs)
				}
				for _, tu := range b.tuples {
					if r.t.isMT(tu) {
						mt[b.sg]++
					}
				}
			}
			for g, n := range mt {
				if n < k {
					t.Fatalf("seed %d %s: sensitive group %d holds %d microdata tuples (k = %d)", seed, v, g, n, k)
				}
			}
		}
	}
}
