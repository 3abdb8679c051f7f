package kja

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/verify/verifytest"
	"privlab/model"
	"privlab/model/releasedir"
)

// The answerer reads the manifest's details through the format package,
// strictly, with every error handled: a key the format does not declare
// stops it, naming the key (it read them leniently before and dropped a
// failure to encode them again; issue 23, item 5).
func TestOpenReleaseReadsDetailsStrictly(t *testing.T) {
	t.Parallel()
	inst := randomInstance(t, 101)
	dir, _ := exportRelease(t, runVariant(t, inst, "mondrian", 3, 1), 1)
	if _, err := (Method{}).OpenRelease(dir); err != nil {
		t.Fatal(err)
	}
	verifytest.Restate(t, dir, func(m map[string]any) { m["details"].(map[string]any)["k_guaranteed"] = 100 })
	if _, err := (Method{}).OpenRelease(dir); err == nil || !strings.Contains(err.Error(), `details: unknown key "k_guaranteed"`) {
		t.Fatalf("got %v", err)
	}
}

// The answerer reads jat.csv and si.csv on codes (each id and group
// text once) and still names the first line that does not read: a
// GroupID that is not an integer, an SG no box of jat.csv names.
func TestOpenReleaseNamesTheBadLine(t *testing.T) {
	t.Parallel()
	inst := randomInstance(t, 102)
	for _, c := range []struct {
		file, want string
		edit       func(rec []string, line int) []string
	}{
		{"jat.csv", "GroupID is not an integer", func(rec []string, line int) []string {
			if line == 4 {
				rec[0] = "x"
			}
			return rec
		}},
		{"si.csv", `SG "999999" has no box in jat.csv`, func(rec []string, line int) []string {
			if line == 3 {
				rec[0] = "999999"
			}
			return rec
		}},
	} {
		dir, _ := exportRelease(t, runVariant(t, inst, "mondrian", 3, 1), 1)
		path := filepath.Join(dir, c.file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		for i := range lines {
			lines[i] = strings.Join(c.edit(strings.Split(lines[i], ","), i+1), ",")
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = (Method{}).OpenRelease(dir)
		var ie *model.InputError
		if !errors.As(err, &ie) || ie.File != path || !strings.Contains(ie.Msg, c.want) {
			t.Fatalf("%s: got %v, want %q", c.file, err, c.want)
		}
		if c.file == "jat.csv" && ie.Line != 4 || c.file == "si.csv" && ie.Line != 3 {
			t.Fatalf("%s: line %d", c.file, ie.Line)
		}
	}
}

// jat.csv's rows are written from each box's record rendered once
// (ReleaseFile.Record): every row's record is the one its values (Fill)
// render, on random instances of every shape.
func TestJATRecordIsFillRendered(t *testing.T) {
	t.Parallel()
	for seed := uint64(120); seed < 140; seed++ {
		r := runVariant(t, randomInstance(t, seed), "mondrian", 3, 1)
		res, err := r.result(Method{}.Spec())
		if err != nil {
			t.Fatal(err)
		}
		rel, _, err := res.Release(seed)
		if err != nil {
			t.Fatal(err)
		}
		f := rel.Files[0]
		if f.Record == nil || f.Rows == 0 {
			t.Fatalf("seed %d: %s has no records (%d rows)", seed, f.Name, f.Rows)
		}
		rec := make([]string, len(f.Header))
		for i := 0; i < f.Rows; i++ {
			f.Fill(i, rec)
			if got, want := f.Record(i), releasedir.AppendCSVRecord(nil, rec); string(got) != string(want) {
				t.Fatalf("seed %d row %d: record %q, values %q", seed, i, got, want)
			}
		}
	}
}
