package lossyjoin

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"privlab/algorithms/lossyjoin/format"
	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/model"
	"privlab/model/query"
)

// The study reproduces the comparison of Wong et al., Section 7: the
// average relative error of COUNT queries with qd conditions A IN (b
// values), b = ceil(|A| s^(1/(qd+1))), and one on the sensitive attribute
// (the count-in workload), answered on Alpha(Lossy), Alpha and Anatomy
// with the same k and alpha. On NSS and SS it gives two answers: the
// proportional estimate the releases answer with (Xiao and Tao's) and the
// SQL of Section 7 read literally (answer.go). It runs on the studied
// input with eval's workload (--qd, --selectivity and --queries set qd, s
// and the number of queries), then with the paper's workload (qd = 4,
// s = 0.05, at least 1000 queries) on census with the paper's setup
// (Table 8: eight QIs, occupation as the sensitive attribute, k = 2,
// alpha = 0.33, n = 45,222) and on UCI Adult when the folder of real
// datasets (method.Lab.SharedData) holds it. The workload package conditions a numeric QI (age) on a
// BETWEEN range covering the same share of its domain, not on the
// paper's IN set of b values; the sections say so.

// paperRoles is Table 8's setup: the first eight attributes are the QIs,
// occupation the sensitive attribute.
var paperRoles = model.Roles{
	QIs: []string{"age", "workclass", "education", "marital-status", "race", "sex", "native-country", "salary-class"},
	SA:  "occupation",
}

// paperValues are the paper's default parameters (Section 7).
var paperValues = model.Values{"k": "2", "alpha": "0.33", "seed": "1"}

// paperRows is the paper's n: Adult without unknown values.
const paperRows = 45222

// The paper's workload (Section 7): 1000 queries per setting, qd = 4,
// s = 0.05.
const (
	paperQueries     = 1000
	paperDims        = 4
	paperSelectivity = 0.05
)

// variantNames are the paper's names of the variants.
var variantNames = map[string]string{VariantLossy: "Alpha(Lossy)", VariantAlpha: "Alpha", VariantAnatomy: "Anatomy"}

// shapeNote says how the workload on in differs from the paper's: the
// workload package conditions numeric QIs on ranges.
func shapeNote(in *method.Input) string {
	var numeric []string
	for _, q := range in.Roles.QIs {
		if c := in.Table.Column(q); c != nil && c.Kind == model.Numeric && len(c.Nums) > 1 {
			numeric = append(numeric, q)
		}
	}
	if len(numeric) == 0 {
		return "every condition is an IN set of b values, as in the paper"
	}
	return fmt.Sprintf("numeric quasi-identifiers (%s) get a BETWEEN range over the same share of their domain instead of the paper's IN set of b values",
		strings.Join(numeric, ", "))
}

func study(ctx context.Context, lab *method.Lab) ([]method.Section, error) {
	var secs []method.Section
	in := lab.Input
	own := func(res *method.Result) ([]float64, int, error) {
		var means []float64
		n := 0
		for _, a := range answerers(res) {
			r := *res
			r.Answerer = a
			mean, queries, err := lab.Error(&r, in, workload.CountIn)
			if err != nil {
				return nil, 0, err
			}
			means, n = append(means, mean), queries
		}
		return means, n, nil
	}
	sec := compare(ctx, lab, in, in.Values, own,
		fmt.Sprintf("Wong et al., Section 7, on this input (%d rows, k = %s, alpha = %s): average relative error of COUNT queries",
			in.Table.Rows, format.ParamK.Text(in.Values), format.ParamAlpha.Text(in.Values)))
	generated := lab.Queries
	if generated <= 0 {
		generated = 100 // the workload package's default
	}
	sec.Notes = append([]string{fmt.Sprintf("workload: eval's %d count-in queries (eval sets their number, dimensions and selectivity); %s", generated, shapeNote(in))}, sec.Notes...)
	secs = append(secs, sec)
	if lab.Progress != nil {
		lab.Progress(0.3)
	}
	if lab.OpenAs == nil {
		if lab.Progress != nil {
			lab.Progress(1)
		}
		return secs, nil
	}
	queries := max(lab.Queries, paperQueries)
	cin, err := lab.OpenAs("dataset:census", paperRoles, nil, paperRows, 0)
	if err != nil {
		secs = append(secs, method.Section{Title: "census, the paper's setup", Notes: []string{"not run: " + err.Error()}})
	} else {
		secs = append(secs, paperCompare(ctx, lab, cin, queries,
			fmt.Sprintf("Wong et al., Section 7, Table 8 setup on census (synthetic Adult, %d rows, 8 QIs, SA occupation, k = 2, alpha = 0.33)", cin.Table.Rows)))
	}
	if lab.Progress != nil {
		lab.Progress(0.6)
	}
	// UCI Adult as ARX cuts it, with its hierarchies, from the folder of
	// real datasets the caller gave (lab.SharedData).
	adult, err := lab.SharedFile("adult", "adult.csv")
	if err == nil {
		hs := map[string]string{}
		for _, a := range append(append([]string(nil), paperRoles.QIs...), paperRoles.SA) {
			hs[a] = filepath.Join(filepath.Dir(adult), "adult_hierarchy_"+a+".csv")
		}
		ain, err := lab.OpenAs(adult, paperRoles, hs, 0, 0)
		if err != nil {
			secs = append(secs, method.Section{Title: "UCI Adult", Notes: []string{"not run: " + err.Error()}})
		} else {
			secs = append(secs, paperCompare(ctx, lab, ain, queries,
				fmt.Sprintf("Wong et al., Section 7, Table 8 setup on UCI Adult (%s, %d rows, ARX hierarchies, k = 2, alpha = 0.33)", adult, ain.Table.Rows)))
		}
	} else {
		secs = append(secs, method.Section{Title: "UCI Adult", Notes: []string{"not run: " + err.Error()}})
	}
	if lab.Progress != nil {
		lab.Progress(1)
	}
	return secs, nil
}

// paperCompare compares the variants on in with the paper's workload.
func paperCompare(ctx context.Context, lab *method.Lab, in *method.Input, queries int, title string) method.Section {
	opt := workload.Options{Shape: workload.CountIn, Queries: queries, Seed: lab.Seed, Dims: paperDims, Selectivity: paperSelectivity}
	qs, err := workload.Generate(in.Table, in.Roles, opt)
	if err != nil {
		return method.Section{Title: title, Notes: []string{"not run: " + err.Error()}}
	}
	truth, err := truths(in.Table, qs)
	if err != nil {
		return method.Section{Title: title, Notes: []string{"not run: " + err.Error()}}
	}
	sec := compare(ctx, lab, in, paperValues, func(res *method.Result) ([]float64, int, error) {
		return meanErrors(res, qs, truth)
	}, title)
	sec.Notes = append([]string{fmt.Sprintf("workload: the paper's, %d queries COUNT(*) WHERE %d QI conditions AND one on %s, selectivity s = %g (seed %d); %s",
		len(qs), paperDims, in.Roles.SA, paperSelectivity, lab.Seed, shapeNote(in))}, sec.Notes...)
	return sec
}

// truths are the queries' answers on the original (NaN: no record
// selected or a zero count, which a relative error cannot use).
func truths(t *model.Table, qs []*query.Query) ([]float64, error) {
	out := make([]float64, len(qs))
	for i, q := range qs {
		a, err := q.Truth(t)
		if err != nil {
			return nil, err
		}
		out[i] = a.Value
		if a.Empty || a.Value == 0 {
			out[i] = -1
		}
	}
	return out, nil
}

// answerers are a result's answerers the study measures: its own and, on
// NSS and SS, the literal SQL of Section 7.
func answerers(res *method.Result) []method.Answerer {
	if x, ok := res.Answerer.(*joinIndex); ok {
		return []method.Answerer{x, literalSQL{x}}
	}
	return []method.Answerer{res.Answerer}
}

// meanErrors is the average relative error |est - act| / act of each of
// the result's answerers over the queries with a positive true count
// (Section 7), as workload.Evaluate measures it, with the truths computed
// once and both answers on NSS and SS from one pass.
func meanErrors(res *method.Result, qs []*query.Query, truth []float64) ([]float64, int, error) {
	answer := func(q *query.Query) ([]method.Bounds, error) {
		b, err := res.Answerer.Answer(q)
		return []method.Bounds{b}, err
	}
	if x, ok := res.Answerer.(*joinIndex); ok {
		answer = func(q *query.Query) ([]method.Bounds, error) {
			p, l, err := x.answerBoth(q)
			return []method.Bounds{p, l}, err
		}
	}
	var sums []float64
	n := 0
	for i, q := range qs {
		if truth[i] <= 0 {
			continue
		}
		bs, err := answer(q)
		if err != nil {
			return nil, 0, err
		}
		if sums == nil {
			sums = make([]float64, len(bs))
		}
		for j, b := range bs {
			sums[j] += math.Abs(b.Estimate-truth[i]) / truth[i]
		}
		n++
	}
	for j := range sums {
		sums[j] /= float64(n)
	}
	return sums, n, nil
}

// compare runs the three variants on in and measures each with measure:
// the error of the release's answers and, on NSS and SS, of the literal
// SQL of Section 7.
func compare(ctx context.Context, lab *method.Lab, in *method.Input, values model.Values,
	measure func(res *method.Result) ([]float64, int, error), title string) method.Section {
	sec := method.Section{Title: title,
		Header: []string{"algorithm", "variant", "classes", "avg size", "avg rel. error", "literal SQL of Section 7", "queries", "time"}}
	none := false
	for _, v := range []string{VariantLossy, VariantAlpha, VariantAnatomy} {
		start := time.Now()
		res, err := lab.Run(ctx, Name, v, values, in)
		elapsed := time.Since(start)
		if err != nil {
			sec.Rows = append(sec.Rows, []string{variantNames[v], v, "—", "—", "not run", "—", "—", "—"})
			sec.Notes = append(sec.Notes, v+": "+err.Error())
			continue
		}
		means, n, err := measure(res)
		cells := []string{"—", "—"}
		switch {
		case err != nil:
			cells = []string{"error", "error"}
			sec.Notes = append(sec.Notes, v+": "+err.Error())
		case n == 0:
			none = true
		default:
			for i, m := range means {
				cells[i] = fmt.Sprintf("%.4f", m)
			}
		}
		sec.Rows = append(sec.Rows, []string{variantNames[v], v, fmt.Sprint(len(res.Groups)),
			fmt.Sprintf("%.2f", float64(res.Published)/float64(max(1, len(res.Groups)))),
			cells[0], cells[1], fmt.Sprint(n), fmt.Sprintf("%dms", elapsed.Milliseconds())})
	}
	sec.Notes = append(sec.Notes, "avg rel. error: of the release's answers, on NSS and SS the expected count on the lossy join (per class, matching NSS rows x matching SS rows / class size: Xiao and Tao's Anatomy estimate), "+
		"on Alpha's generalized table each record counted with the share of its generalized values that match. "+
		"literal SQL of Section 7: every matching SS row of each class with a matching NSS row counted whole (Alpha publishes no SS table: —)")
	if none {
		sec.Notes = append(sec.Notes, "—: no query of the workload selected a record of this input (a relative error needs a true count above 0)")
	}
	return sec
}
