package pipeline

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"privlab/algorithms/attack"
	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// AttackMethod is what the registry gives the attacks of a method.
func AttackMethod(name string) (attack.Method, bool) {
	e, ok := catalog.EntryOf(name)
	if !ok {
		return attack.Method{}, false
	}
	return attack.Method{View: e.View, Expose: e.Expose, Attack: e.Attack}, true
}

// Attack runs the attacks on the release in dir (privlab attack).
func Attack(dir string, k *risk.Knowledge) (*attack.Report, error) {
	rel, err := verify.Open(dir)
	if err != nil {
		return nil, err
	}
	return attackOn(rel, k)
}

// attackOn runs the attacks on an opened release.
func attackOn(rel *verify.Release, k *risk.Knowledge) (*attack.Report, error) {
	m, ok := AttackMethod(rel.Manifest.Method)
	if !ok {
		return nil, &model.InputError{File: filepath.Join(rel.Dir, "manifest.json"), Msg: fmt.Sprintf("unknown method %q", rel.Manifest.Method)}
	}
	return attack.Run(rel, m, k)
}

// LoadPopulation loads a population table (--population): the same loader
// as the input, with columns named by --population-columns when the file
// has no header row.
func (e Env) LoadPopulation(path string, columns []string, maxCell int) (*model.Table, string, error) {
	t, err := e.LoadTable(Project{Input: path, Columns: columns, MaxCell: maxCell})
	if err != nil {
		return nil, "", err
	}
	return t, fmt.Sprintf("%s's %d people", filepath.Base(path), t.Rows), nil
}

// LoadPopulationOf loads the project's population table, if it names one
// and it is not loaded yet (run loads it before the method runs, so a bad
// file, or one lacking some of the input's people, is reported at once).
func (e Env) LoadPopulationOf(p *Prepared) error {
	if p.Population != nil || p.Project.Population == "" {
		return nil
	}
	t, _, err := e.LoadPopulation(p.Project.Population, p.Project.PopulationColumns, p.Project.MaxCell)
	if err != nil {
		return err
	}
	if p.Source != nil {
		if err := attack.HoldsOriginal(t, p.Source, p.Project.Roles.QIs); err != nil {
			return err
		}
	}
	p.Population = t
	return nil
}

// PopulationWords names a population in a manifest: its size only (the
// file it came from is private, as the input's path is).
func PopulationWords(n int) string { return fmt.Sprintf("a population of %d people", n) }

// exportKnowledge is what the attacks measured at export hold: the input
// as loaded (the original a recipient checks with), the public table and
// the project's population.
func exportKnowledge(p *Prepared) *risk.Knowledge {
	k := &risk.Knowledge{Original: p.Source, Public: p.Public, Population: p.Population}
	if p.Population != nil {
		k.PopulationName = PopulationWords(p.Population.Rows)
	}
	if p.PopulationMarginals != nil {
		k.Marginals, k.MarginalsName = p.PopulationMarginals, p.PopulationMarginalsName
	}
	return k
}

// measureAttacks runs the attacks on the release as it will be
// published (mem: built in memory); nil when the method has no exposer
// (its manifest states no attacks).
func measureAttacks(mem *verify.Release, method string, k *risk.Knowledge) (*attack.Report, error) {
	m, ok := AttackMethod(method)
	if !ok || m.Expose == nil {
		return nil, nil
	}
	return attack.Run(mem, m, k)
}

// ManifestAttacks are the findings as a manifest states them: no example
// (it would publish who is in the data), and what each read beside the
// release, the public table included where the population took it in.
func ManifestAttacks(rep *attack.Report, k *risk.Knowledge) []releasedir.AttackFigure {
	out := make([]releasedir.AttackFigure, 0, len(rep.Findings))
	for _, f := range rep.Findings {
		a := releasedir.AttackFigure{Attack: f.Attack, Attacker: f.Attacker, Figure: f.Figure, BoundBy: f.BoundBy, Records: f.Records,
			Detail: f.Detail, NotRun: f.NotRun, Needs: append([]string(nil), f.Needs...)}
		if f.NotRun == "" {
			a.Measured, a.Bound, a.Vacuous = finite(f.Measured), finite(f.Bound), f.Vacuous
		}
		if f.Calibrated() {
			iv := f.Interval()
			a.Trials, a.Rate, a.Baseline, a.Control, a.Risk = f.Trials, finite(f.Rate()), finite(f.Baseline), finite(f.Control), finite(f.Risk())
			a.Interval = []float64{iv[0], iv[1]}
		}
		if h := f.Holds(); h >= 0 {
			b := h == 1
			a.Holds = &b
		}
		if k.Population == nil && k.Public != nil && slices.Contains(a.Needs, "original") && f.Attack == attack.Linkage {
			a.Needs = append(a.Needs, "public")
		}
		out = append(out, a)
	}
	return out
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// checkAttacks recomputes the attacks the manifest states from the
// release's files and what they read at export: each with what the
// recipient gave (the original, the public table, the population) is
// recomputed and must read the same, figure for figure and word for
// word; one that read what was not given is named as unconfirmed. The
// release is opened again from dir (checkAttacksOn reads it as the
// checker read it).
func checkAttacks(dir string, k *risk.Knowledge, rep *verify.Report) {
	m, err := releasedir.ReadManifest(dir)
	if err != nil {
		return
	}
	attacksAgree(m, k, func(have *risk.Knowledge) (*attack.Report, error) { return Attack(dir, have) }, rep)
}

// checkAttacksOn is checkAttacks on the release the checker read.
func checkAttacksOn(rel *verify.Release, k *risk.Knowledge, rep *verify.Report) {
	attacksAgree(rel.Manifest, k, func(have *risk.Knowledge) (*attack.Report, error) { return attackOn(rel, have) }, rep)
}

// attacksAgree holds the attacks manifest m states to those run (by
// run) with what of k they read.
func attacksAgree(m *releasedir.Manifest, k *risk.Knowledge, run func(have *risk.Knowledge) (*attack.Report, error), rep *verify.Report) {
	if len(m.Attacks) == 0 {
		return
	}
	used := map[string]bool{}
	for _, a := range m.Attacks {
		for _, n := range a.Needs {
			used[n] = true
		}
	}
	// The export's knowledge: what it did not read is not given here.
	have := &risk.Knowledge{}
	given := map[string]bool{}
	if used["original"] && k.Original != nil {
		have.Original, given["original"] = k.Original, true
		if used["public"] && k.Public != nil {
			have.Public, given["public"] = k.Public, true
		}
	}
	if used["population"] && k.Population != nil {
		have.Population, have.PopulationName, given["population"] = k.Population, PopulationWords(k.Population.Rows), true
	}
	if used["marginals"] && k.Marginals != nil {
		have.Marginals, have.MarginalsName, given["marginals"] = k.Marginals, k.MarginalsName, true
	}
	got, err := run(have)
	if err != nil {
		rep.Add(false, "attacks", "the attacks the manifest states cannot be recomputed: %v", err)
		return
	}
	recomputed := map[string]releasedir.AttackFigure{}
	for _, a := range ManifestAttacks(got, have) {
		recomputed[a.Attack] = a
	}
	var differ, unconfirmed []string
	for _, a := range m.Attacks {
		if !all(a.Needs, given) {
			unconfirmed = append(unconfirmed, a.Attack+" (needs the "+strings.Join(a.Needs, ", the ")+")")
			continue
		}
		b, ok := recomputed[a.Attack]
		if !ok || !sameAttack(a, b) {
			differ = append(differ, a.Attack)
			rep.Add(false, "claim attacks."+a.Attack, "the manifest states %s, the files give %s", attackText(a), attackText(b))
		}
	}
	if len(differ) > 0 {
		return
	}
	text := fmt.Sprintf("the %d attacks the manifest states agree with the files", len(m.Attacks)-len(unconfirmed))
	if len(m.Attacks)-len(unconfirmed) == 1 {
		text = "the 1 attack the manifest states agrees with the files"
	}
	if len(unconfirmed) > 0 {
		text += "; unconfirmed without the files they read: " + strings.Join(unconfirmed, "; ")
	}
	rep.Add(true, "attacks", "%s", text)
}

func all(needs []string, given map[string]bool) bool {
	for _, n := range needs {
		if !given[n] {
			return false
		}
	}
	return true
}

// sameAttack compares two attack figures field by field.
func sameAttack(a, b releasedir.AttackFigure) bool {
	return attackText(a) == attackText(b)
}

// attackText renders every field of an attack figure.
func attackText(a releasedir.AttackFigure) string {
	num := func(x *float64) string {
		if x == nil {
			return "null"
		}
		return strconv.FormatFloat(*x, 'g', -1, 64)
	}
	cal := ""
	if a.Trials > 0 {
		cal = fmt.Sprintf(", rate %s of %d, baseline %s, control %s, risk %s %v", num(a.Rate), a.Trials, num(a.Baseline), num(a.Control), num(a.Risk), a.Interval)
	}
	return fmt.Sprintf("%s: attacker %q, measured %s (%s), bound %s (%s%s), %s, %d records, %q, needs %v%s%s",
		a.Attack, a.Attacker, num(a.Measured), a.Figure, num(a.Bound), a.BoundBy, map[bool]string{true: "; vacuous: " + a.Vacuous}[a.Vacuous != ""],
		a.Verdict(), a.Records, a.Detail, a.Needs, map[bool]string{true: ", not run: " + a.NotRun}[a.NotRun != ""], cal)
}

// AttackSummary says in one short line what an attack stated in a
// manifest found ("membership: broken, 1 against the bound 0.5 (1381)").
func AttackSummary(a releasedir.AttackFigure) string {
	switch {
	case a.NotRun != "":
		return a.Attack + ": not run (" + a.NotRun + ")"
	case a.Bound == nil:
		return fmt.Sprintf("%s: not bounded, %s %s (%d reached)", a.Attack, a.Figure, model.FormatFixed(*a.Measured, 4), a.Records)
	case a.Vacuous != "":
		return fmt.Sprintf("%s: not bounded, %s %s against a bound of %s that bounds nothing (%d reached)", a.Attack, a.Figure,
			model.FormatFixed(*a.Measured, 4), model.FormatFixed(*a.Bound, 4), a.Records)
	}
	// A bound that holds may still let the attack reach some records
	// (within it): "holds ... (succeeds on 4)" read as a contradiction.
	reached := fmt.Sprintf("%d reached", a.Records)
	if a.Holds != nil && *a.Holds {
		reached += ", within the bound"
	}
	return fmt.Sprintf("%s: %s, %s %s against the bound %s (%s)", a.Attack, a.Verdict(), a.Figure,
		model.FormatFixed(*a.Measured, 4), model.FormatFixed(*a.Bound, 4), reached)
}

// PreviewAttacks measures the attacks on a run's release as it would be
// published (built in memory, as Risk measures it), with what an export
// would give them: the input, the public table and the project's
// population. The workbench shows them beside the method's definition
// (it measures them on the build its risk figures read: Preview).
func (e Env) PreviewAttacks(ctx context.Context, p *Prepared, res *method.Result) (*attack.Report, error) {
	return NewPreview(res).Attacks(ctx, e, p)
}

// PopulationWarning says, before a run given a population, that the data
// holds a larger share of the population than the presence bound its
// method promises ("" when it does not, or the method promises none): a
// release publishing the data's records puts each person it covers in
// the data with probability at least that share (the base rate the
// membership attack measures after the run), so no release keeps the
// bound.
func PopulationWarning(p *Prepared) string {
	presence := p.Method.Spec().Presence
	if presence == nil || p.Population == nil || p.Population.Rows == 0 || p.Table == nil {
		return ""
	}
	bound, by := presence(p.Values)
	share := float64(p.Table.Rows) / float64(p.Population.Rows)
	if math.IsNaN(bound) || share <= bound {
		return ""
	}
	return fmt.Sprintf("the data holds %d of the population's %d people (%s), more than the presence bound %s: a release publishing them "+
		"puts each person it covers in the data with probability at least %s, so no release can keep the bound (the membership attack measures it after the run)",
		p.Table.Rows, p.Population.Rows, model.FormatFixed(share, 4), by, model.FormatFixed(share, 4))
}

// WholeMarginals are the value frequencies of a partitioned run's whole
// population, the marginals each partition is attacked with (an
// attacker holding the population reads them whatever partition a
// person is in; sampling's Eq. 3 is stated against them).
func WholeMarginals(pop *model.Table, roles model.Roles) (map[string]map[string]float64, string) {
	attrs := append(append([]string(nil), roles.QIs...), roles.SA)
	return risk.PopulationMarginals(pop, attrs), "the whole population's value frequencies (" + PopulationWords(pop.Rows) + ")"
}
