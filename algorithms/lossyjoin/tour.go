package lossyjoin

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"privlab/algorithms/method"
	"privlab/model"
)

// Tour is the teaching tour of Wong et al. on their own Table 1: Table 3's
// QID-ECs by top-down specialization, the Temp table (Table 4), the NSS and
// SS tables (Tables 5, 6) and their lossy join (Table 7). Every table is
// computed by the method.
func (Method) Tour() method.Tour {
	return method.Tour{
		Title:  "(alpha,k)-anonymity by lossy join on Table 1's medical records",
		Paper:  "Wong, Liu, Yin, Huang, Fu, Pei, Sections 1-6",
		Setups: []method.Setup{table1},
		Steps:  []method.TourStep{tourTable1, tourTable3, tourTemp, tourNSSSS, tourJoin, tourAttack},
	}
}

// table1 is the paper's setting: Table 1, Figure 1's job hierarchy,
// (alpha, k) = (0.5, 2).
var table1 = method.Setup{Input: "dataset:jobs", Variant: VariantLossy,
	Roles:  model.Roles{QIs: []string{"job", "birth", "postcode"}, SA: "illness"},
	Params: model.Values{"alpha": "0.5", "k": "2", "seed": "1"}}

// withVariant is a setup with another variant.
func withVariant(s method.Setup, v string) method.Setup {
	s.Variant = v
	return s
}

// tableSection lists a table's rows, with extra columns per row.
func tableSection(title string, t *model.Table, extra []string, cell func(row, col int) string) method.Section {
	sec := method.Section{Title: title, Header: append(t.Names(), extra...)}
	for r := 0; r < t.Rows; r++ {
		var line []string
		for _, c := range t.Columns {
			line = append(line, c.Value(r))
		}
		for i := range extra {
			line = append(line, cell(r, i))
		}
		sec.Rows = append(sec.Rows, line)
	}
	return sec
}

func tourTable1(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, err := lab.Prepare(table1)
	if err != nil {
		return method.Step{}, err
	}
	h := in.Hierarchies["job"]
	hier := method.Section{Title: "Figure 1: the hierarchy of job", Header: []string{"job", "level 1", "root"}, Rows: h.Rows()}
	return method.Step{
		Title: "Table 1: the raw medical data",
		Cite:  "Table 1; Figure 1; Section 2",
		Text: []string{
			"Job, birth and postcode form the quasi-identifier; illness is sensitive. An attacker who knows a person's " +
				"quasi-identifier and finds it unique in a release learns the illness; if every tuple of a class has the same " +
				"illness, the class discloses it (the inference attack of Section 2).",
			"(alpha, k)-anonymity asks every QID-EC to hold at least k tuples and no illness above a fraction alpha of it. " +
				"The tour uses the paper's (0.5, 2). Row 2's job is printed \"manger\" in Table 1; it is manager here, as in Figure 1.",
		},
		Sections: []method.Section{tableSection("Table 1", in.Table, nil, nil), hier},
	}, nil
}

func tourTable3(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	alpha := withVariant(table1, VariantAlpha)
	_, res, err := lab.Run(ctx, alpha)
	if err != nil {
		return method.Step{}, err
	}
	rel, _, err := res.Release(1)
	if err != nil {
		return method.Step{}, err
	}
	gen, ok := method.ReleaseFile(rel, FileGeneralized)
	if !ok {
		return method.Step{}, fmt.Errorf("variant alpha published no %s", FileGeneralized)
	}
	var sizes []string
	for _, g := range res.Groups {
		sizes = append(sizes, fmt.Sprintf("%d (max illness share %s)", len(g.Rows), method.Ratio(g.Figures[FigFraction])))
	}
	return method.Step{
		Title: "Algorithm 1: top-down specialization gives Table 3",
		Cite:  "Algorithm 1; Section 6; Table 3",
		Text: []string{
			"Algorithm 1 starts from one class of fully generalized tuples and specializes one level at a time, moving back " +
				"to the parent the child classes that would break (alpha, k). On Table 1 it stops at Table 3's classes: " +
				strings.Join(sizes, ", ") + ".",
			"Published as one generalized table (variant alpha, the (alpha, k)-anonymity of the paper's reference [17]), " +
				"the classes cost generalization: white-collar, blue-collar and * replace the exact values.",
		},
		Sections: []method.Section{method.FileTable(gen)},
		Setup:    alpha,
	}, nil
}

// classOf maps every row of the table to its class's ClassID.
func classOf(res *method.Result, rows int) []int {
	out := make([]int, rows)
	for _, g := range res.Groups {
		for _, r := range g.Rows {
			out[r] = g.ID
		}
	}
	return out
}

func tourTemp(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	in, res, err := lab.Run(ctx, table1)
	if err != nil {
		return method.Step{}, err
	}
	cls := classOf(res, in.Table.Rows)
	temp := tableSection("Table 4: Temp", in.Table, []string{ClassID}, func(r, _ int) string { return fmt.Sprint(cls[r]) })
	return method.Step{
		Title: "Table 4: each record gets its class's ID",
		Cite:  "Section 6, steps 1-2; Table 4",
		Text: []string{
			fmt.Sprintf("Instead of generalizing, the lossy-join method keeps the %d classes of Table 3 as ClassIDs: the Temp "+
				"table is the raw table plus the ClassID of the class each record falls in. ClassIDs are numbered by the "+
				"method, so they may differ from the paper's; the classes are Table 4's.", len(res.Groups)),
		},
		Sections: []method.Section{temp},
	}, nil
}

func tourNSSSS(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	_, res, err := lab.Run(ctx, table1)
	if err != nil {
		return method.Step{}, err
	}
	rel, _, err := res.Release(1)
	if err != nil {
		return method.Step{}, err
	}
	nss, _ := method.ReleaseFile(rel, FileNSS)
	ss, _ := method.ReleaseFile(rel, FileSS)
	return method.Step{
		Title: "Tables 5 and 6: the NSS and SS tables",
		Cite:  "Section 5; Section 6, steps 3-4; Tables 5 and 6",
		Text: []string{
			"The Temp table is projected twice: NSS holds the exact quasi-identifiers with the ClassID, SS the ClassID with " +
				"the illness. Both are published, rows shuffled, with the remark that each row of either table is one original " +
				"record, so that nobody mistakes their join for the original table.",
		},
		Sections: []method.Section{method.FileTable(nss), method.FileTable(ss)},
	}, nil
}

func tourJoin(ctx context.Context, lab *method.TourLab) (method.Step, error) {
	_, res, err := lab.Run(ctx, table1)
	if err != nil {
		return method.Step{}, err
	}
	rel, _, err := res.Release(1)
	if err != nil {
		return method.Step{}, err
	}
	nss, _ := method.ReleaseFile(rel, FileNSS)
	ss, _ := method.ReleaseFile(rel, FileSS)
	join, bags := lossyJoin(method.FileTable(nss), method.FileTable(ss))
	var sq []string
	for _, g := range res.Groups {
		sq = append(sq, fmt.Sprintf("%d^2", len(g.Rows)))
	}
	return method.Step{
		Title: "Table 7: the join is lossy",
		Cite:  "Section 3, Table 7; Theorem 1",
		Text: []string{
			fmt.Sprintf("Joining NSS and SS on ClassID gives %d rows from %d records (%s): a class of a records gives a^2 rows, "+
				"every member linked to every illness of the class. The original pairing is lost.", len(join.Rows), res.RowsIn, strings.Join(sq, " + ")),
			"So each individual is linked to the bag of illnesses of its class, " + bags + ", shared with the other members: " +
				"the same protection as the generalized Table 3 (Theorem 1), with the quasi-identifiers undisturbed.",
		},
		Sections: []method.Section{join},
	}, nil
}

// lossyJoin joins an NSS and an SS table on ClassID (the last column of
// NSS, the first of SS), and describes the first class's bag.
func lossyJoin(nss, ss method.Section) (method.Section, string) {
	bySS := map[string][]string{}
	for _, r := range ss.Rows {
		bySS[r[0]] = append(bySS[r[0]], r[1])
	}
	out := method.Section{Title: "Table 7: NSS joined with SS on ClassID", Header: append(append([]string(nil), nss.Header...), ss.Header[1])}
	var ids []string
	seen := map[string]bool{}
	for _, r := range nss.Rows {
		id := r[len(r)-1]
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
		for _, s := range bySS[id] {
			out.Rows = append(out.Rows, append(append([]string(nil), r...), s))
		}
	}
	sort.SliceStable(out.Rows, func(a, b int) bool { return out.Rows[a][len(nss.Header)-1] < out.Rows[b][len(nss.Header)-1] })
	bag := ""
	if len(ids) > 0 {
		sort.Strings(ids)
		var first string
		for _, r := range nss.Rows {
			if r[len(r)-1] == ids[0] {
				first = strings.Join(r[:len(r)-1], ", ")
				break
			}
		}
		bag = fmt.Sprintf("e.g. (%s) in class %s with {%s}", first, ids[0], strings.Join(bySS[ids[0]], ", "))
	}
	return out, bag
}
