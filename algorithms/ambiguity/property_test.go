package ambiguity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/query"
	"privlab/model/releasedir"
)

// randomInput draws a small table: n rows, 1-4 QIs (numeric or
// categorical) over small domains, an SA over 1-9 values with a skew.
func randomInput(t *testing.T, rng *model.Rand) *method.Input {
	t.Helper()
	n := 1 + rng.Intn(60)
	k := 1 + rng.Intn(4)
	dom := make([]int, k)
	var b strings.Builder
	var qis []string
	for i := range dom {
		dom[i] = 1 + rng.Intn(6)
		qis = append(qis, fmt.Sprintf("q%d", i))
		fmt.Fprintf(&b, "q%d,", i)
	}
	b.WriteString("s\n")
	sdom := 1 + rng.Intn(9)
	for r := 0; r < n; r++ {
		for i := range dom {
			if i%2 == 0 {
				fmt.Fprintf(&b, "%d,", 10*rng.Intn(dom[i]))
			} else {
				fmt.Fprintf(&b, "v%d,", rng.Intn(dom[i]))
			}
		}
		s := rng.Intn(sdom)
		if rng.Intn(3) == 0 {
			s = 0 // skew towards one value
		}
		fmt.Fprintf(&b, "s%d\n", s)
	}
	tb, err := csvfile.Load(strings.NewReader(b.String()), csvfile.LoadOptions{Name: "random"})
	if err != nil {
		t.Fatal(err)
	}
	return &method.Input{Table: tb, Roles: model.Roles{QIs: qis, SA: "s"}}
}

func randomParams(rng *model.Rand) model.Values {
	alphas := []string{"1", "0.8", "0.5", "0.34", "0.25", "0.2", "0.1", "0.05"}
	betas := []string{"1", "0.5", "0.4", "0.34", "0.25", "0.2", "0.125"}
	return model.Values{"alpha": alphas[rng.Intn(len(alphas))], "beta": betas[rng.Intn(len(betas))], "seed": fmt.Sprint(rng.Intn(100))}
}

// TestPropertyRandomTables runs Algorithm 2 on random tables and holds
// every result to the definitions (checkGroups), to Theorem 5.1 by brute
// force, to its own release files, and to an independent estimator.
func TestPropertyRandomTables(t *testing.T) {
	t.Parallel()
	rng := model.NewRand(2024)
	ran, refused := 0, 0
	for iter := 0; iter < 400; iter++ {
		in := randomInput(t, rng)
		in.Values = randomParams(rng)
		res, err := Method{}.Run(context.Background(), in)
		if err != nil {
			var pe *model.ParamError
			if !errors.As(err, &pe) || (pe.Param != "alpha" && pe.Param != "beta") {
				t.Fatalf("iteration %d: %v", iter, err)
			}
			refused++
			checkRefusal(t, in, pe)
			continue
		}
		ran++
		if !res.Satisfied() {
			t.Fatalf("iteration %d: the result is not (alpha, beta)-private", iter)
		}
		checkGroups(t, in, res)
		checkTheorem51(t, in, res)
		checkRelease(t, in, res, rng)
		checkEstimates(t, in, res, rng)
		checkAcrossGroups(t, in, res)
		// Deterministic: the same input gives the same groups.
		again, err := Method{}.Run(context.Background(), in)
		if err != nil || !reflect.DeepEqual(groupRows(res), groupRows(again)) {
			t.Fatalf("iteration %d: a second run differs", iter)
		}
	}
	if ran < 100 || refused < 20 {
		t.Errorf("%d runs, %d refusals: the generator does not cover both", ran, refused)
	}
}

func groupRows(res *method.Result) [][]int32 {
	var out [][]int32
	for _, g := range res.Groups {
		out = append(out, g.Rows)
	}
	return out
}

// checkRefusal confirms a refusal: beta when fewer than ceil(1/beta)
// distinct sensitive values exist; alpha when no group size h reaches
// h / prod_i min(h, d_i) <= alpha, or when every record ends suppressed.
func checkRefusal(t *testing.T, in *method.Input, pe *model.ParamError) {
	t.Helper()
	beta := model.Values(in.Values).Float("beta")
	g := 1
	for 1/float64(g) > beta {
		g++
	}
	ds := len(in.Table.Column("s").Dict)
	if pe.Param == "beta" {
		if ds >= g {
			t.Fatalf("refused beta %v with %d distinct values (ceil(1/beta) = %d)", beta, ds, g)
		}
		return
	}
	if ds < g {
		t.Fatalf("refused alpha where beta is the problem")
	}
	if strings.Contains(pe.Reason, "suppressed") {
		return
	}
	alpha := model.Values(in.Values).Float("alpha")
	for h := g; h <= ds; h++ {
		j := 1.0
		for _, q := range in.Roles.QIs {
			j *= float64(min(h, len(in.Table.Column(q).Dict)))
		}
		if float64(h)/j <= alpha {
			t.Fatalf("refused alpha %v although groups of %d could reach %v", alpha, h, float64(h)/j)
		}
	}
}

// checkTheorem51 checks Theorem 5.1 from its definition on small groups:
// among all ways to choose |G| real records from the J combinations of the
// join of the group's value sets, the fraction containing a member's
// combination is the stated presence.
func checkTheorem51(t *testing.T, in *method.Input, res *method.Result) {
	t.Helper()
	for _, grp := range res.Groups {
		var sets [][]string
		for _, q := range in.Roles.QIs {
			c := in.Table.Column(q)
			seen := map[string]bool{}
			var vals []string
			for _, r := range grp.Rows {
				if v := c.Value(int(r)); !seen[v] {
					seen[v] = true
					vals = append(vals, v)
				}
			}
			sets = append(sets, vals)
		}
		combos := [][]string{{}}
		for _, set := range sets {
			var next [][]string
			for _, c := range combos {
				for _, v := range set {
					next = append(next, append(append([]string(nil), c...), v))
				}
			}
			combos = next
		}
		J, G := len(combos), len(grp.Rows)
		if new(big.Int).Binomial(int64(J), int64(G)).Cmp(big.NewInt(20000)) > 0 {
			continue
		}
		member := make([]string, len(sets))
		for i, q := range in.Roles.QIs {
			member[i] = in.Table.Column(q).Value(int(grp.Rows[0]))
		}
		target := -1
		for x, c := range combos {
			if reflect.DeepEqual(c, member) {
				target = x
			}
		}
		if target < 0 {
			t.Fatalf("group %d: its member is not in the join of its values (Lemma 5.1)", grp.ID)
		}
		with, all := 0, 0
		var choose func(from, left int, has bool)
		choose = func(from, left int, has bool) {
			if left == 0 {
				all++
				if has {
					with++
				}
				return
			}
			for x := from; x <= J-left; x++ {
				choose(x+1, left-1, has || x == target)
			}
		}
		choose(0, G, false)
		if p := float64(with) / float64(all); math.Abs(p-grp.Figures[FigPresence]) > 1e-12 {
			t.Fatalf("group %d: %d of %d choices contain the member: %v, the figure says %v", grp.ID, with, all, p, grp.Figures[FigPresence])
		}
	}
}

// checkRelease writes the release and reads it back: ST frequencies sum
// to the published count, every published record is covered by its group
// (the audit's group map), and the files answer as the run does, exactly.
func checkRelease(t *testing.T, in *method.Input, res *method.Result, rng *model.Rand) {
	t.Helper()
	rel, rows, err := res.Release(rng.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "rel")
	if _, err := releasedir.Write(dir, rel, releasedir.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := openScheme(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range s.st.freq {
		total += int(f)
	}
	if total != res.Published || s.groups != len(res.Groups) {
		t.Fatalf("st.csv: %d records in %d groups; the run publishes %d in %d", total, s.groups, res.Published, len(res.Groups))
	}
	// The group map lists group 1's rows, then group 2's, ...; GroupIDs
	// in the files were assigned in order of first appearance by
	// openScheme, so map them through the files' text.
	members := rows[auditGroups]
	if len(members) != res.Published {
		t.Fatalf("group map of %d rows for %d published", len(members), res.Published)
	}
	atOf := func(i int, id string, v string) bool {
		at := &s.at[i]
		for x, code := range at.code {
			if at.text[code] == v && groupText(s, at.group[x]) == id {
				return true
			}
		}
		return false
	}
	off := 0
	for id := 1; off < len(members); id++ {
		gi := -1
		for g := 0; g < s.groups; g++ {
			if groupText(s, int32(g)) == fmt.Sprint(id) {
				gi = g
			}
		}
		if gi < 0 {
			t.Fatalf("GroupID %d is not in st.csv", id)
		}
		for _, r := range members[off : off+s.size[gi]] {
			for i, q := range in.Roles.QIs {
				if !atOf(i, fmt.Sprint(id), in.Table.Column(q).Value(r)) {
					t.Fatalf("row %d is not covered by its group %d on %s", r, id, q)
				}
			}
		}
		off += s.size[gi]
	}
	qs, err := workload.Generate(in.Table, in.Roles, workload.Options{Shape: workload.CountIn, Queries: 10, Seed: rng.Uint64(), Dims: 1 + rng.Intn(len(in.Roles.QIs))})
	if err != nil {
		t.Fatal(err)
	}
	shared, read := sharedScheme(t, dir)
	for _, q := range qs {
		a, err1 := res.Answerer.Answer(q)
		b, err2 := s.Answer(q)
		if err1 != nil || err2 != nil || a.Estimate != b.Estimate || a.Empty != b.Empty {
			t.Fatalf("%s: the run answers %+v (%v), the files %+v (%v)", q.Text, a, err1, b, err2)
		}
		if c, err3 := shared.Answer(q); err3 != nil || c != b {
			t.Fatalf("%s: the files answer %+v, the files as tables parsed by another reader %+v (%v)", q.Text, b, c, err3)
		}
	}
	if res.Published > 0 && read != 1+len(in.Roles.QIs) {
		t.Fatalf("OpenReleaseTables read %d tables of the reader; want the %d files", read, 1+len(in.Roles.QIs))
	}
}

// sharedScheme opens the release in dir as check --original does
// (Method.OpenReleaseTables), its tables parsed as the checker parses
// them (kinds inferred, no missing-value tokens), and counts the tables
// it took.
func sharedScheme(t *testing.T, dir string) (method.Answerer, int) {
	t.Helper()
	read := 0
	a, err := Method{}.OpenReleaseTables(dir, func(name string) (*model.Table, error) {
		read++
		return csvfile.LoadFile(filepath.Join(dir, name), csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}, NoRows: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	return a, read
}

// checkAcrossGroups recomputes the figures across groups by brute force:
// for every input record, every group whose tables hold each of its QI
// values (covering, a scan of the whole scheme), and 1 - prod (1 - p_G)
// over those groups, p_G counted from the group's records.
func checkAcrossGroups(t *testing.T, in *method.Input, res *method.Result) {
	t.Helper()
	r := &run{in: in}
	if err := r.resolve(); err != nil {
		t.Fatal(err)
	}
	s := newScheme(in.Roles.QIs, in.Roles.SA, groupRows(res), r.qiCols, r.sa)
	presence := make([]float64, len(res.Groups))
	for gi, grp := range res.Groups {
		join := 1.0
		for _, q := range in.Roles.QIs {
			vals := map[string]bool{}
			for _, row := range grp.Rows {
				vals[in.Table.Column(q).Value(int(row))] = true
			}
			join *= float64(len(vals))
		}
		presence[gi] = float64(len(grp.Rows)) / join
	}
	many, worst := 0.0, 0.0
	for row := 0; row < in.Table.Rows; row++ {
		gs := covering(s, in.Table, row)
		if len(gs) > 1 {
			many++
		}
		absent := 1.0
		for _, g := range gs {
			absent *= 1 - presence[g]
		}
		if len(gs) > 0 {
			worst = math.Max(worst, 1-absent)
		}
	}
	figs := map[string]float64{}
	deferred, err := res.Deferred(context.Background()) // the figures across groups come after the groups
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(res.Summary, deferred...) {
		figs[f.Name] = f.Value
	}
	if figs[coveredByMany] != many || math.Abs(figs[combinedPresence]-worst) > 1e-12 {
		t.Fatalf("across groups: %v records covered by several groups, max combined %v; brute force %v and %v",
			figs[coveredByMany], figs[combinedPresence], many, worst)
	}
}

// groupText is the GroupID of a group read back from files.
func groupText(s *scheme, g int32) string { return s.ids[g] }

// checkEstimates compares Algorithm 1 with an estimator written here from
// the groups' records: per group, the count of matching sensitive values
// times, per QI with a condition, the fraction of the group's distinct
// values meeting it.
func checkEstimates(t *testing.T, in *method.Input, res *method.Result, rng *model.Rand) {
	t.Helper()
	qs, err := workload.Generate(in.Table, in.Roles, workload.Options{Shape: workload.CountIn, Queries: 10, Seed: rng.Uint64(),
		Dims: 1 + rng.Intn(len(in.Roles.QIs)), SAPoint: rng.Intn(2) == 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		want := 0.0
		for _, grp := range res.Groups {
			x := 0.0
			for _, r := range grp.Rows {
				if predsHold(in.Table, q, in.Roles.SA, int(r)) {
					x++
				}
			}
			for _, q2 := range in.Roles.QIs {
				c := in.Table.Column(q2)
				vals := map[string]int{}
				for _, r := range grp.Rows {
					vals[c.Value(int(r))] = int(r)
				}
				l := 0
				cond := false
				for _, r := range vals {
					if predsHold(in.Table, q, q2, r) {
						l++
					}
				}
				for _, p := range q.Preds {
					cond = cond || p.Column == q2
				}
				if cond {
					x *= float64(l) / float64(len(vals))
				}
			}
			want += x
		}
		b, err := res.Answerer.Answer(q)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(b.Estimate-want) > 1e-9*math.Max(1, want) || b.Empty || !b.HasEst {
			t.Fatalf("%s: estimate %+v, independent %v", q.Text, b, want)
		}
		// An estimate of 0 is exact on the published records.
		if want == 0 {
			m, _ := q.Bind(in.Table)
			for _, grp := range res.Groups {
				for _, r := range grp.Rows {
					if m.Match(int(r)) {
						t.Fatalf("%s: estimate 0 but published row %d matches", q.Text, r)
					}
				}
			}
		}
	}
}

// predsHold reports whether row r meets every predicate of q on column col.
func predsHold(t *model.Table, q *query.Query, col string, r int) bool {
	c := t.Column(col)
	for _, p := range q.Preds {
		if p.Column == col && !p.MatchValue(c.Value(r), c.Num(r), c.Kind == model.Numeric) {
			return false
		}
	}
	return true
}

// TestPickIsOptimal: with an unbounded window, every pick returns a record
// whose addition gives the group the smallest presence probability among
// all unpicked records of its bucket (brute force over the bucket); with
// the default window, every pick that was not cut does too.
func TestPickIsOptimal(t *testing.T) {
	rng := model.NewRand(99)
	checked := 0
	for iter := 0; iter < 200; iter++ {
		in := randomInput(t, rng)
		v := randomParams(rng)
		r := &run{in: in, values: v, g: ceilInv(v.Bound("beta"))}
		if err := r.resolve(); err != nil {
			t.Fatal(err)
		}
		c := r.codes()
		for _, window := range []int{1 << 30, 2} {
			b := newBuilder(c, v.Bound("alpha"), r.g)
			b.window = window
			cut := 0
			b.hook = func(b *builder, s int32, picked int32) {
				if len(b.members) == 0 {
					return
				}
				if b.stats.Cut > cut {
					cut = b.stats.Cut
					return
				}
				best := math.Inf(1)
				for _, cand := range b.bucket[s] {
					best = math.Min(best, presenceWith(b, cand))
				}
				if got := presenceWith(b, picked); got != best {
					t.Fatalf("iteration %d window %d: pick gives presence %v, the best record of the bucket %v", iter, window, got, best)
				}
				checked++
			}
			runBuilder(t, b)
		}
	}
	if checked < 500 {
		t.Errorf("only %d picks checked", checked)
	}
}

// presenceWith is the presence of the group under construction with
// record r added, counted from scratch.
func presenceWith(b *builder, r int32) float64 {
	c := b.c
	j := 1.0
	for i := 0; i < c.k; i++ {
		vals := map[uint32]bool{c.vals[int(r)*c.k+i]: true}
		for _, m := range b.members {
			vals[c.vals[int(m)*c.k+i]] = true
		}
		j *= float64(len(vals))
	}
	return float64(len(b.members)+1) / j
}

// runBuilder runs Algorithm 2 on a prepared builder.
func runBuilder(t *testing.T, b *builder) {
	t.Helper()
	if _, err := b.build(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}
