package pipeline

import (
	"fmt"
	"slices"
	"strings"

	"privlab/algorithms/method"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model/releasedir"
)

// Thresholds of the warnings every release gets: the share of records
// suppressed or in groups generalized to the root above which a release
// is said to be of little use, and the share of published records unique
// on the published quasi-identifiers above which the workbench warns.
const (
	UselessShare = 0.10
	UniqueShare  = 0.05
)

// FileWarnings are the warnings a release's files give whatever made it
// (check recomputes them): records suppressed, records unique on the
// published quasi-identifiers, records in classes with one sensitive
// value (which their class discloses).
// single is the count risk.SingleValued gives (0 without a sensitive
// attribute).
func FileWarnings(rk *risk.Report, single, rowsIn, suppressed int, suppressionWarned bool) []string {
	var out []string
	if share := float64(suppressed) / float64(max(1, rowsIn)); rowsIn > 0 && share > UselessShare && !suppressionWarned {
		out = append(out, fmt.Sprintf("%.0f%% of the records are suppressed (above %.0f%%)", 100*share, 100*UselessShare))
	}
	if rk == nil {
		return out
	}
	if f, ok := rk.Get(risk.KeyUniqueShare); ok && f.Value > UniqueShare {
		out = append(out, fmt.Sprintf("%.0f%% of the published records are unique on the published quasi-identifiers (above %.0f%%): whoever knows a person's quasi-identifiers finds their record",
			100*f.Value, 100*UniqueShare))
	}
	if single > 0 {
		out = append(out, fmt.Sprintf("%d published records are in classes with one sensitive value: whoever finds a person's class knows their sensitive value", single))
	}
	return out
}

// ResultWarnings are the warnings of a run's result beyond its files':
// the method's own (a double count, most values at the root, a target far
// from the one asked for) and records in groups generalized to the root.
func ResultWarnings(r *method.Result) []string {
	out := append([]string(nil), r.Warnings...)
	if r.RowsIn > 0 {
		atRoot, groups := 0, 0
		for _, g := range r.Groups {
			if g.AtRoot {
				atRoot += len(g.Rows)
				groups++
			}
		}
		if share := float64(atRoot) / float64(r.RowsIn); groups > 0 && share > UselessShare {
			what := "1 group"
			if groups > 1 {
				what = fmt.Sprintf("%d groups", groups)
			}
			out = append(out, fmt.Sprintf("%.0f%% of the records are in %s generalized to the root (above %.0f%%): the release says nothing specific about them",
				100*share, what, 100*UselessShare))
		}
	}
	return out
}

// checkWarnings holds the manifest's warnings to the files: every warning
// the files give must be stated (the others are the producer's: the
// method's own and records at the root, which the groups show). The
// release is opened again from dir (checkWarningsOn reads it as the
// checker read it).
func checkWarnings(dir string, rep *verify.Report) {
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		return
	}
	warningsAgree(m, func() (*risk.Report, *risk.View, error) { return ReleaseRisk(dir, 0) }, rep)
}

// checkWarningsOn is checkWarnings on the release the checker read.
func checkWarningsOn(rel *verify.Release, rep *verify.Report) {
	warningsAgree(rel.Manifest, func() (*risk.Report, *risk.View, error) { return releaseRisk(rel, 0) }, rep)
}

// warningsAgree holds the warnings manifest m states to those of the
// figures figures recomputes.
func warningsAgree(m *releasedir.Manifest, figures func() (*risk.Report, *risk.View, error), rep *verify.Report) {
	if len(m.Attacks) == 0 && len(m.Warnings) == 0 {
		return // written before warnings were stated
	}
	rk, v, err := figures()
	if err != nil {
		return // the risk line says why
	}
	var missing []string
	for _, w := range FileWarnings(rk, Single(v), m.RowsIn, m.Suppressed, false) {
		if !slices.Contains(m.Warnings, w) {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		rep.Add(false, "claim warnings", "the files give warnings the manifest leaves out: %s", strings.Join(missing, "; "))
		return
	}
	rep.Add(true, "warnings", "the manifest states every warning the files give (%d stated)", len(m.Warnings))
}

// Single counts the published records a view's classes with one sensitive
// value disclose (0 without a sensitive attribute).
func Single(v *risk.View) int {
	if v == nil || v.SA == "" {
		return 0
	}
	return risk.SingleValued(v)
}
