package check_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/releasedir"
)

// TestFaithfulWithoutAudit (issue 18.6): without the audit record a
// genuine release passes check --original (a maximum flow finds a
// faithful assignment), and a swap of the sensitive values of two
// published rows of different groups fails it where no assignment can
// exist: the swapped row's group then holds more rows of its new value
// than there are original records of that value under its generalized
// values (Hall's condition, counted here independently of the checker).
func TestFaithfulWithoutAudit(t *testing.T) {
	dir, orig := release(t, nil)
	noAudit := func(dir string) *verify.Report {
		t.Helper()
		rep, err := catalogtest.Check(dir, verify.Options{Original: orig})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	bare := copyRelease(t, dir)
	os.Remove(releasedir.AuditPath(bare))
	if rep := noAudit(bare); !rep.OK() || !hasLine(rep, "faithful", true) || !hasLine(rep, "minimum generalization of each record", true) {
		t.Fatalf("a genuine release without its audit record:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	recs := verifytest.ReadCSV(t, filepath.Join(dir, "published.csv"))
	cov := newCoverage(t, dir, orig)
	i, j := cov.unfaithfulSwap(recs)
	if i < 0 {
		t.Fatal("no swap of two rows' sensitive values breaks Hall's condition in this release")
	}
	recs[i][len(recs[i])-1], recs[j][len(recs[j])-1] = recs[j][len(recs[j])-1], recs[i][len(recs[i])-1]
	verifytest.WriteCSV(t, filepath.Join(bare, "published.csv"), recs)
	editManifest(t, bare, true, nil)
	if rep := noAudit(bare); !hasLine(rep, "faithful", false) {
		t.Fatalf("rows %d and %d with their sensitive values swapped pass:\n%s", i, j, strings.Join(rep.Strings(), "\n"))
	}
}

// coverage answers, from the manifest's taxonomies and the original,
// how many original records of a sensitive value lie under a published
// row's generalized values.
type coverage struct {
	qis    []string
	sa     string
	parent []map[string]string // per QI: label -> parent label
	orig   *model.Table
}

func newCoverage(t *testing.T, dir string, orig *model.Table) *coverage {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	c := &coverage{sa: m["sensitive"].(string), orig: orig}
	for _, q := range m["quasi_identifiers"].([]any) {
		name := q.(string)
		nodes := taxonomyOf(m, name)
		par := map[string]string{}
		for _, n := range nodes {
			e := n.(map[string]any)
			if p := int(e["parent"].(float64)); p >= 0 {
				par[e["value"].(string)] = nodes[p].(map[string]any)["value"].(string)
			}
		}
		c.qis, c.parent = append(c.qis, name), append(c.parent, par)
	}
	return c
}

// under reports whether original row r lies under the labels.
func (c *coverage) under(labels []string, r int) bool {
	for q, name := range c.qis {
		x, found := c.orig.Column(name).Value(r), false
		for ; x != "" && !found; x = c.parent[q][x] {
			found = x == labels[q]
		}
		if !found {
			return false
		}
	}
	return true
}

// unfaithfulSwap finds rows i, j (data rows of recs) with different
// labels and sensitive values such that, swapped, row i's labels hold
// more rows of j's value than original records of it lie under them.
func (c *coverage) unfaithfulSwap(recs [][]string) (int, int) {
	d := len(c.qis)
	count := map[string]int{}
	for _, rec := range recs[1:] {
		count[strings.Join(rec, "\x00")]++
	}
	sa := c.orig.Column(c.sa)
	for i := 1; i < len(recs) && i < 200; i++ {
		for j := i + 1; j < len(recs) && j < 200; j++ {
			li, si, sj := strings.Join(recs[i][:d], "\x00"), recs[i][d], recs[j][d]
			if si == sj || li == strings.Join(recs[j][:d], "\x00") {
				continue
			}
			under := 0
			for r := 0; r < c.orig.Rows; r++ {
				if sa.Value(r) == sj && c.under(recs[i][:d], r) {
					under++
				}
			}
			if count[li+"\x00"+sj]+1 > under {
				return i, j
			}
		}
	}
	return -1, -1
}

// BenchmarkCheckOriginal times check --original on census releases of
// 100,000 and 1,000,000 rows, with the audit record and without it (the
// maximum flow of faithfulByFlow). The release is made outside the
// timer.
func BenchmarkCheckOriginal(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		p := pipeline.Project{Input: "dataset:census", Rows: n, Method: "sampling",
			Roles:  model.Roles{QIs: []string{"age", "sex", "education", "marital-status", "race", "native-country"}, SA: "occupation"},
			Params: model.Values{"sampling-rate": "0.9", "max-distortion": "0.6", "seed": "3"}}
		dir, orig := releaseOf(b, p)
		a, err := releasedir.ReadAudit(releasedir.AuditPath(dir))
		if err != nil {
			b.Fatal(err)
		}
		for _, audit := range []*releasedir.Audit{a, nil} {
			b.Run(fmt.Sprintf("rows=%d/audit=%v", n, audit != nil), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					rep, err := catalogtest.Check(dir, verify.Options{Original: orig, Audit: audit})
					if err != nil || !rep.OK() {
						b.Fatalf("%v\n%s", err, strings.Join(rep.Strings(), "\n"))
					}
				}
			})
		}
	}
}

// TestInputOrderWithoutAudit: published.csv written in the input's order
// links each row to its record (SPEC 7.3); without the audit record the
// rows are not pinned, but each row's mean covered input row, read from
// its content alone, follows the file's order far beyond a shuffle, and
// the check fails.
func TestInputOrderWithoutAudit(t *testing.T) {
	dir, orig := release(t, nil)
	a, err := releasedir.ReadAudit(releasedir.AuditPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	rowOf := a.RowMap["published.csv"]
	recs := verifytest.ReadCSV(t, filepath.Join(dir, "published.csv"))
	body := recs[1:]
	order := make([]int, len(body))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return rowOf[order[i]] < rowOf[order[j]] })
	sorted := [][]string{recs[0]}
	for _, i := range order {
		sorted = append(sorted, body[i])
	}
	bare := copyRelease(t, dir)
	os.Remove(releasedir.AuditPath(bare))
	verifytest.WriteCSV(t, filepath.Join(bare, "published.csv"), sorted)
	editManifest(t, bare, true, func(m map[string]any) { delete(m, "attacks") })
	rep, err := catalogtest.Check(bare, verify.Options{Original: orig})
	if err != nil {
		t.Fatal(err)
	}
	if !hasLine(rep, "shuffled", false) {
		t.Fatalf("published.csv in the input's order passes without the audit record:\n%s", strings.Join(rep.Strings(), "\n"))
	}
}
