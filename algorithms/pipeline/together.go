package pipeline

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"privlab/algorithms/attack"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// AttackedAlone is one release's own attacks, among several attacked
// together.
type AttackedAlone struct {
	Dir    string
	Report *attack.Report
}

// AttackTogether attacks each release in dirs alone and all of them
// together (privlab attack DIR1 DIR2 ...): they must be releases of one
// original with the same quasi-identifiers and sensitive attribute.
func AttackTogether(dirs []string, k *risk.Knowledge) ([]AttackedAlone, []risk.Finding, error) {
	opened := make([]attack.Opened, len(dirs))
	alone := make([]AttackedAlone, len(dirs))
	reports := make([]*attack.Report, len(dirs))
	var first *verify.Release
	for i, dir := range dirs {
		rel, err := verify.Open(dir)
		if err != nil {
			return nil, nil, err
		}
		if first == nil {
			first = rel
		} else if err := sameOriginal(nil, first, rel); err != nil {
			return nil, nil, err
		}
		if err := notTwice(dirs[:i], rel); err != nil {
			return nil, nil, err
		}
		if opened[i], reports[i], err = attackAlone(rel, dir, k); err != nil {
			return nil, nil, err
		}
		alone[i] = AttackedAlone{Dir: dir, Report: reports[i]}
	}
	together, err := attack.Together(opened, reports, k)
	return alone, together, err
}

// attackAlone reads an opened release's view and exposure and attacks it
// alone; name names it in the findings.
func attackAlone(rel *verify.Release, name string, k *risk.Knowledge) (attack.Opened, *attack.Report, error) {
	m, ok := AttackMethod(rel.Manifest.Method)
	if !ok || m.View == nil || m.Expose == nil {
		return attack.Opened{}, nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: fmt.Sprintf("method %q registers no attacks", rel.Manifest.Method)}
	}
	v, err := rel.View(m.View)
	if err != nil {
		return attack.Opened{}, nil, err
	}
	e, err := m.Expose(rel, v)
	if err != nil {
		return attack.Opened{}, nil, err
	}
	rep, err := attack.RunView(rel, v, e, m.Attack, k)
	return attack.Opened{Name: name, View: v, Exposure: e}, rep, err
}

// notTwice refuses a release given twice, by its path or its content
// (the manifest's digest covers every file's): with itself, a release
// would seem to confirm its own beliefs.
func notTwice(before []string, rel *verify.Release) error {
	d, err := releasedir.ManifestDigest(rel.Manifest)
	if err != nil {
		return err
	}
	for _, dir := range before {
		m, err := releasedir.ReadManifest(dir)
		if err != nil {
			return err
		}
		if dm, err := releasedir.ManifestDigest(m); err == nil && dm == d || filepath.Clean(dir) == filepath.Clean(rel.Dir) {
			return &model.ParamError{Param: "attack", Value: rel.Dir, Reason: fmt.Sprintf("%s and %s are the same release", dir, rel.Dir),
				Hint: "give each release once: attacked with itself, a release seems to confirm its own beliefs"}
		}
	}
	return nil
}

// sameOriginal says, as a usage error, how rel differs from first where
// releases attacked together must agree: the quasi-identifiers (in any
// order), the sensitive attribute, the input's rows, and, where both
// audit records are at hand, the input's digest.
func sameOriginal(f *Cache, first, rel *verify.Release) error {
	a, b := first.Manifest, rel.Manifest
	name := first.Dir
	if name == "" {
		name = "this release"
	}
	mismatch := func(what, x, y string) error {
		return &model.ParamError{Param: "attack", Value: rel.Dir,
			Reason: fmt.Sprintf("releases attacked together must come from one original: %s has %s %s, %s has %s", name, what, x, rel.Dir, y),
			Hint:   "attack together only releases exported from the same table with the same quasi-identifiers and sensitive attribute"}
	}
	qa, qb := slices.Sorted(slices.Values(a.QIs)), slices.Sorted(slices.Values(b.QIs))
	switch {
	case !slices.Equal(qa, qb):
		return mismatch("the quasi-identifiers", strings.Join(a.QIs, ","), strings.Join(b.QIs, ","))
	case a.SA != b.SA:
		return mismatch("the sensitive attribute", quoted(a.SA), quoted(b.SA))
	case a.RowsIn != b.RowsIn:
		return mismatch("an input of", fmt.Sprintf("%d rows", a.RowsIn), fmt.Sprintf("%d rows", b.RowsIn))
	}
	if first.Dir == "" || rel.Dir == "" {
		return nil // a release built in memory has no audit record yet
	}
	da, errA := f.ReadAudit(first.Dir)
	db, errB := f.ReadAudit(rel.Dir)
	if errA == nil && errB == nil && da.InputSHA256 != "" && db.InputSHA256 != "" && da.InputSHA256 != db.InputSHA256 {
		return mismatch("(by its audit record) an input of digest", da.InputSHA256[:12], db.InputSHA256[:12])
	}
	return nil
}

func quoted(s string) string { return fmt.Sprintf("%q", s) }

// Together is a release attacked together with the earlier releases of
// its input.
type Together struct {
	// Earlier counts the earlier releases attacked with it; Skipped says
	// which were left out and why (gone, or of another table or columns).
	Earlier  int
	Skipped  []string
	Findings []risk.Finding
}

// AttacksTogether attacks the preview's release together with the
// earlier releases in dirs (the project's Earlier), with what an export
// gives the attacks: the Export pane shows it before a new export.
func (pv *Preview) AttacksTogether(ctx context.Context, e Env, p *Prepared, dirs []string) (*Together, error) {
	k, err := e.previewKnowledge(p)
	if err != nil {
		return nil, err
	}
	mem, err := pv.Built(ctx)
	if err != nil {
		return nil, err
	}
	o, rep, err := attackAlone(mem, "this release", k)
	if err != nil {
		return nil, err
	}
	opened, reports := []attack.Opened{o}, []*attack.Report{rep}
	out := &Together{}
	for _, dir := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rel, err := verify.Open(dir)
		if err == nil {
			err = sameOriginal(e.Cache, mem, rel)
		}
		if made, ok := e.Cache.AuditProject(dir); err == nil && ok && sameSettings(made, p.Project) {
			err = fmt.Errorf("made with this release's settings: the same release")
		}
		if err == nil {
			o, rep, err = attackAlone(rel, dir, k)
		}
		if err != nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s (%v)", dir, err))
			continue
		}
		opened, reports = append(opened, o), append(reports, rep)
	}
	if out.Earlier = len(opened) - 1; out.Earlier == 0 {
		return out, nil
	}
	out.Findings, err = attack.Together(opened, reports, k)
	return out, err
}

// sameSettings reports whether two projects make the same release: the
// same input, roles, method, variant, parameters (the seed among them),
// hierarchies and public table.
func sameSettings(a, b Project) bool {
	return a.Input == b.Input && a.Method == b.Method && a.Variant == b.Variant && a.Public == b.Public &&
		slices.Equal(a.Roles.QIs, b.Roles.QIs) && a.Roles.SA == b.Roles.SA && slices.Equal(a.Roles.IDs, b.Roles.IDs) &&
		maps.Equal(a.Params, b.Params) && maps.Equal(a.Hierarchies, b.Hierarchies)
}
