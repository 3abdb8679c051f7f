package partitioned

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"privlab/algorithms/partitionplan"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// Is reports whether dir holds a partitioned release (its manifest says
// so); a directory whose manifest does not read is not one.
func Is(dir string) bool {
	m, err := releasedir.ReadManifest(dir)
	return err == nil && m.Partitioned != nil
}

// Release is a partitioned release as read from its files.
type Release struct {
	Dir      string
	Manifest *releasedir.Manifest
	Plan     *partitionplan.Plan
	// Parts are the partitions' manifests, in order.
	Parts []*releasedir.Manifest
}

// Verify reads a partitioned release and holds its top to its parts: the
// plan reads, the directory holds manifest.json and the listed parts
// alone, and every part's manifest has the digest the top states.
func Verify(dir string) (*Release, error) {
	rel, problems, err := readRelease(dir)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, problems[0]
	}
	return rel, nil
}

// readRelease reads a partitioned release: an error when its top does
// not read as one (no manifest, no plan, a plan that does not list the
// parts), and problems for what was changed in it since the run (an
// entry not listed, a part missing, renamed or with another manifest
// than the top's digest), which check reports as failures.
func readRelease(dir string) (*Release, []error, error) {
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, nil, err
	}
	top := filepath.Join(dir, "manifest.json")
	if m.Partitioned == nil {
		return nil, nil, &model.InputError{File: top, Msg: "not a partitioned release (no \"partitioned\" entry)"}
	}
	plan, err := partitionplan.Decode(m.Partitioned.Plan)
	if err != nil {
		return nil, nil, &model.InputError{File: top, Msg: err.Error()}
	}
	if plan.Partitions != len(m.Partitioned.Parts) {
		return nil, nil, &model.InputError{File: top, Msg: fmt.Sprintf("the plan has %d partitions, the manifest lists %d", plan.Partitions, len(m.Partitioned.Parts))}
	}
	rel := &Release{Dir: dir, Manifest: m, Plan: plan}
	problems, err := onlyListed(dir, m)
	if err != nil {
		return nil, nil, err
	}
	for i, part := range m.Partitioned.Parts {
		pm, err := readPart(dir, i, part)
		if err != nil {
			problems = append(problems, err)
		}
		rel.Parts = append(rel.Parts, pm)
	}
	return rel, problems, nil
}

// readPart reads partition i's manifest and holds it to the entry the top
// lists for it.
func readPart(dir string, i int, part releasedir.Part) (*releasedir.Manifest, error) {
	top := filepath.Join(dir, "manifest.json")
	if part.Dir != PartDir(i) {
		return nil, &model.InputError{File: top, Msg: fmt.Sprintf("partition %d is listed as %q, not %s", i, part.Dir, PartDir(i))}
	}
	pdir := filepath.Join(dir, part.Dir)
	if _, err := os.Lstat(pdir); errors.Is(err, fs.ErrNotExist) {
		return nil, &model.InputError{File: pdir, Msg: "manifest.json lists this partition, but it is missing",
			Hint: "a partitioned release is published whole: every part-NNNNN its manifest lists"}
	}
	pm, err := releasedir.ReadManifest(pdir)
	if err != nil {
		return nil, err
	}
	if sum, err := releasedir.ManifestDigest(pm); err != nil || sum != part.ManifestSHA256 {
		return nil, &model.InputError{File: filepath.Join(pdir, "manifest.json"), Msg: "its digest is not the one the top manifest.json states: the partition was changed or replaced"}
	}
	return pm, nil
}

// onlyListed lists what a partitioned release holds but its manifest and
// its listed parts (a file slipped in would be published).
func onlyListed(dir string, m *releasedir.Manifest) ([]error, error) {
	listed := map[string]bool{"manifest.json": true}
	for _, p := range m.Partitioned.Parts {
		listed[p.Dir] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, &model.InputError{File: dir, Msg: err.Error()}
	}
	var problems []error
	for _, e := range entries {
		if !listed[e.Name()] {
			problems = append(problems, &model.InputError{File: filepath.Join(dir, e.Name()), Msg: "the partitioned release's manifest.json does not list it"})
		} else if e.Name() != "manifest.json" && !e.IsDir() {
			problems = append(problems, &model.InputError{File: filepath.Join(dir, e.Name()), Msg: "a partition must be a directory"})
		}
	}
	return problems, nil
}

// Check checks a partitioned release partition by partition: each part as
// the release it is (pipeline.Env.CheckPart), with the rows of the
// original, public table and population the plan places in it and the
// whole original for the figures computed over it, then the top against
// the parts (checkCombined: every claim of manifest.json recombined, the
// plan held to the records). A part removed, added, renamed or replaced
// fails the check (a "partitions" line), as a single release's changed
// file does. Lines of a part are named "part-NNNNN name".
func Check(e pipeline.Env, dir string, k *risk.Knowledge) (*verify.Report, error) {
	rel, problems, err := readRelease(dir)
	if err != nil {
		return nil, err
	}
	rep := &verify.Report{Dir: dir}
	if len(problems) > 0 {
		// Changed since the run, as a single release's unlisted or
		// changed file: the check fails (exit 1), naming each.
		for _, p := range problems {
			rep.Add(false, "partitions", "%v", p)
		}
		return rep, nil
	}
	rep.Add(true, "partitions", "%d partitions, each listed with its manifest's digest; the plan cuts the quasi-identifiers %d times", len(rel.Parts), len(rel.Parts)-1)
	parts, err := splitKnowledge(rel, k)
	if err != nil {
		return nil, err
	}
	var whole *model.Whole
	if k.Original != nil {
		if whole, err = wholeOf(k.Original, rel.Manifest); err != nil {
			return nil, err
		}
	}
	views := make([]*risk.View, len(rel.Parts))
	for i := range rel.Parts {
		pdir := filepath.Join(dir, PartDir(i))
		prep, err := e.CheckPart(pdir, parts[i], pipeline.PartOf{Whole: whole, Audit: filepath.Join(AuditDir(dir), PartDir(i)+".audit.json"),
			Then: func(r *verify.Release) { views[i] = exactView(r) }})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", PartDir(i), err)
		}
		for _, l := range prep.Lines {
			l.Name = PartDir(i) + " " + l.Name
			rep.Lines = append(rep.Lines, l)
		}
		for _, u := range prep.Unproven {
			rep.Unproven = append(rep.Unproven, PartDir(i)+" "+u)
		}
	}
	checkCombined(rel, views, rep)
	return rep, nil
}

// checkCombined holds the top manifest's counts, worst cases and attacks
// to those combined from the parts.
func checkCombined(rel *Release, views []*risk.View, rep *verify.Report) {
	m := rel.Manifest
	published, groups := 0, 0
	for _, pm := range rel.Parts {
		published += pm.Published
		groups += pm.Groups
	}
	rep.Add(published == m.Published && groups == m.Groups, "combined counts", "%d rows published in %d groups over the partitions (the manifest states %d and %d)", published, groups, m.Published, m.Groups)
	worst := WorstCases(rel.Parts)
	rep.Add(reflect.DeepEqual(worst, m.WorstCases) || len(worst) == 0 && len(m.WorstCases) == 0, "combined worst cases", "every constraint at its worst over the partitions is the one the manifest states")
	attacks := Attacks(attacksOf(rel.Parts))
	rep.Add(reflect.DeepEqual(attacks, m.Attacks) || len(attacks) == 0 && len(m.Attacks) == 0, "combined attacks", "the attacks the manifest states are the partitions' combined")
	differ := topDiffers(rel)
	rep.Add(len(differ) == 0, "combined manifest", "the method, parameters, roles, counts and partition list manifest.json states are its partitions' combined%s", statesOtherwise(differ))
	wrong := append(planDisagrees(rel), recordsOutsidePlan(rel, views)...)
	rep.Add(len(wrong) == 0, "plan", "the plan cuts the manifest's quasi-identifiers and its estimates add up to the %d rows it was cut for%s", rel.Plan.TableRows, statesOtherwise(wrong))
}

// statesOtherwise names what the top manifest states otherwise ("" when
// nothing).
func statesOtherwise(what []string) string {
	if len(what) == 0 {
		return ""
	}
	return " (it states otherwise: " + strings.Join(what, "; ") + ")"
}

// topDiffers lists the keys of manifest.json whose values are not those
// the partitions' manifests combine to (combine, as the run wrote it; the
// plan is taken as stated and checked by planDisagrees): an edited
// figure, parameter or part entry of the top, which no partition's digest
// covers.
func topDiffers(rel *Release) []string {
	want, err := combine(rel.Plan, rel.Parts)
	if err != nil {
		return []string{err.Error()}
	}
	want.Partitioned.Plan = rel.Manifest.Partitioned.Plan
	a, aerr := asFields(want)
	b, berr := asFields(rel.Manifest)
	if aerr != nil || berr != nil {
		return []string{"the manifest does not encode"}
	}
	var out []string
	for key := range a {
		if !reflect.DeepEqual(a[key], b[key]) {
			out = append(out, key)
		}
	}
	for key := range b {
		if _, ok := a[key]; !ok {
			out = append(out, key)
		}
	}
	sort.Strings(out)
	return out
}

// asFields is a manifest as its JSON object's keys and values.
func asFields(m *releasedir.Manifest) (map[string]any, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, json.Unmarshal(b, &out)
}

// planDisagrees lists what the plan states that the release contradicts:
// columns other than the quasi-identifiers, a sample larger than the
// table, estimates that do not add up (every cut's estimate is its two
// halves', the root's the table's rows), and a table of more rows than
// the partitions read or fewer than they published and dropped.
func planDisagrees(rel *Release) []string {
	p, m := rel.Plan, rel.Manifest
	var out []string
	names := make([]string, len(p.Columns))
	for i, c := range p.Columns {
		names[i] = c.Name
	}
	qis := slices.Clone(m.QIs)
	slices.Sort(names)
	slices.Sort(qis)
	if !slices.Equal(names, qis) {
		out = append(out, fmt.Sprintf("it cuts %s, the quasi-identifiers are %s", strings.Join(names, ","), strings.Join(qis, ",")))
	}
	if p.SampleRows < 1 || p.SampleRows > p.TableRows {
		out = append(out, fmt.Sprintf("a sample of %d of %d rows", p.SampleRows, p.TableRows))
	}
	if p.TableRows > m.RowsIn || p.TableRows < m.RowsIn-m.Suppressed {
		// The plan is cut for the rows the missing-value policy keeps.
		out = append(out, fmt.Sprintf("cut for %d rows, the partitions read %d and suppressed %d", p.TableRows, m.RowsIn, m.Suppressed))
	}
	if !estimatesAddUp(p.Root) || !about(p.Root.EstimatedRows, float64(p.TableRows)) {
		out = append(out, "its estimated rows do not add up")
	}
	return out
}

// recordsOutsidePlan lists the partitions whose published records, where
// the release publishes each record's quasi-identifiers exactly (views[i]
// is its attacker's view, nil when generalized or not read), the plan
// places in another partition: a cut edited after the run. (Generalized
// records are held to the plan only through the original's rows, by
// each part's check.)
func recordsOutsidePlan(rel *Release, views []*risk.View) []string {
	var out []string
	for i, v := range views {
		if v == nil {
			continue
		}
		at := make([]int, len(rel.Plan.Columns))
		for c, col := range rel.Plan.Columns {
			if at[c] = slices.Index(v.QIs, col.Name); at[c] < 0 {
				return nil // planDisagrees names the columns
			}
		}
		elsewhere := 0
		values := make([]string, len(at))
		for _, reg := range v.Regions {
			for c, q := range at {
				if values[c] = v.Cells[q][reg.Cells[q]]; values[c] == "?" {
					values[c] = "" // a missing value, published as its category
				}
			}
			if rel.Plan.Assign(values) != i {
				elsewhere += reg.Records
			}
		}
		if elsewhere > 0 {
			out = append(out, fmt.Sprintf("%s publishes %d records the plan places in another partition", PartDir(i), elsewhere))
		}
	}
	return out
}

// exactView is the attacker's view of a release (read once, for the
// attacks) when it publishes every record's quasi-identifiers exactly,
// else nil.
func exactView(r *verify.Release) *risk.View {
	m, ok := pipeline.AttackMethod(r.Manifest.Method)
	if !ok || m.View == nil {
		return nil
	}
	v, err := r.View(m.View)
	if err != nil || v.Generalized || v.Cells == nil {
		return nil
	}
	return v
}

// estimatesAddUp reports whether every cut's estimated rows are its
// halves' (the estimates are sample counts scaled alike).
func estimatesAddUp(n *partitionplan.Node) bool {
	if n.Cut == nil {
		return n.EstimatedRows >= 0
	}
	return about(n.EstimatedRows, n.Left.EstimatedRows+n.Right.EstimatedRows) && estimatesAddUp(n.Left) && estimatesAddUp(n.Right)
}

// about reports whether two estimates are equal but for rounding.
func about(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// splitKnowledge places what the attacker or checker holds in the plan's
// partitions.
func splitKnowledge(rel *Release, k *risk.Knowledge) ([]*risk.Knowledge, error) {
	plan := rel.Plan
	out := make([]*risk.Knowledge, plan.Partitions)
	marginals, name := k.Marginals, k.MarginalsName
	if marginals == nil && k.Population != nil {
		marginals, name = pipeline.WholeMarginals(k.Population, model.Roles{QIs: rel.Manifest.QIs, SA: rel.Manifest.SA})
	}
	for i := range out {
		c := *k
		c.Marginals, c.MarginalsName = marginals, name
		out[i] = &c
	}
	for _, t := range []struct {
		table *model.Table
		set   func(k *risk.Knowledge, t *model.Table)
	}{
		{k.Original, func(k *risk.Knowledge, t *model.Table) { k.Original = t.SelectRows(CanonicalOrder(t, nil)) }},
		{k.Public, func(k *risk.Knowledge, t *model.Table) { k.Public = t }},
		{k.Population, func(k *risk.Knowledge, t *model.Table) { k.Population = t }},
	} {
		if t.table == nil {
			continue
		}
		rows, err := rowsByPart(t.table, plan)
		if err != nil {
			return nil, err
		}
		if t.table == k.Original {
			if err := placesEveryPart(rel, t.table, rows); err != nil {
				return nil, err
			}
		}
		for i := range out {
			t.set(out[i], t.table.SelectRows(rows[i]))
		}
	}
	return out, nil
}

// placesEveryPart refuses an original the plan places no row of in a
// partition that read rows: it is not the table the release was made
// from (and a partition's check or attack has no one to read).
func placesEveryPart(rel *Release, orig *model.Table, rows [][]int) error {
	for i, pm := range rel.Parts {
		if len(rows[i]) == 0 && pm.RowsIn > 0 {
			return &model.InputError{File: orig.Name, Msg: fmt.Sprintf("the plan places none of its rows in %s, which was made from %d rows", PartDir(i), pm.RowsIn),
				Hint: "give the table the release was made from: the plan in manifest.json places each row by its quasi-identifiers"}
		}
	}
	return nil
}

// Attack attacks a partitioned release partition by partition, each part
// against the people the plan places in it (the plan is published: an
// attacker who knows a person's QIs knows their partition), and combines
// the findings as the manifest does (Attacks).
func Attack(dir string, k *risk.Knowledge) ([]releasedir.AttackFigure, error) {
	rel, err := Verify(dir)
	if err != nil {
		return nil, err
	}
	parts, err := splitKnowledge(rel, k)
	if err != nil {
		return nil, err
	}
	all := make([][]releasedir.AttackFigure, len(rel.Parts))
	for i := range rel.Parts {
		rep, err := pipeline.Attack(filepath.Join(dir, PartDir(i)), parts[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", PartDir(i), err)
		}
		all[i] = pipeline.ManifestAttacks(rep, parts[i])
	}
	return Attacks(all), nil
}

// wholeOf counts the values of the original's rows the release
// considered, as the run's survey counted them: its missing-value
// policy applied (a row dropped, or a categorical value counted as the
// category it is published as).
func wholeOf(orig *model.Table, m *releasedir.Manifest) (*model.Whole, error) {
	if _, err := verify.NewOriginal(orig, m); err != nil {
		return nil, err
	}
	policy, err := model.ParseMissingPolicy(m.MissingValues)
	if err != nil {
		return nil, err
	}
	kept, _ := orig.HandleMissing(model.Roles{QIs: m.QIs, SA: m.SA}.Used(), policy)
	return model.WholeCounts(kept), nil
}
