package check

// Hooks for the external tests.

// SetDenseCells sets the most pairs of bound codes View keeps a QI's
// cells for by index, and returns a restore.
func SetDenseCells(n int) (restore func()) {
	old := denseCells
	denseCells = n
	return func() { denseCells = old }
}
