package verify

// RunDeclared checks the release in dir once (Shared.Check on a fresh
// reading of its files).
func RunDeclared(dir string, opt Options, lookup func(method string) (Declared, bool)) (*Report, error) {
	return NewShared(dir).Check(opt, lookup)
}

// Run is RunDeclared with the checker alone as the declaration.
func Run(dir string, opt Options, lookup func(method string) (Checker, bool)) (*Report, error) {
	return RunDeclared(dir, opt, func(method string) (Declared, bool) {
		c, ok := lookup(method)
		return Declared{Check: c}, ok
	})
}

// RunThen is RunDeclared calling then as Options.Then.
func RunThen(dir string, opt Options, lookup func(method string) (Declared, bool), then func(rel *Release)) (*Report, error) {
	opt.Then = then
	return RunDeclared(dir, opt, lookup)
}

// Confirmed reports whether every line passed and every privacy
// guarantee was confirmed.
func (r *Report) Confirmed() bool { return r.OK() && len(r.Unproven) == 0 }
