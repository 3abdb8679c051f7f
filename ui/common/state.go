package common

import (
	"time"

	"privlab/ui/session"
)

// State is what every pane is given: the session (the project being
// tuned, the loaded table and the latest result, changed through its
// methods) with the keys and styles the panes draw with.
type State struct {
	session.Session

	Styles *Styles
	Keys   KeyMap
	// Now is the clock for run times (tests fix it so screens are stable).
	Now func() time.Time
	// ShowPath shows an absolute path on screen (nil: as it is; tests
	// show it relative to their folder so screens are stable).
	ShowPath func(string) string
}

// Fail sets an error status message, explained with the fix it asks
// for: an action was refused. It stays through recomputations of the
// same settings and goes with the next change (see
// session.Session.ExpireStatus).
func (s *State) Fail(err error) {
	s.Refuse(s.Explain(err))
}

// ShownPath is a path as the screen shows it (see ShowPath).
func (s *State) ShownPath(path string) string {
	if s.ShowPath != nil {
		return s.ShowPath(path)
	}
	return path
}
