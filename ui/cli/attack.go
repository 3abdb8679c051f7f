package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"privlab/algorithms/attack"
	"privlab/algorithms/partitioned"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	samplingformat "privlab/algorithms/sampling/format"
	"privlab/model"
)

func cmdAttack(a *Args, w, ew io.Writer) error {
	if len(a.Positional) == 0 {
		return &model.ParamError{Param: "attack", Reason: "expected a release directory",
			Hint: "privlab attack DIR [DIR...] [--original FILE] [--population FILE] [--public FILE] [--marginals FILE] [--json]"}
	}
	dir := a.Positional[0]
	k, err := attackKnowledge(a, dir)
	if err != nil {
		return err
	}
	if len(a.Positional) > 1 {
		for _, d := range a.Positional {
			if partitioned.Is(d) {
				return &model.ParamError{Param: "attack", Value: d, Reason: "a partitioned release is attacked alone, partition by partition, not together with other releases",
					Hint: "attack it on its own: privlab attack " + d + " --original FILE"}
			}
		}
		return attackTogether(a, k, w)
	}
	if partitioned.Is(dir) {
		return attackPartitioned(a, dir, k, w)
	}
	rep, err := pipeline.Attack(dir, k)
	if err != nil {
		return err
	}
	if a.JSON {
		if err := printAttacksJSON(raw(w), rep); err != nil {
			return err
		}
	} else {
		printAttacks(w, rep)
	}
	if n := rep.Broken(); n > 0 {
		return privacyFailure(fmt.Sprintf("%d attack(s) broke the bound their method promises", n))
	}
	return nil
}

// attackTogether attacks each release alone and all together, and
// exits 1 when one alone, or together, breaks a bound (together: the
// tightest bound every release claims).
func attackTogether(a *Args, k *risk.Knowledge, w io.Writer) error {
	alone, together, err := pipeline.AttackTogether(a.Positional, k)
	if err != nil {
		return err
	}
	broken := 0
	for _, r := range alone {
		broken += r.Report.Broken()
	}
	joint := &attack.Report{Findings: together}
	broken += joint.Broken()
	if a.JSON {
		out := jsonTogether{Together: jsonFindings(joint)}
		for _, r := range alone {
			out.Releases = append(out.Releases, jsonRelease{Dir: r.Dir, Findings: jsonFindings(r.Report)})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		for _, r := range alone {
			fmt.Fprintf(w, "%s:\n", r.Dir)
			printAttacks(w, r.Report)
		}
		fmt.Fprintln(w, "together:")
		printAttacks(w, joint)
	}
	if broken > 0 {
		return privacyFailure(fmt.Sprintf("%d attack(s) broke the bound their method promises (alone or with the releases together)", broken))
	}
	return nil
}

// jsonTogether is privlab attack --json on several releases: each
// release's findings, and the findings of the releases together.
type jsonTogether struct {
	Releases []jsonRelease `json:"releases"`
	Together []jsonFinding `json:"together"`
}

type jsonRelease struct {
	Dir      string        `json:"dir"`
	Findings []jsonFinding `json:"findings"`
}

// attackKnowledge loads what privlab attack's attacker holds: the
// original (as check loads it), the population, the public table and the
// public marginals.
func attackKnowledge(a *Args, dir string) (*risk.Knowledge, error) {
	k := &risk.Knowledge{}
	var err error
	if a.Original != "" {
		if k.Original, err = loadOriginal(a, a.Original, dir); err != nil {
			return nil, err
		}
	}
	if a.Project.Public != "" {
		if k.Public, err = env.LoadTableContext(interruptCtx(), pipeline.Project{Input: a.Project.Public, MaxCell: a.Project.MaxCell}); err != nil {
			return nil, err
		}
	}
	return k, attackExtras(a, k)
}

// marginalsFlag is --marginals, the public marginals check and attack
// read: sampling's parameter (Sattar et al., Definition 5), whose form
// the attacker's file takes.
var marginalsFlag = samplingformat.ParamMarginals.Name()

// attackExtras loads the population (--population, --population-columns)
// and the public marginals (--marginals FILE) an attacker holds.
func attackExtras(a *Args, k *risk.Knowledge) error {
	var err error
	if p := a.Project.Population; p != "" {
		if k.Population, k.PopulationName, err = env.LoadPopulation(p, a.Project.PopulationColumns, a.Project.MaxCell); err != nil {
			return err
		}
	}
	if f := samplingformat.MarginalsFile(a.Project.Params); f != "" {
		if k.Marginals, err = attack.ReadMarginals(f); err != nil {
			return err
		}
		k.MarginalsName = filepath.Base(f)
	}
	return nil
}

// printAttacks writes one line per finding, and each success's example.
func printAttacks(w io.Writer, rep *attack.Report) {
	for _, f := range rep.Findings {
		fmt.Fprintln(w, attack.Line(f))
		if f.Example != "" {
			fmt.Fprintf(w, "  e.g. %s\n", f.Example)
		}
	}
}

// jsonFinding is a finding as privlab attack --json writes it: exactly
// these keys (SPEC 3.7).
type jsonFinding struct {
	Attack   string   `json:"attack"`
	Attacker string   `json:"attacker"`
	Measured *float64 `json:"measured"`
	Bound    *float64 `json:"bound"`
	Holds    *bool    `json:"holds"`
	Records  int      `json:"records"`
	Example  string   `json:"example"`
	// The calibration (SPEC 3.7): the same attacker's success rate
	// without the release, the rate on people outside the data, and the
	// risk beyond the baseline with its 95% interval (null: no rate).
	Baseline *float64   `json:"baseline"`
	Control  *float64   `json:"control"`
	Risk     *float64   `json:"risk"`
	Interval []*float64 `json:"interval"`
	// NotRun says why the attack did not run (omitted when it ran).
	NotRun string `json:"not_run,omitempty"`
}

// printAttacksJSON writes the findings as a JSON array (measured null for an attack
// that did not run; bound null without one; holds null when not bounded).
func printAttacksJSON(w io.Writer, rep *attack.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonFindings(rep))
}

// jsonFindings are the findings as --json writes them.
func jsonFindings(rep *attack.Report) []jsonFinding {
	out := make([]jsonFinding, 0, len(rep.Findings))
	for _, f := range rep.Findings {
		j := jsonFinding{Attack: f.Attack, Attacker: f.Attacker, Records: f.Records, Example: f.Example,
			Measured: finite(f.Measured), Bound: finite(f.Bound)}
		if f.NotRun != "" {
			// Why it did not run goes in not_run alone: example is a
			// success's, and a finding that did not run has none.
			j.Measured, j.Bound, j.Example, j.NotRun = nil, nil, "", f.NotRun
		}
		if f.Calibrated() {
			iv := f.Interval()
			j.Baseline, j.Control, j.Risk = finite(f.Baseline), finite(f.Control), finite(f.Risk())
			j.Interval = []*float64{finite(iv[0]), finite(iv[1])}
		}
		if h := f.Holds(); h >= 0 {
			b := h == 1
			j.Holds = &b
		}
		out = append(out, j)
	}
	return out
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// attackPartitioned attacks a partitioned release partition by partition
// and prints the combined findings (as its manifest states them; --json:
// that array), exiting 1 when one breaks its bound.
func attackPartitioned(a *Args, dir string, k *risk.Knowledge, w io.Writer) error {
	figures, err := partitioned.Attack(dir, k)
	if err != nil {
		return err
	}
	broken := 0
	for _, f := range figures {
		if f.Holds != nil && !*f.Holds {
			broken++
		}
	}
	if a.JSON {
		enc := json.NewEncoder(raw(w))
		enc.SetIndent("", "  ")
		if err := enc.Encode(figures); err != nil {
			return err
		}
	} else {
		for _, f := range figures {
			fmt.Fprintf(w, "attack     %s\n", pipeline.AttackSummary(f))
		}
	}
	if broken > 0 {
		return privacyFailure(fmt.Sprintf("%d attack(s) broke the bound their method promises", broken))
	}
	return nil
}
