package sampling

import (
	"privlab/algorithms/release"
	"privlab/algorithms/sampling/format"
	"privlab/model"
	"privlab/model/releasedir"
)

// release builds published.csv: the generalized QIs and the sensitive
// value of every published record, in an order drawn from the seed.
func (r *run) release(seed uint64) (*releasedir.Release, map[string][]int, error) {
	qis := r.in.Roles.QIs
	type pubRow struct {
		row   int32
		group int32
	}
	var rows []pubRow
	for _, gi := range r.pub {
		for _, ci := range r.rec.groups[gi].cells {
			for _, row := range r.rec.cells[ci].rows {
				rows = append(rows, pubRow{row, gi})
			}
		}
	}
	rng := model.NewRand(seed)
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	rowMap := make([]int, len(rows))
	for i, p := range rows {
		rowMap[i] = int(p.row)
	}
	labels := make([][]string, len(r.rec.groups))
	for _, gi := range r.pub {
		labels[gi] = r.labels(gi)
	}
	d := len(qis)
	file := releasedir.ReleaseFile{Name: format.FilePublished, Header: format.Header(qis, r.in.Roles.SA), Rows: len(rows),
		Fill: func(i int, rec []string) {
			p := rows[i]
			copy(rec, labels[p.group])
			rec[d] = r.sa.Value(int(p.row))
		}}
	res := r.res
	det := format.Details{SamplingRate: r.beta, MaxDistortion: r.maxDist, RowsConsidered: r.in.Table.Rows, RowsSampled: r.sampled,
		RowsUnsampled: r.in.Table.Rows - r.sampled, RowsSuppressed: len(r.rec.supp), RowsPublished: len(rows),
		Marginals: r.margins.source, MinGeneralization: r.minGen, Attributes: r.attrs, Sensitive: r.saVals}
	for _, f := range res.Summary {
		switch f.Name {
		case "worst margin (expected - observed confidence)":
			det.WorstMargin = f.Value
		case "max distortion":
			det.MaxDistortionSeen = f.Value
		}
	}
	det.AvgDistortion = res.Utility.Value
	man := release.Manifest(res, r.in)
	// The marginals file's path is private; the marginals themselves are
	// in the details.
	man.Parameters[paramMarginal] = r.margins.source
	man.Utility = []releasedir.Figure{{Name: "average distortion", Value: det.AvgDistortion, OK: true}}
	details, err := det.Encode()
	if err != nil {
		return nil, nil, err
	}
	man.Details = details
	man.Notes = []string{
		"published.csv holds a random sample of the records (rate sampling_rate), each with its generalized quasi-identifiers and its sensitive value, in random order; " +
			"rows_suppressed_by_method records were sampled but not published, rows_unsampled were not sampled (which ones is not published).",
		"Every record satisfies Eq. 3 of Sattar et al.: beta x #s/|E| <= 1 - (1 - Pr(t))^n, with E its group of identical generalized values in published.csv, " +
			"n the number of published records and Pr(t) the product of the public probabilities (public_knowledge: a generalized value's probability is the sum over its values) and Pr(s) (sensitive_marginals).",
		"Distortion (Definition 10) is the mean over the quasi-identifiers of 1 - depth/height in the taxonomy, the root at depth 0.",
		"Count estimates assume values uniform within each generalized value and scale by 1/sampling_rate (Section 6.1.1).",
	}
	if r.margins.source == "table" {
		man.Notes = append(man.Notes, "The public marginals are the input table's own value frequencies (as in the paper's experiments); the paper's adversary knows them.")
	}
	return &releasedir.Release{Files: []releasedir.ReleaseFile{file}, Manifest: man}, map[string][]int{format.FilePublished: rowMap}, nil
}
