package lossyjoin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"privlab/algorithms/method"
	"privlab/algorithms/workload"
	"privlab/model"
)

// The study reproduces the comparison of Wong et al., Section 7: the
// average relative error of COUNT queries with qd conditions A IN (b
// values), b = ceil(|A| s^(1/(qd+1))), and one on the sensitive attribute
// (the count-in workload; --qd, --selectivity and --queries set qd, s and
// the number of queries), answered on Alpha(Lossy), Alpha and Anatomy
// with the same k and alpha. It runs on the studied input, on census with
// the paper's setup (Table 8: eight QIs, occupation as the sensitive
// attribute, k = 2, alpha = 0.33, n = 45,222) and on UCI Adult when
// ../shared/data/adult holds it.

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

// AdultDir is where the study looks for UCI Adult (ARX's cut, with its
// hierarchies), relative to the working directory.
var AdultDir = filepath.Join("..", "shared", "data", "adult")

// variantNames are the paper's names of the variants.
var variantNames = map[string]string{VariantLossy: "Alpha(Lossy)", VariantAlpha: "Alpha", VariantAnatomy: "Anatomy"}

func study(ctx context.Context, lab *method.Lab) ([]method.Section, error) {
	var secs []method.Section
	in := lab.Input
	secs = append(secs, compare(ctx, lab, in, in.Values,
		fmt.Sprintf("Wong et al., Section 7, on this input (%d rows, k = %s, alpha = %s): average relative error of COUNT queries",
			in.Table.Rows, in.Values["k"], in.Values["alpha"])))
	if lab.Progress != nil {
		lab.Progress(0.3)
	}
	if lab.OpenAs != nil {
		cin, err := lab.OpenAs("dataset:census", paperRoles, nil, paperRows, 0)
		if err != nil {
			secs = append(secs, method.Section{Title: "census, the paper's setup", Notes: []string{"not run: " + err.Error()}})
		} else {
			secs = append(secs, compare(ctx, lab, cin, paperValues,
				fmt.Sprintf("Wong et al., Section 7, Table 8 setup on census (synthetic Adult, %d rows, 8 QIs, SA occupation, k = 2, alpha = 0.33)", cin.Table.Rows)))
		}
		if lab.Progress != nil {
			lab.Progress(0.6)
		}
		adult := filepath.Join(AdultDir, "adult.csv")
		if _, err := os.Stat(adult); err == nil {
			hs := map[string]string{}
			for _, a := range append(append([]string(nil), paperRoles.QIs...), paperRoles.SA) {
				hs[a] = filepath.Join(AdultDir, "adult_hierarchy_"+a+".csv")
			}
			ain, err := lab.OpenAs(adult, paperRoles, hs, 0, 0)
			if err != nil {
				secs = append(secs, method.Section{Title: "UCI Adult", Notes: []string{"not run: " + err.Error()}})
			} else {
				secs = append(secs, compare(ctx, lab, ain, paperValues,
					fmt.Sprintf("Wong et al., Section 7, Table 8 setup on UCI Adult (%s, %d rows, ARX hierarchies, k = 2, alpha = 0.33)", adult, ain.Table.Rows)))
			}
		} else {
			secs = append(secs, method.Section{Title: "UCI Adult", Notes: []string{"not run: " + adult + " is not present"}})
		}
	}
	if lab.Progress != nil {
		lab.Progress(1)
	}
	return secs, nil
}

// compare runs the three variants on in and measures the workload.
func compare(ctx context.Context, lab *method.Lab, in *method.Input, values model.Values, title string) method.Section {
	sec := method.Section{Title: title,
		Header: []string{"algorithm", "variant", "classes", "avg size", "avg rel. error", "queries", "time"}}
	for _, v := range []string{VariantLossy, VariantAlpha, VariantAnatomy} {
		start := time.Now()
		res, err := lab.Run(ctx, Name, v, values, in)
		elapsed := time.Since(start)
		if err != nil {
			sec.Rows = append(sec.Rows, []string{variantNames[v], v, "—", "—", "not run", "—", "—"})
			sec.Notes = append(sec.Notes, v+": "+err.Error())
			continue
		}
		mean, n, err := lab.Error(res, in, workload.CountIn)
		errText := fmt.Sprintf("%.4f", mean)
		if err != nil {
			errText = "error"
			sec.Notes = append(sec.Notes, v+": "+err.Error())
		}
		sec.Rows = append(sec.Rows, []string{variantNames[v], v, fmt.Sprint(len(res.Groups)),
			fmt.Sprintf("%.2f", float64(res.Published)/float64(max(1, len(res.Groups)))),
			errText, fmt.Sprint(n), fmt.Sprintf("%dms", elapsed.Milliseconds())})
	}
	return sec
}
