package sampling

import (
	"fmt"
	"sort"

	"privlab/algorithms/method"
	"privlab/model"
)

// detail explains one equivalence group: each sensitive value's observed
// and expected confidence (its records' own limit), and the records, the
// closest to their cap first, as published and as original.
func (r *run) detail(i, limit int) method.Detail {
	gi := r.pub[i]
	g := &r.rec.groups[gi]
	type cf struct {
		ci int32
		f  cellFigures
	}
	var cells []cf
	near := 0
	for _, ci := range g.cells {
		if n := len(r.rec.cells[ci].rows); n > 0 {
			f := r.cellFigures(&r.rec.cells[ci])
			cells = append(cells, cf{ci, f})
			if f.nearCap() {
				near += n
			}
		}
	}
	sort.SliceStable(cells, func(a, b int) bool { return cells[a].f.margin < cells[b].f.margin })
	sa := r.in.Roles.SA
	values := method.Section{Title: "Sensitive values (Eq. 3: observed <= expected)",
		Header: []string{sa, "#s", "obs conf", "exp conf", "margin", "Pr(t)"}}
	for _, c := range cells {
		cl := &r.rec.cells[c.ci]
		p := RecordProbability(r.groupMasses(gi), r.saP[cl.sa])
		values.Rows = append(values.Rows, []string{r.sa.Dict[cl.sa], fmt.Sprint(len(cl.rows)),
			fmt.Sprintf("%.4f", c.f.observed), fmt.Sprintf("%.4f", c.f.expected), fmt.Sprintf("%.4f", c.f.margin), fmt.Sprintf("%.3g", p)})
	}
	values.Total = len(values.Rows)
	if len(values.Rows) > limit {
		values.Rows = values.Rows[:limit]
	}
	qis := r.in.Roles.QIs
	members := method.Section{Title: "Records, closest to their cap first (◀ marks the closest)",
		Header: append(append([]string{}, qis...), sa, "limit", "margin"), Total: g.size}
	closest := true
	for _, c := range cells {
		cl := &r.rec.cells[c.ci]
		for _, row := range cl.rows {
			if len(members.Rows) >= limit {
				break
			}
			line := make([]string, 0, len(qis)+3)
			for _, col := range r.qiCols {
				line = append(line, col.Value(int(row)))
			}
			mark := ""
			if closest {
				mark = " ◀"
			}
			line = append(line, r.sa.Value(int(row)), fmt.Sprintf("%.3f", c.f.expected), fmt.Sprintf("%.3f", c.f.margin)+mark)
			members.Rows = append(members.Rows, line)
		}
		closest = false
	}
	notes := method.Section{Notes: []string{
		fmt.Sprintf("%d of %d published records · distortion %.3f (limit %s)", g.size, r.published(), g.dist, model.FormatNumber(r.maxDist)),
		fmt.Sprintf("obs = beta·#s/|E|, beta %s · exp = 1-(1-Pr(t))^n, n %d", model.FormatNumber(r.beta), r.published()),
		"a record's limit is its own expected confidence (it depends on its sensitive value)",
		fmt.Sprintf("%d of its %d records are near their cap (observed >= %.0f%% of expected confidence)", near, g.size, 100*nearCapShare),
	}}
	return method.Detail{Title: fmt.Sprintf("%d sensitive values", len(cells)), Sections: []method.Section{notes, values, members}}
}

// charts shows where the records went (published, suppressed, not
// sampled) and how far published records are from their caps.
func (r *run) charts() []method.Section {
	rows := float64(max(1, r.in.Table.Rows))
	shares := method.Section{Title: "Records: published, suppressed, not sampled (share of the input)",
		Labels: []string{"published", "suppressed", "not sampled"},
		Series: []method.Series{{Name: "share", Values: []float64{
			float64(r.published()) / rows, float64(len(r.rec.supp)) / rows, float64(r.in.Table.Rows-r.sampled) / rows}}}}
	// Observed / expected confidence of the published records, in bins.
	labels := []string{"<25%", "25-50%", "50-75%", "75-90%", "90-100%"}
	bins := make([]float64, len(labels))
	dist := map[string]float64{}
	for _, gi := range r.pub {
		g := &r.rec.groups[gi]
		for _, ci := range g.cells {
			c := &r.rec.cells[ci]
			if len(c.rows) == 0 {
				continue
			}
			f := r.cellFigures(c)
			s := capShare(f)
			b := 0
			switch {
			case s >= 90:
				b = 4
			case s >= 75:
				b = 3
			case s >= 50:
				b = 2
			case s >= 25:
				b = 1
			}
			bins[b] += float64(len(c.rows))
		}
		dist[fmt.Sprintf("%.2f", g.dist)] += float64(g.size)
	}
	caps := method.Section{Title: "Published records by observed / expected confidence", Labels: labels,
		Series: []method.Series{{Name: "records", Values: bins}}}
	var dl []string
	for k := range dist {
		dl = append(dl, k)
	}
	sort.Strings(dl)
	dv := make([]float64, len(dl))
	for i, k := range dl {
		dv[i] = dist[k]
	}
	distortion := method.Section{Title: "Published records by distortion", Labels: dl, Series: []method.Series{{Name: "records", Values: dv}}}
	return []method.Section{shares, caps, distortion}
}
