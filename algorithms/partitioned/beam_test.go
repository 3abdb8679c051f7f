//go:build beam

package partitioned

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"privlab/algorithms/risk"
	"privlab/model"
	"privlab/model/source"
)

// writeShards writes a census table as Parquet shards and returns their
// glob.
func writeShards(t *testing.T, rows, shards int) string {
	t.Helper()
	tab, err := env.LoadTable(censusProject("kja", rows, model.Values{}))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cols := source.ParquetColumnsOf(tab)
	per := (tab.Rows + shards - 1) / shards
	for s := 0; s < shards; s++ {
		var sel []int
		for r := s * per; r < min(tab.Rows, (s+1)*per); r++ {
			sel = append(sel, r)
		}
		f, err := os.Create(filepath.Join(dir, "part-0000"+string(rune('0'+s))+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		if err := source.WriteParquet(f, tab.SelectRows(sel), cols); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "part-*.parquet")
}

// Every method runs partitioned on Beam's Prism runner and makes the very
// release the in-process run makes, byte for byte, which passes check
// (issue 36: the same verdicts as in-process, at small scale).
func TestBeamRunIsTheInProcessRun(t *testing.T) {
	glob := writeShards(t, 3000, 3)
	for _, c := range []struct {
		method string
		params model.Values
	}{
		{"kja", model.Values{"k": "5"}},
		{"distribution", model.Values{}},
		{"lossyjoin", model.Values{}},
		{"sampling", model.Values{}},
		{"ambiguity", model.Values{}},
	} {
		t.Run(c.method, func(t *testing.T) {
			p := censusProject(c.method, 0, c.params)
			p.Input = glob
			if c.method == "kja" {
				p.Variant = "mondrian"
			}
			beamDir := filepath.Join(t.TempDir(), "beam")
			if _, err := RunOnBeam(context.Background(), env, p, beamDir, Options{Partitions: 3}, ""); err != nil {
				t.Fatal(err)
			}
			localDir := filepath.Join(t.TempDir(), "local")
			res, err := Stream(context.Background(), env, p, localDir, Options{Partitions: 3})
			if err != nil {
				t.Fatal(err)
			}
			for i := range res.Parts {
				for _, name := range listFiles(t, filepath.Join(localDir, PartDir(i))) {
					a, _ := os.ReadFile(filepath.Join(localDir, PartDir(i), name))
					b, err := os.ReadFile(filepath.Join(beamDir, PartDir(i), name))
					if err != nil || !bytes.Equal(a, b) {
						t.Fatalf("%s/%s differs between the Beam and the in-process run (%v)", PartDir(i), name, err)
					}
				}
			}
			a, _ := os.ReadFile(filepath.Join(localDir, "manifest.json"))
			b, _ := os.ReadFile(filepath.Join(beamDir, "manifest.json"))
			if !bytes.Equal(a, b) {
				t.Fatal("the top manifest differs between the Beam and the in-process run")
			}
			rep, err := Check(env, beamDir, &risk.Knowledge{})
			if err != nil || !rep.OK() {
				t.Fatalf("check: %v %v", err, rep)
			}
		})
	}
}

func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
