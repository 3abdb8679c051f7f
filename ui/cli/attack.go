package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"privlab/algorithms/attack"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model"
)

func cmdAttack(a *Args, w, ew io.Writer) error {
	if len(a.Positional) != 1 {
		return &model.ParamError{Param: "attack", Reason: "expected one release directory",
			Hint: "privlab attack DIR [--original FILE] [--population FILE] [--public FILE] [--marginals FILE] [--json]"}
	}
	dir := a.Positional[0]
	k, err := attackKnowledge(a, dir)
	if err != nil {
		return err
	}
	rep, err := pipeline.Attack(dir, k)
	if err != nil {
		return err
	}
	if a.JSON {
		if err := printAttacksJSON(w, rep); err != nil {
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

// attackExtras loads the population (--population, --population-columns)
// and the public marginals (--marginals FILE) an attacker holds.
func attackExtras(a *Args, k *risk.Knowledge) error {
	var err error
	if p := a.Project.Population; p != "" {
		if k.Population, k.PopulationName, err = env.LoadPopulation(p, a.Project.PopulationColumns, a.Project.MaxCell); err != nil {
			return err
		}
	}
	if f := a.Project.Params["marginals"]; f != "" && f != "table" {
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
}

// printAttacksJSON writes the findings as a JSON array (measured null for an attack
// that did not run; bound null without one; holds null when not bounded).
func printAttacksJSON(w io.Writer, rep *attack.Report) error {
	out := make([]jsonFinding, 0, len(rep.Findings))
	for _, f := range rep.Findings {
		j := jsonFinding{Attack: f.Attack, Attacker: f.Attacker, Records: f.Records, Example: f.Example,
			Measured: finite(f.Measured), Bound: finite(f.Bound)}
		if f.NotRun != "" {
			j.Measured = nil
			j.Example = "not run: " + f.NotRun
		}
		if h := f.Holds(); h >= 0 {
			b := h == 1
			j.Holds = &b
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
