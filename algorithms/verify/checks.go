package verify

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// A checker reads like the list of lines it can print: one Check per line
// name, each a short function of the facts its checker's context reads
// from the files once (Fact), run by RunChecks. A checker declares its
// list as a []Check[C] over its own context type C:
//
//	var checks = []verify.Check[release]{
//		{Name: "boxes", Run: boxesConsistent},
//		{Name: "coverage", Needs: verify.NeedOriginal, Run: coverage},
//	}
//	...
//	return verify.RunChecks(c, opt, checks, r)

// Need names an input a check reads besides the release's own files.
type Need uint8

const (
	// NeedOriginal: the table the release was made from.
	NeedOriginal Need = 1 << iota
	// NeedPublic: the public table a method read.
	NeedPublic
	// NeedAudit: the audit record written beside the release.
	NeedAudit
)

// Has is the inputs the options give.
func (o Options) Has() Need {
	var n Need
	if o.Original != nil {
		n |= NeedOriginal
	}
	if o.Public != nil {
		n |= NeedPublic
	}
	if o.Audit != nil {
		n |= NeedAudit
	}
	return n
}

// Check is one named check of a checker: Run adds the lines named Name
// (a check may add claim lines too, "claim details.boxes"), reading the
// facts of the checker's context c. It runs only when the inputs it Needs
// are given. A returned error means the release cannot be read (the
// checker's error); ErrStop ends the list without one.
//
// Checks run at once, so Run only reads c: what several checks need is a
// Fact of c, computed once by whichever asks first. A Gate is a check the
// rest of the list depends on (the names the files are read by): the
// checks after it start once it and every check before it are done.
type Check[C any] struct {
	Name  string
	Needs Need
	Gate  bool
	Run   func(c *C, r *Report) error
}

// ErrStop, returned by a check, ends the list after its lines: the files
// cannot be read further (a header that does not bind the manifest's
// names), and that check's failing line says why.
var ErrStop = errors.New("verify: stop the checks")

// RunChecks runs the checks whose needs opt meets on c, independent ones
// at once on every core, and adds their lines to r in the list's order,
// whatever order they finish in. It stops at the first check that returns
// an error (returned; ErrStop: nil), keeping the lines of the checks
// before it and its own. A check that panics panics here, in the
// caller's goroutine.
func RunChecks[C any](c *C, opt Options, checks []Check[C], r *Report) error {
	has := opt.Has()
	var run []Check[C]
	for _, ch := range checks {
		if ch.Needs&has == ch.Needs {
			run = append(run, ch)
		}
	}
	for len(run) > 0 {
		n := len(run)
		for i, ch := range run {
			if ch.Gate {
				n = i + 1
				break
			}
		}
		if err := runAtOnce(c, run[:n], r); err != nil {
			if errors.Is(err, ErrStop) {
				return nil
			}
			return err
		}
		run = run[n:]
	}
	return nil
}

// runAtOnce runs checks concurrently, each into a report of its own, and
// adds the reports to r in order up to the first error.
func runAtOnce[C any](c *C, checks []Check[C], r *Report) error {
	parts := make([]Report, len(checks))
	errs := make([]error, len(checks))
	panics := make([]*checkPanic, len(checks))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range checks {
		parts[i].Dir = r.Dir
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			defer func() {
				if v := recover(); v != nil {
					panics[i] = &checkPanic{name: checks[i].Name, value: v, stack: debug.Stack()}
				}
			}()
			errs[i] = checks[i].Run(c, &parts[i])
		}()
	}
	wg.Wait()
	// As if one after the other: a check after an error never ran (it may
	// have met the same problem, and panicked on it).
	for i := range checks {
		if panics[i] != nil {
			panic(panics[i])
		}
		r.Lines = append(r.Lines, parts[i].Lines...)
		r.Unproven = append(r.Unproven, parts[i].Unproven...)
		if errs[i] != nil {
			return errs[i]
		}
	}
	return nil
}

// checkPanic carries a check's panic, with the stack of the goroutine it
// ran in, to the caller's goroutine.
type checkPanic struct {
	name  string
	value any
	stack []byte
}

func (p *checkPanic) Error() string { return fmt.Sprintf("check %s: %v", p.name, p.value) }

// Stack is where the check panicked.
func (p *checkPanic) Stack() []byte { return p.stack }

// Fact is a value a checker's context computes once, when a check first
// asks for it: the facts several checks read (the boxes of a release, its
// groups), whichever of the checks running at once asks first.
type Fact[T any] struct {
	once  sync.Once
	v     T
	err   error
	panic any
}

// Get returns the fact, computing it on the first call. A compute that
// panicked panics again for every caller (none reads a zero fact).
func (f *Fact[T]) Get(compute func() (T, error)) (T, error) {
	f.once.Do(func() {
		defer func() { f.panic = recover() }()
		f.v, f.err = compute()
	})
	if f.panic != nil {
		panic(f.panic)
	}
	return f.v, f.err
}
