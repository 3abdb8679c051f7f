package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"privlab/algorithms/attack"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
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
		} else if err := sameOriginal(first, rel); err != nil {
			return nil, nil, err
		}
		m, ok := AttackMethod(rel.Manifest.Method)
		if !ok || m.View == nil || m.Expose == nil {
			return nil, nil, &model.InputError{File: dir + "/manifest.json", Msg: fmt.Sprintf("method %q registers no attacks", rel.Manifest.Method)}
		}
		v, err := rel.View(m.View)
		if err != nil {
			return nil, nil, err
		}
		e, err := m.Expose(rel, v)
		if err != nil {
			return nil, nil, err
		}
		if reports[i], err = attack.RunView(rel, v, e, m.Attack, k); err != nil {
			return nil, nil, err
		}
		opened[i] = attack.Opened{Name: dir, View: v, Exposure: e}
		alone[i] = AttackedAlone{Dir: dir, Report: reports[i]}
	}
	together, err := attack.Together(opened, reports, k)
	return alone, together, err
}

// sameOriginal says, as a usage error, how rel differs from first where
// releases attacked together must agree: the quasi-identifiers (in any
// order), the sensitive attribute, the input's rows, and, where both
// audit records are at hand, the input's digest.
func sameOriginal(first, rel *verify.Release) error {
	a, b := first.Manifest, rel.Manifest
	mismatch := func(what, x, y string) error {
		return &model.ParamError{Param: "attack", Value: rel.Dir,
			Reason: fmt.Sprintf("releases attacked together must come from one original: %s has %s %s, %s has %s", first.Dir, what, x, rel.Dir, y),
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
	da, errA := ReadAudit(first.Dir)
	db, errB := ReadAudit(rel.Dir)
	if errA == nil && errB == nil && da.InputSHA256 != "" && db.InputSHA256 != "" && da.InputSHA256 != db.InputSHA256 {
		return mismatch("(by its audit record) an input of digest", da.InputSHA256[:12], db.InputSHA256[:12])
	}
	return nil
}

func quoted(s string) string { return fmt.Sprintf("%q", s) }
