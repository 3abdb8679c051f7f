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

// In adds column IN (the values of the column's codes): a categorical
// column's list also carries the codes, so that binding it to that
// column sets them without reading the dictionary (codeHint).
func (w *QueryWriter) In(l *Literals, codes []uint32) {
	w.InInto(l, codes, make([]Literal, len(codes)))
}
