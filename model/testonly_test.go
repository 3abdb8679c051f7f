package model

// Statements lists every statement (for tests that render each).
func Statements() []Statement {
	out := make([]Statement, numStatements)
	for i := range out {
		out[i] = Statement(i)
	}
	return out
}

// String is the mode as ParseHeaderMode reads it ("" for detect).
func (m HeaderMode) String() string {
	switch m {
	case HeaderYes:
		return "yes"
	case HeaderNo:
		return "no"
	}
	return ""
}
