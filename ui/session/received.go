package session

import (
	"privlab/algorithms/method"
	"privlab/algorithms/risk"
	"privlab/model"
)

// Received is a release someone handed over, opened in the workbench
// (privlab DIR, or a directory picked with ctrl+o): its manifest, the
// independent check of its files (against the original when one is
// loaded), its groups as its files hold them, and an answerer for the
// Query pane.
type Received struct {
	Dir      string
	Manifest *model.Manifest
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
