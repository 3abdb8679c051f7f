package distribution

import (
	"math"
	"privlab/algorithms/distribution/format"
	"strconv"

	"privlab/algorithms/release"
	"privlab/model"
	"privlab/model/hierarchy"
	"privlab/model/releasedir"
)

// release builds the publishable files (Koudas et al. 2009, Section 2,
// footnote 1: a QI table and an SA table joined by the group id). Rows of
// both tables are shuffled independently with the seed, so row positions
// link neither table to the other nor to the input.
func (r *run) release(seed uint64, values model.Values, target Target) (*releasedir.Release, map[string][]int, error) {
	rng := model.NewRand(seed)
	if err := checkQINames(r.in.Roles.QIs); err != nil {
		return nil, nil, err
	}
	ids := release.NumbersFrom(r.in.IDBase, len(r.groups))
	qiFile, rowMap := r.qiFile(rng, ids)
	bounds := nodeBounds(r.h)
	saFile := r.saFile(rng, ids, bounds)
	order, nodeID := depthFirstNodes(r.h)
	files := []releasedir.ReleaseFile{qiFile, saFile, r.hierarchyFile(order, nodeID, bounds), r.domainFile()}
	if r.perGroup {
		files = append(files, r.groupWeightsFile(ids, order, nodeID))
	}
	man, err := r.releaseManifest(values, target, qiFile.Rows, saFile.Rows)
	if err != nil {
		return nil, nil, err
	}
	rel := &releasedir.Release{Files: files, Manifest: man}
	return rel, map[string][]int{format.FileQI: rowMap}, nil
}

// checkQINames refuses a quasi-identifier named GroupID, the name the
// release gives the join column.
func checkQINames(qis []string) error {
	for _, q := range qis {
		if q == "GroupID" {
			return &model.ParamError{Param: "qi", Value: q, Reason: "a quasi-identifier may not be called GroupID (the release uses that name)"}
		}
	}
	return nil
}

// qiFile is qi.csv: every member row with its group id, shuffled. It
// returns the input row of each of its rows too.
func (r *run) qiFile(rng *model.Rand, ids []string) (releasedir.ReleaseFile, []int) {
	qis := r.in.Roles.QIs
	qiCols := make([]*model.Column, len(qis))
	for i, q := range qis {
		qiCols[i] = r.in.Table.Column(q)
	}
	type qiRow struct {
		row   int32
		group int32
	}
	var qrows []qiRow
	for gi, g := range r.groups {
		for _, row := range g.rows {
			qrows = append(qrows, qiRow{row, int32(gi)})
		}
	}
	rng.Shuffle(len(qrows), func(i, j int) { qrows[i], qrows[j] = qrows[j], qrows[i] })
	rowMap := make([]int, len(qrows))
	for i, q := range qrows {
		rowMap[i] = int(q.row)
	}
	return releasedir.ReleaseFile{Name: format.FileQI, Header: format.QIHeader(qis), Rows: len(qrows),
		Fill: func(i int, rec []string) {
			q := qrows[i]
			rec[0] = ids[q.group]
			for c, col := range qiCols {
				rec[c+1] = col.Value(int(q.row))
			}
		}}, rowMap
}

// saFile is sa.csv: every generalized subdomain (fakes included),
// shuffled (Koudas et al. 2009, Sections 3 and 5).
func (r *run) saFile(rng *model.Rand, ids []string, bounds [][2]string) releasedir.ReleaseFile {
	type saRow struct {
		group int32
		node  int32
	}
	var srows []saRow
	for gi, g := range r.groups {
		for _, c := range g.gen.Copies {
			for k := int32(0); k < c.Count; k++ {
				srows = append(srows, saRow{int32(gi), c.Node})
			}
		}
	}
	rng.Shuffle(len(srows), func(i, j int) { srows[i], srows[j] = srows[j], srows[i] })
	return releasedir.ReleaseFile{Name: format.FileSA, Header: format.SAHeader, Rows: len(srows),
		Fill: func(i int, rec []string) {
			s := srows[i]
			rec[0] = ids[s.group]
			rec[1], rec[2] = bounds[s.node][0], bounds[s.node][1]
		}}
}

// nodeBounds is each hierarchy node's Low and High as published.
func nodeBounds(h *hierarchy.Hierarchy) [][2]string {
	bounds := make([][2]string, len(h.Nodes))
	for n := range h.Nodes {
		lo, hi := h.Bounds(n)
		bounds[n] = [2]string{lo, hi}
	}
	return bounds
}

// depthFirstNodes lists the nodes depth first with children in domain
// order, and numbers them in that order (nodeID), so hierarchy.csv reads
// as the tree it is.
func depthFirstNodes(h *hierarchy.Hierarchy) (order, nodeID []int) {
	order = make([]int, 0, len(h.Nodes))
	var walk func(n int)
	walk = func(n int) {
		order = append(order, n)
		for _, c := range h.Nodes[n].Children {
			walk(c)
		}
	}
	walk(0)
	nodeID = make([]int, len(h.Nodes))
	for i, n := range order {
		nodeID[n] = i
	}
	return order, nodeID
}

// hierarchyFile is hierarchy.csv: the privacy-annotated hierarchy needed
// to read sa.csv (Koudas et al. 2009, Section 3).
func (r *run) hierarchyFile(order, nodeID []int, bounds [][2]string) releasedir.ReleaseFile {
	h := r.h
	weights := r.global
	if weights == nil && len(r.groups) > 0 {
		weights = r.groups[0].ann
	}
	return releasedir.ReleaseFile{Name: format.FileHierarchy, Header: format.HierarchyHeader, Rows: len(order),
		Fill: func(i int, rec []string) {
			n := order[i]
			rec[0] = strconv.Itoa(i)
			rec[1] = ""
			if p := h.Nodes[n].Parent; p >= 0 {
				rec[1] = strconv.Itoa(nodeID[p])
			}
			rec[2], rec[3] = bounds[n][0], bounds[n][1]
			rec[4] = strconv.FormatInt(weights.Weight[n], 10)
		}}
}

// domainFile is sa_domain.csv: the sensitive attribute's values in leaf
// order, under a header that names the attribute. It says how to read a
// Low..High range of a categorical attribute, and it binds the
// attribute's name to the data files (check compares it with the
// manifest), so a renamed attribute cannot make a query answer about the
// wrong column. It lists the domain, not records: its order is the
// hierarchy's.
func (r *run) domainFile() releasedir.ReleaseFile {
	h := r.h
	return releasedir.ReleaseFile{Name: format.FileDomain, Header: []string{r.in.Roles.SA}, Rows: len(h.Leaves),
		Fill: func(i int, rec []string) { rec[0] = h.Nodes[h.Leaves[i]].Label }}
}

// groupWeightsFile is group_weights.csv: each group's own node weights,
// when every group has its own target.
func (r *run) groupWeightsFile(ids []string, order, nodeID []int) releasedir.ReleaseFile {
	edges := len(r.h.Nodes)
	return releasedir.ReleaseFile{Name: format.FileGroupWeights, Header: format.GroupWeightsHeader,
		Rows: len(r.groups) * edges,
		Fill: func(i int, rec []string) {
			g, n := i/edges, order[i%edges]
			rec[0] = ids[g]
			rec[1] = strconv.Itoa(nodeID[n])
			rec[2] = strconv.FormatInt(r.groups[g].ann.Weight[n], 10)
		}}
}

// releaseManifest is the release's manifest: its details (target,
// domain, effective target, fakes, ranges), utility and notes, for
// published QI rows and subdomains SA rows.
func (r *run) releaseManifest(values model.Values, target Target, published, subdomains int) (releasedir.Manifest, error) {
	res := r.res
	h := r.h
	// A custom target's file path is private: the effective target below
	// says all a reader needs.
	targetName := target.String()
	if target.Kind == TargetCustom {
		targetName = "custom"
	}
	det := format.Details{Grouping: r.grouping.String(), Target: targetName, MaxDenominator: format.ParamMaxDenominator.Of(values),
		PerGroupTarget: r.perGroup, Subdomains: subdomains}
	for _, l := range h.Leaves {
		det.Domain = append(det.Domain, h.Nodes[l].Label)
	}
	if r.global != nil {
		// Only the effective target is published (it is needed to read
		// sa.csv); the requested one may be the table's exact histogram.
		det.Effective = roundAll(r.global.Effective)
		det.TargetEMD, det.TargetMaxAbs = r.global.EMD(), r.global.MaxAbs()
	}
	for _, g := range r.groups {
		det.FakeValues += g.gen.NumFakes
		det.SumOfRanges += g.gen.SumOfRanges
	}
	det.FigureSummary = release.Summaries(res, func(key string) bool { return key != "dist" })
	man := release.Manifest(res, r.in)
	man.Parameters[paramTarget] = targetName
	man.Published = published
	man.Utility = []releasedir.Figure{
		{Name: "sum of ranges", Value: det.SumOfRanges, OK: true},
		{Name: "avg range per subdomain", Value: det.SumOfRanges / math.Max(1, float64(subdomains)), OK: true},
	}
	details, err := det.Encode()
	if err != nil {
		return releasedir.Manifest{}, err
	}
	man.Details = details
	man.Notes = []string{
		"qi.csv holds the quasi-identifiers unchanged; sa.csv holds each group's generalized sensitive subdomains (fake values included and indistinguishable), shuffled; join them on GroupID.",
		"A tuple's sensitive value follows the effective target: P(v | subdomain) is given by the Weight column of hierarchy.csv (children's weights are in the ratio of their probability mass).",
	}
	if r.perGroup {
		man.Notes = append(man.Notes, "each group has its own target: read weights from group_weights.csv (GroupID, NodeID, Weight) instead of hierarchy.csv's Weight column")
	}
	return man, nil
}

func roundAll(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Round(x*1e9) / 1e9
	}
	return out
}
