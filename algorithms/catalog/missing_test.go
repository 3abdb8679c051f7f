package catalog_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/method"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
)

// withMissing serves the embedded datasets, with the one named gaps
// holding extra records that miss a value: copies of its rows with one
// of the columns cols missing, inserted in the middle of the table and
// at its end. Dropping them (--missing drop) leaves the dataset itself,
// so every example stays feasible, while the prepared table's rows are
// no longer the input's.
type withMissing struct {
	datasets.Catalog
	gaps string
	cols []string
}

func (d withMissing) LoadTable(name string, rows int, seed uint64) (*model.Table, error) {
	t, err := d.Catalog.LoadTable(name, rows, seed)
	if err != nil || name != d.gaps {
		return t, err
	}
	var order, holes []int
	for r := 0; r < t.Rows; r++ {
		if r == t.Rows/2 {
			// Two records in the middle, each missing one used value.
			holes = append(holes, len(order), len(order)+1)
			order = append(order, 0, t.Rows-1)
		}
		order = append(order, r)
	}
	holes = append(holes, len(order), len(order)+1)
	order = append(order, 1, t.Rows/2)
	out := t.SelectRows(order)
	for i, at := range holes {
		c := out.Column(d.cols[i%len(d.cols)])
		c.Codes[at] = model.Missing
		c.MissingCount++
	}
	return out, nil
}

// TestContractMissingValues runs every method and variant on its example
// table with records missing a value in the middle and at the end
// (dropped, the default policy): the run, the export (verified against
// the input) and check --original must pass, and no record that misses a
// value may be published. Row maps of a prepared table are not input rows:
// the export translated them in place, so lossyjoin's lossy and anatomy
// files, which read the same slices, indexed the prepared table with
// input rows and crashed (issue 18.3).
func TestContractMissingValues(t *testing.T) {
	for _, e := range catalog.Entries() {
		spec := e.Method.Spec()
		variants := spec.Variants
		if len(variants) == 0 {
			variants = []string{""}
		}
		for _, v := range variants {
			t.Run(spec.Name+" "+v, func(t *testing.T) {
				t.Parallel()
				missingContract(t, spec, v)
			})
		}
	}
}

func missingContract(t *testing.T, spec method.Spec, variant string) {
	ex := spec.Example
	name, _ := pipeline.DatasetName(ex.Input)
	cols := append(append([]string(nil), ex.Roles.QIs...), ex.Roles.SA)
	if ex.Roles.SA == "" {
		cols = cols[:len(cols)-1]
	}
	env := pipeline.Env{Datasets: withMissing{gaps: name, cols: cols}}
	// Generated tables at a fifth of their size (fixed tables ignore it).
	p := pipeline.Project{Input: ex.Input, Public: ex.Public, Roles: ex.Roles, Method: spec.Name,
		Variant: variant, Params: ex.Params.Clone(), Rows: 2000, PublicRows: 20000}
	p.Params["seed"] = "7"
	src, err := env.LoadTable(env.WithDefaults(p))
	if err != nil {
		t.Fatal(err)
	}
	prep, err := env.Prepare(p, src)
	if err != nil {
		t.Fatal(err)
	}
	if prep.Dropped != 4 || prep.Table.Rows != src.Rows-4 {
		t.Fatalf("%d of %d rows dropped, want 4", prep.Dropped, src.Rows)
	}
	res, err := pipeline.Run(context.Background(), prep, pipeline.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "release")
	ex2, err := pipeline.Export(prep, res, out, pipeline.ExportOptions{})
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	if ex2.Manifest.RowsIn != src.Rows || ex2.Manifest.Suppressed < 4 {
		t.Fatalf("manifest: %d rows in, %d suppressed; want %d in, at least the 4 dropped", ex2.Manifest.RowsIn, ex2.Manifest.Suppressed, src.Rows)
	}
	audit, err := releasedir.ReadAudit(releasedir.AuditPath(out))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := catalogtest.Check(out, verify.Options{Original: prep.Source, Public: prep.Public, Audit: audit})
	if err != nil || !rep.OK() {
		t.Fatalf("check --original: %v\n%s", err, strings.Join(rep.Strings(), "\n"))
	}
	for file, rows := range audit.RowMap {
		for _, r := range rows {
			if r >= 0 && holeRow(prep.Source, cols, r) {
				t.Fatalf("%s publishes input row %d, which misses a value", file, r)
			}
		}
	}
}

// holeRow reports whether row r of t misses a value in one of cols.
func holeRow(t *model.Table, cols []string, r int) bool {
	for _, c := range cols {
		if t.Column(c).IsMissing(r) {
			return true
		}
	}
	return false
}
