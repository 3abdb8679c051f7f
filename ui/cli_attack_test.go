package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// privlab attack (SPEC 3.7, issue 19): one line per attack, --json with
// exactly the keys attack, attacker, measured, bound, holds, records,
// example; exit 0 when every bounded attack holds, 1 when one is broken,
// 2 on a usage or input error.
func TestCLIAttack(t *testing.T) {
	dir := t.TempDir()
	data := "age,zip,disease\n30,100,cold\n31,101,flu\n32,102,cold\n33,103,flu\n40,200,cold\n41,201,flu\n42,202,hiv\n43,203,flu\n"
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	// The population holds the data's people and one other: every group
	// lists values only one covered person holds.
	if err := os.WriteFile(filepath.Join(dir, "pop"), []byte("30,100\n31,101\n32,102\n33,103\n40,200\n41,201\n42,202\n43,203\n99,999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := cli(t, dir, "run", "--in", "d.csv", "--method", "ambiguity", "--qi", "age,zip", "--sa", "disease",
		"--alpha", "0.5", "--beta", "0.5", "--seed", "1", "--out", "r")
	if code != 0 {
		t.Fatalf("run exit %d\n%s\n%s", code, out, errs)
	}
	out, errs, code = cli(t, dir, "attack", "r", "--original", "d.csv")
	if code != 0 || !strings.Contains(out, "attribute inference · ") || !strings.Contains(out, "membership · ") || !strings.Contains(out, "not run: needs a population table") {
		t.Fatalf("attack with the original: exit %d\n%s\n%s", code, out, errs)
	}
	out, errs, code = cli(t, dir, "attack", "r", "--population", "pop", "--population-columns", "age,zip", "--json")
	if code != 1 || !strings.Contains(errs, "broke the bound") {
		t.Fatalf("attack with a population: exit %d, want 1\n%s\n%s", code, out, errs)
	}
	var findings []map[string]any
	if err := json.Unmarshal([]byte(out), &findings); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	want := []string{"attack", "attacker", "bound", "example", "holds", "measured", "records"}
	broken := false
	for _, f := range findings {
		var keys []string
		for k := range f {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if !reflect.DeepEqual(keys, want) {
			t.Errorf("keys %v, want exactly %v", keys, want)
		}
		if f["attack"] == "membership" {
			broken = f["holds"] == false && f["bound"] == 0.5 && f["records"].(float64) > 0
		}
		for _, v := range []string{"cold", "flu", "hiv"} {
			if strings.Contains(f["example"].(string), v) {
				t.Errorf("the example names a sensitive value: %v", f["example"])
			}
		}
	}
	if !broken {
		t.Errorf("membership is not broken with a bound of 0.5:\n%s", out)
	}
	for _, args := range [][]string{{"attack"}, {"attack", "nowhere"}, {"attack", "r", "--population", "missing.csv"}, {"attack", "r", "--population", "d.csv", "--bogus"}} {
		if _, errs, code := cli(t, dir, args...); code != 2 || !strings.HasPrefix(errs, "privlab: ") {
			t.Errorf("privlab %v: exit %d, want 2\n%s", args, code, errs)
		}
	}
}
