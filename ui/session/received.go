package session

import (
	"sort"

	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model"
	"privlab/model/releasedir"
)

// Received is a release someone handed over, opened in the workbench
// (privlab DIR, or a directory picked with ctrl+o): its manifest, the
// independent check of its files (against the original when one is
// loaded), its groups as its files hold them, and an answerer for the
// Query pane.
type Received struct {
	Dir      string
	Manifest *releasedir.Manifest
	Answerer method.Answerer
	Check    []string
	CheckOK  bool
	CheckErr error
	// Unproven are the privacy guarantees no check failed but the files
	// (and tables) given could not confirm (verify.Report.Unproven).
	Unproven []string
	// Against says what the check compared the files with: the original
	// (and public table) named, or why it read the files alone.
	Against string
	// Risk and View are the release as an attacker reads it (its method's
	// viewer over its files): the figures every release gets and the
	// classes a person's quasi-identifiers cannot split, riskiest first.
	Risk    *risk.Report
	View    *risk.View
	Classes []int // indexes into View.Regions, smallest first
	RiskErr error
}

// OriginalFor is the loaded table as the received release's check and
// queries compare with (nil without a table).
func (s *Session) OriginalFor() *model.Table {
	return s.Table
}

// TruthFor is the original for a received release's query answers: the
// rows its missing-value policy publishes.
func (s *Session) TruthFor() *model.Table {
	r := s.Received
	if s.Table == nil || r == nil {
		return nil
	}
	policy, _ := model.ParseMissingPolicy(r.Manifest.MissingValues)
	roles := model.Roles{QIs: r.Manifest.QIs, SA: r.Manifest.SA}
	if _, err := s.Table.MustColumns("original", roles.Used()); err != nil {
		return nil
	}
	t, _ := s.Table.HandleMissing(roles.Used(), policy)
	return t
}

// ReadReceived is the release opened from dir (its manifest and
// answerer), checked against the original and public table given (nil:
// from its files alone, as against says) and read as an attacker reads
// it, its classes smallest first.
func ReadReceived(dir string, man *releasedir.Manifest, ans method.Answerer, original, public *model.Table, against string) *Received {
	r := &Received{Dir: dir, Manifest: man, Answerer: ans, Against: against}
	rep, err := pipeline.Check(dir, original, public)
	if err != nil {
		r.CheckErr = err
	} else {
		r.Check, r.CheckOK, r.Unproven = rep.Strings(), rep.OK(), rep.Unproven
	}
	if r.Risk, r.View, r.RiskErr = pipeline.ReleaseRisk(dir, 0); r.RiskErr == nil {
		r.Classes = make([]int, len(r.View.Regions))
		for i := range r.Classes {
			r.Classes[i] = i
		}
		regions := r.View.Regions
		key := func(i int) string { return r.View.CellKey(regions[i]) }
		sort.SliceStable(r.Classes, func(a, b int) bool {
			x, y := regions[r.Classes[a]], regions[r.Classes[b]]
			if x.Records != y.Records {
				return x.Records < y.Records
			}
			return key(r.Classes[a]) < key(r.Classes[b]) // row order says nothing
		})
	}
	return r
}
