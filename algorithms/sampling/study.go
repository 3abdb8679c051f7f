package sampling

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dustin/go-humanize"

	"privlab/algorithms/method"
	"privlab/algorithms/sampling/format"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
	"privlab/model/query"
)

// mondrian is the baseline of Sattar et al., Section 6.1: Mondrian
// k-anonymity, declared in the Spec (Baselines) and run through the lab
// by name (never imported).
var mondrian = method.Baseline{Method: "kja", Variant: "mondrian",
	Why: "Sattar et al., Section 6.1: Mondrian k-anonymity is the generalization whose records break Eq. 3 (Figure 3, Table 5)"}

// adultSA is the sensitive attribute of the paper's Adult experiments:
// "the salary attribute as the sensitive information ... < 50k and >= 50k"
// (Sattar et al., Section 6); ARX's Adult names it salary-class.
const adultSA = "salary-class"

// paperQueries is the size of the paper's workload (Section 6.1.1).
const paperQueries = 1000

// maxKs are the k the Max.k search tries, in order (Table 5 reports 70
// and 90).
var maxKs = []int{2, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100, 125, 150, 200, 300, 500, 1000}

// study reproduces the shape of Section 6.1 (Figure 4, Table 5): the
// method's release against Mondrian with k = Avg.k (the release's average
// group size) and k = Max.k (the smallest k for which every Mondrian
// record satisfies Eq. 3), by the average relative error of random count
// queries, split into small (< 1% of the records), large (> 10%) and all
// queries. It runs on the studied input and on UCI Adult when the folder
// of real datasets (method.Lab.SharedData) holds it (with the paper's sensitive attribute,
// the salary). Each query table is followed by its verdict: which release
// wins each query class, how that compares with the paper's finding, and
// where the setup differs from the paper's.
func study(ctx context.Context, lab *method.Lab) ([]method.Section, error) {
	type dataset struct {
		name  string
		in    *method.Input
		setup []string
	}
	queries := lab.Queries
	if queries <= 0 {
		queries = 200
	}
	common := []string{}
	if queries != paperQueries {
		common = append(common, fmt.Sprintf("%s random count queries, the paper %s (Section 6.1.1; a workload of %d queries matches it)", thousands(queries), thousands(paperQueries), paperQueries))
	}
	common = append(common, "queries condition on up to 4 quasi-identifiers and the sensitive value, drawn at true-answer selectivities 0.2%-30%; "+
		"the paper draws ranges on the quasi-identifiers and a sensitive value, not aligned with the generalizations")
	in := lab.Input
	sets := []dataset{{in.Table.Name, in, append([]string{
		fmt.Sprintf("%s records with sensitive attribute %s; the paper's census sets (IPUMS Occupation and Salary) hold 25,000-150,000 records (Table 5)", thousands(in.Table.Rows), in.Roles.SA),
	}, common...)}}
	var notes []string
	adultPath, err := lab.SharedFile("adult", "adult.csv")
	var adult *method.Input
	if err == nil {
		adult, err = loadAdult(adultPath, lab.Input)
	}
	switch {
	case adultPath == "":
		notes = append(notes, "UCI Adult not run: "+err.Error())
	case err != nil:
		notes = append(notes, "UCI Adult: "+err.Error())
	default:
		setup := []string{fmt.Sprintf("%s records: ARX's cut of Adult is UCI's training split without unknown values; the paper's Adult has 45,222 (Section 6)", thousands(adult.Table.Rows))}
		if adult.Roles.SA == adultSA {
			setup = append(setup, "sensitive attribute "+adultSA+" (<=50K, >50K), as the paper's salary; the studied input's "+in.Roles.SA+" is not used here")
		} else {
			setup = append(setup, "sensitive attribute "+adult.Roles.SA+"; the paper's is the salary ("+adultSA+")")
		}
		setup = append(setup, "quasi-identifiers "+strings.Join(adult.Roles.QIs, ", ")+"; the paper uses 6 without naming them")
		sets = append(sets, dataset{"UCI Adult (" + adultPath + ")", adult, append(setup, common...)})
	}
	var secs []method.Section
	for i, ds := range sets {
		s, err := compare(ctx, lab, ds.name, ds.in, queries, ds.setup)
		if err != nil {
			return nil, err
		}
		secs = append(secs, s...)
		if lab.Progress != nil {
			lab.Progress(float64(i+1) / float64(len(sets)))
		}
	}
	if len(notes) > 0 {
		secs = append(secs, method.Section{Notes: notes})
	}
	return secs, nil
}

// loadAdult loads Adult with the study's quasi-identifiers, the paper's
// sensitive attribute (salary-class, when Adult has it and it is not a
// quasi-identifier; the study's otherwise) and parameters (an error when
// Adult lacks a column of the roles); its hierarchies are the files
// beside it.
func loadAdult(path string, like *method.Input) (*method.Input, error) {
	t, err := csvfile.LoadFile(path, csvfile.LoadOptions{})
	if err != nil {
		return nil, err
	}
	roles := model.Roles{QIs: like.Roles.QIs, SA: like.Roles.SA}
	if t.Column(adultSA) != nil && !slices.Contains(roles.QIs, adultSA) {
		roles.SA = adultSA
	}
	used := roles.Used()
	if _, err := t.MustColumns("qi", used); err != nil {
		return nil, fmt.Errorf("it has no column for every attribute of the study (%v)", used)
	}
	t, _ = t.HandleMissing(used, model.DropMissing)
	hs := map[string]*hierarchy.Hierarchy{}
	for _, a := range used {
		var h *hierarchy.Hierarchy
		if f := filepath.Join(filepath.Dir(path), "adult_hierarchy_"+a+".csv"); fileExists(f) {
			h, err = hierarchy.ReadFile(a, f)
		} else {
			h, err = hierarchy.Build("auto", t.Column(a))
		}
		if err != nil {
			return nil, err
		}
		hs[a] = h
	}
	return &method.Input{Table: t, Roles: roles, Hierarchies: hs, Variant: like.Variant, Values: like.Values}, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// compare runs the method and the baseline on one input: the run's
// figures, the query errors, the verdict against the paper followed by
// setup (where the setup differs from the paper's), and the Max.k search.
func compare(ctx context.Context, lab *method.Lab, name string, in *method.Input, queries int, setup []string) ([]method.Section, error) {
	own, err := Method{}.Run(ctx, in)
	if err != nil {
		return nil, err
	}
	avgK := max(2, int(math.Round(float64(own.Published)/math.Max(1, float64(len(own.Groups))))))
	head := method.Section{Title: "Sattar et al., Section 6.1 on " + name,
		Header: []string{"records", "beta", "delta'", "published", "suppressed", "groups", "Avg.k", "Max.k"}}
	row := []string{fmt.Sprint(in.Table.Rows), format.ParamRate.Text(in.Values), format.ParamMaxDistortion.Text(in.Values), fmt.Sprint(own.Published),
		fmt.Sprint(own.Suppressed), fmt.Sprint(len(own.Groups)), fmt.Sprint(avgK)}

	// The criterion of Eq. 3 on a Mondrian release (every record
	// published: beta = 1).
	r := &run{in: in, values: in.Values, beta: 1}
	if err := r.prepare(); err != nil {
		return nil, err
	}
	releases := []studied{{name: "sampling (this release)", res: own}}
	base := func(k int) (*method.Result, error) {
		return lab.Run(ctx, mondrian.Method, mondrian.Variant, model.Values{method.GroupSizeParam: fmt.Sprint(k)}, in)
	}
	mAvg, err := base(avgK)
	var sweep method.Section
	switch {
	case isUnknownMethod(err):
		row = append(row, "—")
		head.Rows = [][]string{row}
		head.Notes = []string{fmt.Sprintf("generalization baseline (%s) not available", mondrian)}
	case err != nil:
		row = append(row, "—")
		head.Rows = [][]string{row}
		head.Notes = []string{fmt.Sprintf("generalization baseline (%s) failed: %v", mondrian, err)}
	default:
		releases = append(releases, studied{name: fmt.Sprintf("Mondrian k = Avg.k = %d", avgK), k: avgK, res: mAvg})
		sweep = method.Section{Title: "Mondrian: records that break Eq. 3 (beta = 1) by k (Figure 3)", Header: []string{"k", "groups", "unsatisfied", "share"}}
		maxK := -1
		for _, k := range maxKs {
			if k > in.Table.Rows/2 && k > 2 {
				break
			}
			res, err := base(k)
			if err != nil {
				sweep.Notes = append(sweep.Notes, fmt.Sprintf("k = %d: %v", k, err))
				break
			}
			bad := r.unsatisfied(res)
			sweep.Rows = append(sweep.Rows, []string{fmt.Sprint(k), fmt.Sprint(len(res.Groups)), fmt.Sprint(bad),
				fmt.Sprintf("%.2f%%", 100*float64(bad)/math.Max(1, float64(in.Table.Rows)))})
			if bad == 0 {
				maxK = k
				releases = append(releases, studied{name: fmt.Sprintf("Mondrian k = Max.k = %d", k), k: k, res: res})
				break
			}
		}
		if maxK < 0 {
			row = append(row, "none")
			sweep.Notes = []string{"no k tried gives a Mondrian release where every record satisfies Eq. 3"}
		} else {
			row = append(row, fmt.Sprint(maxK))
		}
		head.Rows = [][]string{row}
	}
	errs, measured, err := queryErrors(in, releases, queries, lab.Seed)
	if err != nil {
		return nil, err
	}
	against := method.Section{Title: "Against the paper (Section 6.1.1, Figure 4) on " + name,
		Notes: append(verdict(releases, measured), prefixed("the setup differs from the paper's: ", setup)...)}
	out := []method.Section{head, errs, against}
	if sweep.Title != "" {
		out = append(out, sweep)
	}
	return out, nil
}

// studied is one release the study measures.
type studied struct {
	name string
	k    int
	res  *method.Result
}

func isUnknownMethod(err error) bool {
	var pe *model.ParamError
	return errors.As(err, &pe) && pe.Param == "method"
}

// unsatisfied counts the records of a release (all published, beta = 1)
// whose observed confidence #s/|E| exceeds the expected confidence of
// their group's generalization: each QI's range of values in the group,
// in taxonomy order, with the mass of the values in it.
func (r *run) unsatisfied(res *method.Result) int {
	n := 0
	for _, g := range res.Groups {
		n += len(g.Rows)
	}
	bad := 0
	masses := make([]float64, len(r.tax))
	for _, g := range res.Groups {
		if len(g.Rows) == 0 {
			continue
		}
		for i, t := range r.tax {
			lo, hi := int32(math.MaxInt32), int32(-1)
			for _, row := range g.Rows {
				pos := t.first[r.leaf[i][r.qiCols[i].Codes[row]]]
				lo, hi = min(lo, pos), max(hi, pos)
			}
			m := 0.0
			for p := lo; p <= hi; p++ {
				m += t.mass[t.leaves[p]]
			}
			masses[i] = m
		}
		counts := map[uint32]int{}
		for _, row := range g.Rows {
			counts[r.sa.Codes[row]]++
		}
		for code, c := range counts {
			exp := ExpectedConfidence(RecordProbability(masses, r.saP[code]), n)
			if !Satisfies(ObservedConfidence(1, c, len(g.Rows)), exp) {
				bad += c
			}
		}
	}
	return bad
}

// queryErrors measures each release's average relative error on random
// count queries (the paper's template: conditions on QIs and the
// sensitive value, ranges not aligned with the generalizations), split by
// the true answer's size.
// measured holds each release's errors per query class (small, large,
// all; n = 0 when the release answers none).
func queryErrors(in *method.Input, rels []studied, queries int, seed uint64) (method.Section, [][3]bucket, error) {
	sels := []float64{0.002, 0.01, 0.05, 0.15, 0.3}
	var qs []*query.Query
	for i, s := range sels {
		n := queries / len(sels)
		if i < queries%len(sels) {
			n++
		}
		if n == 0 {
			continue
		}
		q, err := workload.Generate(in.Table, in.Roles, workload.Options{Shape: workload.CountIn, Queries: n, Seed: seed + uint64(i), Selectivity: s})
		if err != nil {
			return method.Section{}, nil, err
		}
		qs = append(qs, q...)
	}
	sec := method.Section{Title: fmt.Sprintf("Average relative error of %d count queries (Figure 4)", len(qs)),
		Header: []string{"release", "small <1%", "large >10%", "all"}}
	rows := float64(in.Table.Rows)
	measured := make([][3]bucket, len(rels))
	for ri, rel := range rels {
		if rel.res.Answerer == nil {
			sec.Rows = append(sec.Rows, []string{rel.name, "—", "—", "—"})
			sec.Notes = append(sec.Notes, rel.name+": answers no queries")
			continue
		}
		w, err := workload.Evaluate(in.Table, rel.res.Answerer, qs)
		if err != nil {
			sec.Rows = append(sec.Rows, []string{rel.name, "—", "—", "—"})
			sec.Notes = append(sec.Notes, rel.name+": "+err.Error())
			continue
		}
		var small, large, all bucket
		for _, q := range w.Rows {
			if q.Skipped {
				continue
			}
			all.add(q.RelErr)
			switch {
			case float64(q.Selected) < 0.01*rows:
				small.add(q.RelErr)
			case float64(q.Selected) > 0.1*rows:
				large.add(q.RelErr)
			}
		}
		sec.Rows = append(sec.Rows, []string{rel.name, small.String(), large.String(), all.String()})
		measured[ri] = [3]bucket{small, large, all}
	}
	sec.Notes = append(sec.Notes, "the sampling estimates are scaled by 1/beta (Section 6.1.1); queries with an empty true answer are left out")
	return sec, measured, nil
}

// thousands writes n with comma separators (45222 -> 45,222), as the
// paper writes its sizes.
func thousands(n int) string { return humanize.Comma(int64(n)) }

// prefixed puts a prefix before the first line.
func prefixed(prefix string, lines []string) []string {
	out := append([]string(nil), lines...)
	if len(out) > 0 {
		out[0] = prefix + out[0]
	}
	return out
}

// queryClasses name the columns of the query table.
var queryClasses = [3]string{"small <1%", "large >10%", "all"}

// verdict closes a query table: per query class, the release with the
// lowest average error and how the method (rels[0]) fares against each
// baseline; then the paper's finding and whether this table agrees.
func verdict(rels []studied, measured [][3]bucket) []string {
	var out, lost []string
	compared := false
	for c, class := range queryClasses {
		own := measured[0][c]
		best := -1
		for i := range rels {
			if b := measured[i][c]; b.n > 0 && (best < 0 || b.mean() < measured[best][c].mean()) {
				best = i
			}
		}
		if best < 0 || own.n == 0 {
			out = append(out, class+" queries: none measured")
			continue
		}
		var below, above []string
		for i := 1; i < len(rels); i++ {
			b := measured[i][c]
			if b.n == 0 {
				continue
			}
			compared = true
			vs := fmt.Sprintf("%s (%.3f)", rels[i].name, b.mean())
			switch {
			case own.mean() < b.mean():
				below = append(below, vs)
			case own.mean() > b.mean():
				above = append(above, vs)
				lost = append(lost, fmt.Sprintf("%s queries against %s", class, rels[i].name))
			default:
				above = append(above, vs+" (equal)")
				lost = append(lost, fmt.Sprintf("%s queries against %s (equal)", class, rels[i].name))
			}
		}
		winner := rels[best].name
		if best == 0 {
			winner = Name
		}
		line := fmt.Sprintf("%s queries: %s wins (%.3f); %s %.3f", class, winner, measured[best][c].mean(), Name, own.mean())
		if len(below) > 0 {
			line += " is below " + strings.Join(below, " and ")
		}
		if len(above) > 0 {
			if len(below) > 0 {
				line += " but"
			}
			line += " is not below " + strings.Join(above, " and ")
		}
		out = append(out, line)
	}
	paper := "Sattar et al. report sampling's error below Mondrian's (k = Avg.k and k = Max.k) for small, large and all queries " +
		"(Section 6.1.1, Figure 4: \"the query errors of our method are always less than those of Mondrian\")"
	switch {
	case !compared:
		out = append(out, paper+"; without the baseline this table cannot say")
	case len(lost) == 0:
		out = append(out, paper+"; this table agrees")
	default:
		out = append(out, paper+"; this table contradicts it for "+strings.Join(lost, ", "))
	}
	return out
}

type bucket struct {
	sum float64
	n   int
}

func (b *bucket) add(x float64) { b.sum += x; b.n++ }

func (b bucket) mean() float64 { return b.sum / float64(max(1, b.n)) }

func (b bucket) String() string {
	if b.n == 0 {
		return "— (0)"
	}
	return fmt.Sprintf("%.3f (%d)", b.sum/float64(b.n), b.n)
}
