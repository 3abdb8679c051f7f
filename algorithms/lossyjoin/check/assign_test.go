package check

import (
	"fmt"
	"strings"
	"testing"

	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// instance is a small original table and a release of it: record i has
// QI tuple key[i] and sensitive value sa[i]; nss.csv row i is record i's
// tuple in class nssClass[i], ss.csv row i is class ssClass[i] with
// value ssValue[i].
type instance struct {
	key, sa          []string
	nssClass         []int
	ssClass, ssValue []string
}

func load(t *testing.T, header string, rows []string) *model.Table {
	t.Helper()
	kinds := map[string]model.Kind{}
	for _, name := range strings.Split(header, ",") {
		kinds[name] = model.Categorical
	}
	tab, err := csvfile.Load(strings.NewReader(header+"\n"+strings.Join(rows, "\n")+"\n"),
		csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}, Kinds: kinds})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// checkInstance runs the checks against the original without an audit
// record and returns their lines by name.
func checkInstance(t *testing.T, in instance) map[string]verify.Line {
	t.Helper()
	var orig, nssRows, ssRows []string
	for i := range in.key {
		orig = append(orig, in.key[i]+","+in.sa[i])
		nssRows = append(nssRows, fmt.Sprintf("%s,%d", in.key[i], in.nssClass[i]))
		ssRows = append(ssRows, in.ssClass[i]+","+in.ssValue[i])
	}
	o := load(t, "q,s", orig)
	c := &ctx{m: &releasedir.Manifest{QIs: []string{"q"}, SA: "s"}, opt: verify.Options{Original: o},
		nss: load(t, "q,ClassID", nssRows), ss: load(t, "ClassID,s", ssRows)}
	r := &verify.Report{}
	for _, check := range []func(*ctx, *verify.Report) error{joinTuples, joinSensitiveValues, classesFaithful, nssShuffled, positionLinkLine} {
		if err := check(c, r); err != nil {
			t.Fatal(err)
		}
	}
	lines := map[string]verify.Line{}
	for _, l := range r.Lines {
		lines[l.Name] = l
	}
	return lines
}

// bruteAssignable tries every assignment of records to classes: one
// exists that gives every class exactly its nss.csv tuples and its
// ss.csv values.
func bruteAssignable(in instance, classes int) bool {
	n := len(in.key)
	want := map[string]int{}
	for i := 0; i < n; i++ {
		want[fmt.Sprintf("k%s|%d", in.key[i], in.nssClass[i])]++
		want["v"+in.ssValue[i]+"|"+in.ssClass[i]]++
	}
	at := make([]int, n)
	for {
		got := map[string]int{}
		for i, c := range at {
			got[fmt.Sprintf("k%s|%d", in.key[i], c)]++
			got[fmt.Sprintf("v%s|%d", in.sa[i], c)]++
		}
		same := len(got) == len(want)
		for k, x := range want {
			same = same && got[k] == x
		}
		if same {
			return true
		}
		i := 0
		for i < n && at[i] == classes-1 {
			at[i] = 0
			i++
		}
		if i == n {
			return false
		}
		at[i]++
	}
}

// TestAssignableBruteForce: on random small releases, some faithful and
// some with sensitive values swapped between classes, the check without
// the audit record passes every release an assignment of the original
// records explains (found by trying all of them), and says "consistent
// with the original" (proven) only for those; both outcomes occur.
func TestAssignableBruteForce(t *testing.T) {
	rng := model.NewRand(7)
	outcomes := map[string]int{}
	for trial := 0; trial < 600; trial++ {
		n := 4 + rng.Intn(4)
		classes := 2 + rng.Intn(2)
		in := instance{}
		for i := 0; i < n; i++ {
			in.key = append(in.key, fmt.Sprint("k", rng.Intn(3)))
			in.sa = append(in.sa, fmt.Sprint("v", rng.Intn(3)))
			c := i % classes // every class non-empty
			if i >= classes {
				c = rng.Intn(classes)
			}
			in.nssClass = append(in.nssClass, c)
			in.ssClass = append(in.ssClass, fmt.Sprint(c))
			in.ssValue = append(in.ssValue, in.sa[i])
		}
		if rng.Intn(2) == 0 {
			i, j := rng.Intn(n), rng.Intn(n)
			in.ssValue[i], in.ssValue[j] = in.ssValue[j], in.ssValue[i]
		}
		feasible := bruteAssignable(in, classes)
		line, ok := checkInstance(t, in)["classes faithful"]
		if !ok {
			t.Fatalf("trial %d: no classes faithful line", trial)
		}
		proven := strings.HasPrefix(line.Text, "consistent with the original")
		switch {
		case feasible && !line.OK:
			t.Fatalf("trial %d: an assignment exists but the check fails: %+v\n%s", trial, in, line)
		case !feasible && proven:
			t.Fatalf("trial %d: no assignment exists but the check proves one: %+v\n%s", trial, in, line)
		}
		switch {
		case !line.OK:
			outcomes["fail"]++
		case proven:
			outcomes["proven"]++
		default:
			outcomes["unproven"]++
			if !feasible {
				outcomes["unproven, infeasible"]++
			}
		}
	}
	if outcomes["fail"] == 0 || outcomes["proven"] == 0 {
		t.Fatalf("outcomes %v: both kinds must occur", outcomes)
	}
	t.Logf("outcomes: %v", outcomes)
}

// TestAssignableExample works three releases of the records (a,x),
// (a,y), (b,x), (b,y) by hand.
func TestAssignableExample(t *testing.T) {
	// Class 1 holds one a, class 2 the other a and both b. Faithful:
	// class 1 gets (a,x), class 2 (a,y), (b,x), (b,y). Tuple a spans both
	// classes, but each class holds one spanning tuple: proven.
	good := instance{key: []string{"a", "a", "b", "b"}, sa: []string{"x", "y", "x", "y"},
		nssClass: []int{1, 2, 2, 2}, ssClass: []string{"1", "2", "2", "2"}, ssValue: []string{"x", "y", "x", "y"}}
	if l := checkInstance(t, good)["classes faithful"]; !l.OK || !strings.HasPrefix(l.Text, "consistent with the original") {
		t.Fatalf("faithful release: %s", l)
	}
	// Class 1 with value y is explained too: (a,y) in class 1, and class
	// 2 gets (a,x), (b,x), (b,y).
	other := good
	other.ssValue = []string{"y", "x", "x", "y"}
	if l := checkInstance(t, other)["classes faithful"]; !l.OK || !strings.HasPrefix(l.Text, "consistent with the original") {
		t.Fatalf("a release another assignment explains: %s", l)
	}
	// Both a in class 1, both b in class 2: class 1 must hold a's values
	// x and y, not x and x.
	bad := instance{key: good.key, sa: good.sa,
		nssClass: []int{1, 1, 2, 2}, ssClass: []string{"1", "1", "2", "2"}, ssValue: []string{"x", "x", "y", "y"}}
	if l := checkInstance(t, bad)["classes faithful"]; l.OK {
		t.Fatalf("class 1 = {a, a} cannot hold x, x (a has x and y): %s", l)
	}
	// Classes 0 {a, b}: x, z; 1 {a, a, b}: z, z, x; 2 {a, b, b}: y, y, x
	// of the records a: x, y, z, x and b: z, y, z, x. Class 0 may take
	// (a,x), (b,z) or (a,z), (b,x); only the first leaves class 1 its two
	// z (one from a, one from b). Class 0 takes the plentiful (a,x) first
	// and the assignment is found.
	hard := instance{key: []string{"a", "b", "a", "b", "a", "b", "a", "b"}, sa: []string{"x", "z", "y", "y", "z", "z", "x", "x"},
		nssClass: []int{0, 1, 2, 2, 1, 0, 1, 2}, ssClass: []string{"0", "1", "2", "2", "1", "0", "1", "2"},
		ssValue: []string{"x", "z", "y", "y", "z", "z", "x", "x"}}
	if l := checkInstance(t, hard)["classes faithful"]; !l.OK || !strings.HasPrefix(l.Text, "consistent with the original") {
		t.Fatalf("a genuine release: %s", l)
	}
}
