package pipeline

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/verify"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
)

// An export writes the bytes it rendered for the risk figures and its
// checks read them, and their tables, from there (verify.NewSharedBuilt)
// rather than from the directory again: for every method the bytes are
// the files' bytes, each table is named by its file's path as the loader
// names it, and the checks say word for word what they say reading the
// directory (verify.NewShared).
func TestExportChecksReadTheBuiltFilesAsTheWrittenOnes(t *testing.T) {
	t.Parallel()
	dir, _, prepared := censusForEveryMethod(t, 1500, 1, "1")
	for _, name := range catalog.Names() {
		p := prepared[name]
		res := run(t, p)
		out := filepath.Join(dir, name)
		if _, err := Export(p, res, out, ExportOptions{AcceptViolations: true}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rel, _, err := res.Release(1)
		if err != nil {
			t.Fatal(err)
		}
		built, err := verify.OpenBuilt(rel)
		if err != nil {
			t.Fatal(err)
		}
		// The attacker's view and exposure read the built files first,
		// as the export's attacks do: the checks take the facts they
		// read of the bytes alone (verify.Release.DataFact) and still
		// say what a check of the directory says.
		am, _ := AttackMethod(name)
		v, err := built.View(am.View)
		if err != nil {
			t.Fatal(err)
		}
		if am.Expose != nil {
			if _, err := am.Expose(built, v); err != nil {
				t.Fatal(err)
			}
		}
		opt := verify.Options{Original: p.Source, SkipRisk: true}
		fromDir, err := verify.NewShared(out).Check(opt, catalog.Declared)
		if err != nil {
			t.Fatal(err)
		}
		shared := verify.NewSharedBuilt(out, built, nil)
		fromBuilt, err := shared.Check(opt, catalog.Declared)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := fromDir.Strings(), fromBuilt.Strings(); !slices.Equal(a, b) || len(a) < 5 {
			t.Errorf("%s: reading the directory the checks say\n%q\nreading the built files\n%q", name, a, b)
		}
		// With the writer's digests (as the export passes them) the
		// checks say the same; a digest that is not the file's is
		// reported, not hashed over.
		m, err := releasedir.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		sums := map[string]string{}
		for _, f := range m.Files {
			sums[f.Name] = f.SHA256
		}
		withSums, err := verify.NewSharedBuilt(out, built, sums).Check(opt, catalog.Declared)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := fromDir.Strings(), withSums.Strings(); !slices.Equal(a, b) {
			t.Errorf("%s: with the writer's digests the checks say\n%q\nwant\n%q", name, b, a)
		}
		sums[rel.Files[0].Name] = strings.Repeat("0", 64)
		wrong, err := verify.NewSharedBuilt(out, built, sums).Check(opt, catalog.Declared)
		if err != nil {
			t.Fatal(err)
		}
		if wrong.Err() == nil {
			t.Errorf("%s: a digest that is not %s's passes the check", name, rel.Files[0].Name)
		}
		opened, err := shared.Open()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rel.Files {
			disk, _ := os.ReadFile(filepath.Join(out, f.Name))
			if !bytes.Equal(disk, built.Rendered(f.Name)) {
				t.Errorf("%s: %s on disk is not the rendered file", name, f.Name)
			}
			tb, err := opened.Table(f.Name)
			if err != nil || tb.Name != filepath.Join(out, f.Name) || tb.Rows != f.Rows {
				t.Errorf("%s: %s reads as %v (%v), want %d rows named by its path", name, f.Name, tb, err, f.Rows)
			}
		}
	}
}

// TestExportLetGo: an export told that the caller reads nothing of the
// result after it (ExportOptions.LetGo, privlab run) writes the same
// bytes, manifest and audit record as one that keeps the result, for
// every method, and lets go of the result's groups, answerer and release
// function (the release read the groups for its manifest: dropped before
// it is built, the claims of ambiguity's manifest say 0 groups).
func TestExportLetGo(t *testing.T) {
	t.Parallel()
	dir, _, prepared := censusForEveryMethod(t, 1200, 3, "7")
	for _, name := range catalog.Names() {
		p := prepared[name]
		kept, gone := filepath.Join(dir, name+"-kept"), filepath.Join(dir, name+"-gone")
		if _, err := Export(p, run(t, p), kept, ExportOptions{AcceptViolations: true}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res := run(t, p)
		if _, err := Export(p, res, gone, ExportOptions{AcceptViolations: true, LetGo: true}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Groups != nil || res.Answerer != nil || res.Release != nil {
			t.Errorf("%s: the result still holds its groups, answerer or release function", name)
		}
		files := listDir(t, kept)
		if !slices.Equal(files, listDir(t, gone)) {
			t.Fatalf("%s: files %v and %v", name, files, listDir(t, gone))
		}
		for _, f := range append(files, "../"+name+"-kept.audit.json") {
			a, _ := os.ReadFile(filepath.Join(kept, f))
			b, _ := os.ReadFile(filepath.Join(gone, strings.Replace(f, "-kept", "-gone", 1)))
			if a == nil || !bytes.Equal(a, bytes.ReplaceAll(b, []byte(name+"-gone"), []byte(name+"-kept"))) {
				t.Errorf("%s: %s differs when the export lets go of the result", name, f)
			}
		}
	}
}

// TestExportWorkloadAhead: the workload measured while the deferred
// figures are computed (RunOptions.Then, StartWorkload: privlab run) is the one
// the export states, for every method: the same manifest as an export
// that measures it itself. One started for another number of queries is
// not taken. So is the input's digest.
func TestExportWorkloadAhead(t *testing.T) {
	t.Parallel()
	dir, in, prepared := censusForEveryMethod(t, 900, 5, "3")
	for _, name := range catalog.Names() {
		p := prepared[name]
		var ahead, other *Workload
		res, err := Run(context.Background(), p, RunOptions{Then: func(r *method.Result) {
			ahead, other = StartWorkload(p, r, 40), StartWorkload(p, r, 7)
		}})
		if err != nil {
			t.Fatal(err)
		}
		if ahead.For(res, 40) == nil || ahead.For(res, 41) != nil || ahead.For(run(t, p), 40) != nil {
			t.Fatalf("%s: a measurement ahead is taken for another result or size", name)
		}
		own, taken, wrong := filepath.Join(dir, name+"-own"), filepath.Join(dir, name+"-ahead"), filepath.Join(dir, name+"-other")
		// The input's digest taken ahead (StartInputDigest) is the
		// audit's; one of another file is not taken.
		elsewhere := &InputDigest{path: in + ".other", sum: strings.Repeat("0", 64), wait: func() {}}
		for _, c := range []struct {
			out string
			wl  *Workload
			d   *InputDigest
		}{{own, nil, nil}, {taken, ahead, StartInputDigest(p)}, {wrong, other, elsewhere}} {
			if _, err := Export(p, res, c.out, ExportOptions{AcceptViolations: true, Queries: 40, Workload: c.wl, InputDigest: c.d}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			a, err := (*Cache)(nil).ReadAudit(c.out)
			if sum, _ := releasedir.FileSHA256(in); err != nil || a.InputSHA256 != sum {
				t.Fatalf("%s: %s's audit record holds the input digest %q (%v), want %q", name, c.out, a.InputSHA256, err, sum)
			}
		}
		for _, out := range []string{taken, wrong} {
			a, _ := os.ReadFile(filepath.Join(own, "manifest.json"))
			b, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
			if !bytes.Contains(a, []byte(`"queries": 40`)) || !bytes.Equal(a, b) {
				t.Errorf("%s: %s states another manifest than an export that measures its workload", name, out)
			}
		}
	}
}

// censusForEveryMethod writes a census table of rows rows (data seed
// dataSeed) in a temporary directory and prepares every method's project
// on it (QIs age, sex, education; SA occupation; kja Mondrian, k = 5).
func censusForEveryMethod(t *testing.T, rows int, dataSeed uint64, seed string) (dir, in string, prepared map[string]*Prepared) {
	t.Helper()
	dir = t.TempDir()
	in = filepath.Join(dir, "census.csv")
	d, err := datasets.Lookup("census")
	if err != nil {
		t.Fatal(err)
	}
	if err := releasedir.WriteAtomic(in, func(w io.Writer) error { return d.Write(w, rows, dataSeed) }); err != nil {
		t.Fatal(err)
	}
	prepared = map[string]*Prepared{}
	for _, name := range catalog.Names() {
		proj := Project{Input: in, Method: name, Roles: model.Roles{QIs: []string{"age", "sex", "education"}, SA: "occupation"},
			Params: model.Values{"seed": seed}}
		if name == "kja" {
			proj.Variant, proj.Params["k"] = "mondrian", "5"
		}
		src, err := Env{}.LoadTable(proj)
		if err != nil {
			t.Fatal(err)
		}
		if prepared[name], err = (Env{}).Prepare(proj, src); err != nil {
			t.Fatal(err)
		}
	}
	return dir, in, prepared
}
