package sampling

import (
	"privlab/algorithms/release"
	"privlab/model"
)

// Details is the method's part of manifest.json: the counts of Algorithm
// 1 and the public knowledge a reader (and the checker) needs to recompute
// every record's expected confidence and distortion from published.csv.
//
// The marginals are published. By the paper's model they are public
// knowledge (Definition 1, item 3): the adversary is assumed to know them
// and the expected confidence is defined by them. When they come from the
// table itself (the default, as in the paper's experiments) they are the
// table's one-way frequencies of each QI and of the sensitive attribute,
// divided by the number of records: this reveals, e.g., that a value
// occurs once. A privacy officer who must not publish those gives
// population marginals with --marginals FILE instead.
type Details struct {
	SamplingRate  float64 `json:"sampling_rate"`
	MaxDistortion float64 `json:"max_distortion"`
	// RowsConsidered is n', the records the method read (after the
	// missing-value policy); RowsSampled = floor(beta n').
	RowsConsidered int `json:"rows_considered"`
	RowsSampled    int `json:"rows_sampled"`
	RowsUnsampled  int `json:"rows_unsampled"`
	// RowsSuppressed counts the sampled records Algorithm 1 did not
	// publish (the manifest's rows_suppressed adds the rows dropped for
	// missing values).
	RowsSuppressed int `json:"rows_suppressed_by_method"`
	RowsPublished  int `json:"rows_published"`
	// Marginals is "table" or "file".
	Marginals         string         `json:"marginals"`
	MinGeneralization map[string]int `json:"min_generalization"`
	WorstMargin       float64        `json:"worst_margin"`
	MaxDistortionSeen float64        `json:"max_distortion_published"`
	AvgDistortion     float64        `json:"avg_distortion"`
	// Attributes are the QIs' taxonomies with their public probabilities,
	// Sensitive the sensitive values' public probabilities.
	Attributes []Attribute `json:"public_knowledge"`
	Sensitive  []Value     `json:"sensitive_marginals"`
}

// release builds published.csv: the generalized QIs and the sensitive
// value of every published record, in an order drawn from the seed.
func (r *run) release(seed uint64) (*model.Release, map[string][]int, error) {
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
	file := model.ReleaseFile{Name: "published.csv", Header: append(append([]string(nil), qis...), r.in.Roles.SA), Rows: len(rows),
		Fill: func(i int, rec []string) {
			p := rows[i]
			copy(rec, labels[p.group])
			rec[d] = r.sa.Value(int(p.row))
		}}
	res := r.res
	det := Details{SamplingRate: r.beta, MaxDistortion: r.maxDist, RowsConsidered: r.in.Table.Rows, RowsSampled: r.sampled,
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
	man.Utility = []model.Figure{{Name: "average distortion", Value: det.AvgDistortion, OK: true}}
	details, err := model.EncodeDetails(det)
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
	return &model.Release{Files: []model.ReleaseFile{file}, Manifest: man}, map[string][]int{"published.csv": rowMap}, nil
}
