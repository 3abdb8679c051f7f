package releasedir

// Statements lists every statement (for tests that render each).
func Statements() []Statement {
	out := make([]Statement, numStatements)
	for i := range out {
		out[i] = Statement(i)
	}
	return out
}
