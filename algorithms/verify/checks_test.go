package verify

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"privlab/model"
	"privlab/model/releasedir"
)

type toy struct {
	ran   sync.Map
	calls atomic.Int32
	fact  Fact[int]
}

// named is a check that adds one line after waiting (later checks in the
// list finish first).
func named(name string, wait time.Duration) Check[toy] {
	return Check[toy]{Name: name, Run: func(c *toy, r *Report) error {
		time.Sleep(wait)
		c.ran.Store(name, true)
		r.Add(true, name, "ran")
		return nil
	}}
}

// The lines come in the list's order whatever order the checks finish
// in; a check whose inputs are not given does not run.
func TestRunChecksOrder(t *testing.T) {
	t.Parallel()
	var list []Check[toy]
	for i := 0; i < 8; i++ {
		list = append(list, named(fmt.Sprintf("c%d", i), time.Duration(8-i)*time.Millisecond))
	}
	list[3].Needs = NeedOriginal
	list[5].Needs = NeedPublic | NeedAudit
	c := &toy{}
	r := &Report{}
	if err := RunChecks(c, Options{Audit: &releasedir.Audit{}}, list, r); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Strings(), ","); got != "ok   c0: ran,ok   c1: ran,ok   c2: ran,ok   c4: ran,ok   c6: ran,ok   c7: ran" {
		t.Errorf("lines %s", got)
	}
	if _, ran := c.ran.Load("c3"); ran {
		t.Error("a check that needs the original ran without it")
	}
	r = &Report{}
	RunChecks(c, Options{Original: &model.Table{}, Public: &model.Table{}, Audit: &releasedir.Audit{}}, list, r)
	if len(r.Lines) != 8 {
		t.Errorf("with every input: %q", r.Strings())
	}
}

// An error stops the list as if the checks ran one after the other: the
// lines before it and its own are kept, none after it (even one that
// failed or panicked at once); ErrStop stops without an error.
func TestRunChecksStop(t *testing.T) {
	t.Parallel()
	broken := errors.New("unreadable")
	for _, c := range []struct {
		err  error
		want error
	}{{broken, broken}, {ErrStop, nil}} {
		list := []Check[toy]{named("a", 0),
			{Name: "b", Run: func(_ *toy, r *Report) error {
				time.Sleep(5 * time.Millisecond)
				r.Add(false, "b", "half")
				return c.err
			}},
			{Name: "c", Run: func(_ *toy, r *Report) error { r.Add(true, "c", "after"); return errors.New("later") }},
			{Name: "d", Run: func(*toy, *Report) error { panic("after the error") }},
		}
		r := &Report{}
		if err := RunChecks(&toy{}, Options{}, list, r); err != c.want {
			t.Errorf("error %v, want %v", err, c.want)
		}
		if got := strings.Join(r.Strings(), ","); got != "ok   a: ran,FAIL b: half" {
			t.Errorf("lines %s", got)
		}
	}
}

// The checks after a gate start once it is done; one it stops never run.
func TestRunChecksGate(t *testing.T) {
	t.Parallel()
	var gateDone atomic.Bool
	early := false
	list := []Check[toy]{
		{Name: "gate", Gate: true, Run: func(*toy, *Report) error { time.Sleep(10 * time.Millisecond); gateDone.Store(true); return nil }},
		{Name: "after", Run: func(*toy, *Report) error { early = !gateDone.Load(); return nil }},
	}
	if err := RunChecks(&toy{}, Options{}, list, &Report{}); err != nil || early {
		t.Errorf("err %v, a check after the gate ran before it finished: %v", err, early)
	}
	ran := false
	list[0].Run = func(*toy, *Report) error { return ErrStop }
	list[1].Run = func(*toy, *Report) error { ran = true; return nil }
	if err := RunChecks(&toy{}, Options{}, list, &Report{}); err != nil || ran {
		t.Errorf("err %v; a check after a stopping gate ran: %v", err, ran)
	}
}

// A check's panic reaches the caller, naming the check.
func TestRunChecksPanic(t *testing.T) {
	t.Parallel()
	defer func() {
		v := recover()
		p, ok := v.(*checkPanic)
		if !ok || p.Error() != "check boom: index out of range" || !strings.Contains(string(p.Stack()), "checks_test.go") {
			t.Errorf("recovered %v", v)
		}
	}()
	RunChecks(&toy{}, Options{}, []Check[toy]{named("a", 0), {Name: "boom", Run: func(*toy, *Report) error { panic("index out of range") }}}, &Report{})
	t.Error("no panic")
}

// A fact is computed once, whichever of the checks asking at once asks
// first.
func TestFactComputedOnce(t *testing.T) {
	t.Parallel()
	c := &toy{}
	var list []Check[toy]
	for i := 0; i < 16; i++ {
		list = append(list, Check[toy]{Name: "x", Run: func(c *toy, r *Report) error {
			v, err := c.fact.Get(func() (int, error) {
				c.calls.Add(1)
				time.Sleep(2 * time.Millisecond)
				return 42, nil
			})
			r.Add(v == 42 && err == nil, "x", "%d", v)
			return nil
		}})
	}
	r := &Report{}
	if err := RunChecks(c, Options{}, list, r); err != nil || !r.OK() || len(r.Lines) != 16 || c.calls.Load() != 1 {
		t.Errorf("err %v, lines %q, computed %d times", err, r.Strings(), c.calls.Load())
	}
}

// A fact whose compute panicked panics again for every caller: none
// reads a zero fact as if it were computed.
func TestFactPanicRepeats(t *testing.T) {
	t.Parallel()
	var f Fact[int]
	calls := 0
	for i := 0; i < 2; i++ {
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Errorf("call %d: recovered %v", i, p)
				}
			}()
			f.Get(func() (int, error) { calls++; panic("boom") })
		}()
	}
	if calls != 1 {
		t.Errorf("computed %d times", calls)
	}
}

func TestHas(t *testing.T) {
	t.Parallel()
	if (Options{}).Has() != 0 || (Options{Original: &model.Table{}, Audit: &releasedir.Audit{}}).Has() != NeedOriginal|NeedAudit {
		t.Error("Has")
	}
}
