package partitioned

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"

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
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	top := filepath.Join(dir, "manifest.json")
	if m.Partitioned == nil {
		return nil, &model.InputError{File: top, Msg: "not a partitioned release (no \"partitioned\" entry)"}
	}
	plan, err := partitionplan.Decode(m.Partitioned.Plan)
	if err != nil {
		return nil, &model.InputError{File: top, Msg: err.Error()}
	}
	if plan.Partitions != len(m.Partitioned.Parts) {
		return nil, &model.InputError{File: top, Msg: fmt.Sprintf("the plan has %d partitions, the manifest lists %d", plan.Partitions, len(m.Partitioned.Parts))}
	}
	if err := onlyListed(dir, m); err != nil {
		return nil, err
	}
	rel := &Release{Dir: dir, Manifest: m, Plan: plan}
	for i, part := range m.Partitioned.Parts {
		if part.Dir != PartDir(i) {
			return nil, &model.InputError{File: top, Msg: fmt.Sprintf("partition %d is listed as %q, not %s", i, part.Dir, PartDir(i))}
		}
		pm, err := releasedir.ReadManifest(filepath.Join(dir, part.Dir))
		if err != nil {
			return nil, err
		}
		if sum, err := releasedir.ManifestDigest(pm); err != nil || sum != part.ManifestSHA256 {
			return nil, &model.InputError{File: filepath.Join(dir, part.Dir, "manifest.json"), Msg: "its digest is not the one the top manifest.json states: the partition was changed or replaced"}
		}
		rel.Parts = append(rel.Parts, pm)
	}
	return rel, nil
}

// onlyListed refuses a partitioned release holding anything but its
// manifest and its listed parts (a file slipped in would be published).
func onlyListed(dir string, m *releasedir.Manifest) error {
	listed := map[string]bool{"manifest.json": true}
	for _, p := range m.Partitioned.Parts {
		listed[p.Dir] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &model.InputError{File: dir, Msg: err.Error()}
	}
	for _, e := range entries {
		if !listed[e.Name()] {
			return &model.InputError{File: filepath.Join(dir, e.Name()), Msg: "the partitioned release's manifest.json does not list it"}
		}
		if e.Name() != "manifest.json" && !e.IsDir() {
			return &model.InputError{File: filepath.Join(dir, e.Name()), Msg: "a partition must be a directory"}
		}
	}
	return nil
}

// Check checks a partitioned release partition by partition: each part as
// the release it is (pipeline.Env.CheckPart), with the rows of the
// original, public table and population the plan places in it and the
// whole original for the figures computed over it, then the top's
// combined figures against the parts'. Lines of a part are named
// "part-NNNNN name".
func Check(e pipeline.Env, dir string, k *risk.Knowledge) (*verify.Report, error) {
	rel, err := Verify(dir)
	if err != nil {
		return nil, err
	}
	rep := &verify.Report{Dir: dir}
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
	for i := range rel.Parts {
		pdir := filepath.Join(dir, PartDir(i))
		prep, err := e.CheckPart(pdir, parts[i], pipeline.PartOf{Whole: whole, Audit: filepath.Join(AuditDir(dir), PartDir(i)+".audit.json")})
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
	checkCombined(rel, rep)
	return rep, nil
}

// checkCombined holds the top manifest's counts, worst cases and attacks
// to those combined from the parts.
func checkCombined(rel *Release, rep *verify.Report) {
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
}

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
		for i := range out {
			t.set(out[i], t.table.SelectRows(rows[i]))
		}
	}
	return out, nil
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
// considered (its missing-value policy's), as the run counted them.
func wholeOf(orig *model.Table, m *releasedir.Manifest) (*model.Whole, error) {
	o, err := verify.NewOriginal(orig, m)
	if err != nil {
		return nil, err
	}
	var rows []int
	for r, kept := range o.Kept {
		if kept {
			rows = append(rows, r)
		}
	}
	return model.WholeCounts(orig.SelectRows(rows)), nil
}
