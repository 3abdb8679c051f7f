package check

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"privlab/algorithms/verify"
	vt "privlab/algorithms/verify/verifytest"
	"privlab/model/csvfile"
)

// largePlain is testdata/plain grown to 100 boxes of two microdata
// tuples (input rows 2j and 2j+1, ages 2j and 2j+1, one with flu and one
// with cold), its jat.csv and si.csv rows in the input's order or
// shuffled; with the original and no audit record.
func largePlain(t *testing.T, inOrder bool) *release {
	t.Helper()
	const boxes = 100
	var mt, jat, si strings.Builder
	mt.WriteString("id,age,sex,disease\n")
	jat.WriteString("GroupID,SG,age_min,age_max,sex_min,sex_max\n")
	si.WriteString("SG,disease\n")
	var jatRows, siRows []string
	for j := range boxes {
		for i, disease := range []string{"flu", "cold"} {
			fmt.Fprintf(&mt, "%d,%d,F,%s\n", 2*j+i+1, 2*j+i, disease)
			jatRows = append(jatRows, fmt.Sprintf("%d,%d,%d,%d,F,F\n", j+1, j+1, 2*j, 2*j+1))
			siRows = append(siRows, fmt.Sprintf("%d,%s\n", j+1, disease))
		}
	}
	if !inOrder {
		rng := rand.New(rand.NewPCG(7, 8))
		rng.Shuffle(len(jatRows), func(a, b int) { jatRows[a], jatRows[b] = jatRows[b], jatRows[a] })
		rng.Shuffle(len(siRows), func(a, b int) { siRows[a], siRows[b] = siRows[b], siRows[a] })
	}
	jat.WriteString(strings.Join(jatRows, ""))
	si.WriteString(strings.Join(siRows, ""))
	tp := vt.Tamper{
		Files: map[string]func(string) string{
			"jat.csv": func(string) string { return jat.String() },
			"si.csv":  func(string) string { return si.String() },
		},
		Manifest: func(m map[string]any) {
			m["details"].(map[string]any)["domain"].([]any)[0].(map[string]any)["low"] = 0
			m["details"].(map[string]any)["domain"].([]any)[0].(map[string]any)["high"] = 2*boxes - 1
		},
	}
	orig, err := csvfile.Load(strings.NewReader(mt.String()), csvfile.LoadOptions{Name: "mt.csv"})
	if err != nil {
		t.Fatal(err)
	}
	return openTampered(t, "plain", tp, verify.Options{Original: orig})
}

// Without the audit record the rows of jat.csv and si.csv are not
// pinned, but a key read from each row's content alone (its box's, or
// its group and value's, mean input row) shows a file in the input's
// order (SPEC 7.3): si.csv so would give whoever knows that order each
// person's sensitive value. A shuffled release adds no line.
func TestOrderWithoutAudit(t *testing.T) {
	t.Parallel()
	c := largePlain(t, true)
	vt.Want(t, c, containedCoverage, "ok   coverage: every one of the 200 microdata tuples lies inside a box (0 do not)")
	vt.Want(t, c, jatShuffled, "FAIL shuffled: jat.csv rows are close to the input's order: 149 of 199 neighbouring rows ascend in the input's order, where a shuffle gives 99.5 (standard deviation 4.1)")
	vt.Want(t, c, siOrder, "FAIL shuffled: si.csv rows are close to the input's order: 199 of 199 neighbouring rows ascend in the input's order, where a shuffle gives 99.5 (standard deviation 4.1)")
	c = largePlain(t, false)
	vt.Want(t, c, jatShuffled)
	vt.Want(t, c, siOrder)
}

// An si.csv written in jat.csv's row order gives each microdata row its
// own sensitive value, which Section 3.2 publishes apart from the boxes:
// from the files alone, groups agreeing row by row far beyond independent
// shuffles fail; shuffled files add no line.
func TestRowPairing(t *testing.T) {
	t.Parallel()
	vt.Want(t, largePlain(t, true), rowPairing, "FAIL row pairing: row i of si.csv has the SG of row i of jat.csv at 200 of 200 positions; independent shuffles give 2.0, standard deviation 1.4, and more than 20.3 pairs the tables by position")
	vt.Want(t, largePlain(t, false), rowPairing)
	vt.Want(t, plain(t, vt.Tamper{}), rowPairing)
}
