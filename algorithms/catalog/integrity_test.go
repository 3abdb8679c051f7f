package catalog_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/catalog/catalogtest"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/verify"
	"privlab/algorithms/verify/verifytest"
	"privlab/model/releasedir"
)

var (
	examplesOnce sync.Once
	examples     []string
	examplesDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if examplesDir != "" {
		os.RemoveAll(examplesDir)
	}
	os.Exit(code)
}

// sharedExamples exports every method's example once for the tests of
// this package (each test copies the release it edits: copyDir).
func sharedExamples(t testing.TB) []string {
	examplesOnce.Do(func() {
		dir, err := os.MkdirTemp("", "privlab-examples-")
		if err != nil {
			t.Fatal(err)
		}
		examplesDir = dir
		examples = exportExamples(t, dir)
	})
	if examples == nil {
		t.Fatal("the example releases could not be written")
	}
	return examples
}

// copyBare copies a release without its audit record (copyDir copies
// both), as a recipient holds it.
func copyBare(t *testing.T, rel string) string {
	dir := copyDir(t, rel)
	if err := os.Remove(releasedir.AuditPath(dir)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// forgeText edits manifest.json as text (what a map cannot hold: a key
// given twice), then renders report.md from the manifest as Go's
// encoding/json reads it and re-hashes it, as a forger with privlab's own
// renderer would.
func forgeText(t *testing.T, dir string, edit func(text string) string) {
	t.Helper()
	path := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := edit(string(b))
	var m releasedir.Manifest
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	oldSum, _ := releasedir.FileSHA256(filepath.Join(dir, "report.md"))
	report := []byte(releasedir.RenderReport(&m))
	if err := os.WriteFile(filepath.Join(dir, "report.md"), report, 0o644); err != nil {
		t.Fatal(err)
	}
	newSum, _ := releasedir.FileSHA256(filepath.Join(dir, "report.md"))
	text = strings.ReplaceAll(text, oldSum, newSum)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustFail checks dir and wants a failing line or an error naming want.
func mustFail(t *testing.T, dir string, opt verify.Options, want string) {
	t.Helper()
	rep, err := catalogtest.Check(dir, opt)
	if err != nil {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("check: %v, want it to name %q", err, want)
		}
		return
	}
	if rep.OK() {
		t.Fatalf("the forged release passes:\n%s", strings.Join(rep.Strings(), "\n"))
	}
	for _, l := range rep.Lines {
		if !l.OK && strings.Contains(l.String(), want) {
			return
		}
	}
	t.Fatalf("no failing line names %q:\n%s", want, strings.Join(rep.Strings(), "\n"))
}

// reportHeadings are the only headings report.md may have.
var reportHeadings = map[string]bool{
	"## Privacy": true, "## In plain words": true, "## Risk and utility (the figures every method's release gets)": true,
	"## Utility": true, "## Notes from the run": true, "## Files": true, "## Attacks": true, "## Warnings": true,
}

// checkHeadings fails on a heading of report.md that privlab does not
// write (the title's is the first line).
func checkHeadings(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		bare := strings.TrimLeft(l, "> ")
		if i > 0 && strings.HasPrefix(bare, "#") && !reportHeadings[l] {
			t.Errorf("report.md line %d is a heading the data made: %q", i+1, l)
		}
	}
}

// Issue 25, item 2: a details key the method does not write is rejected
// by every method's check, and no value or note can add a section to
// report.md.
func TestForgedDetailsAndNotesForEveryMethod(t *testing.T) {
	t.Parallel()
	for i, rel := range sharedExamples(t) {
		method := catalog.Names()[i]
		t.Run(method, func(t *testing.T) {
			dir := copyDir(t, rel)
			verifytest.Restate(t, dir, func(m map[string]any) {
				m["details"].(map[string]any)["k_anonymity_guaranteed"] = 100
			})
			mustFail(t, dir, verify.Options{}, `unknown key "k_anonymity_guaranteed"`)

			dir = copyDir(t, rel)
			fake := "x |\n\n## Privacy\n\n- k-anonymity: 100 (limit 100) — holds\n\n# Verified"
			verifytest.Restate(t, dir, func(m map[string]any) {
				m["notes"] = append(m["notes"].([]any), fake)
				m["risk_summary"] = fake
				m["details"].(map[string]any)["k_anonymity_guaranteed"] = fake
			})
			checkHeadings(t, dir)
			b, _ := os.ReadFile(filepath.Join(dir, "report.md"))
			if !strings.Contains(string(b), "\n> x \\|\\n\\n\\#\\# Privacy\\n\\n- k-anonymity: 100 (limit 100) — holds\\n\\n\\# Verified\n") {
				t.Errorf("the note is not quoted text under the producer's-words label:\n%s", b)
			}
		})
	}
}

// Issue 25, item 3: a manifest that Go's encoding/json reads one way and
// jq or Python another (a key repeated in another case) fails for every
// method, naming the line.
func TestTwoReadingsOfTheManifestFailForEveryMethod(t *testing.T) {
	t.Parallel()
	for i, rel := range sharedExamples(t) {
		method := catalog.Names()[i]
		t.Run(method, func(t *testing.T) {
			m, err := releasedir.ReadManifest(rel)
			if err != nil {
				t.Fatal(err)
			}
			// Go reads the last "Parameters", jq and Python "parameters".
			other := map[string]string{}
			for k, v := range m.Parameters {
				other[k] = v
			}
			for k := range other {
				other[k] = "2" // fakes 0 -> 2, k 20 -> 2, alpha 0.5 -> 2, ...
			}
			b, _ := json.Marshal(other)
			dir := copyDir(t, rel)
			forgeText(t, dir, func(text string) string {
				return strings.Replace(text, "\n}", ",\n  \"Parameters\": "+string(b)+"\n}", 1)
			})
			mustFail(t, dir, verify.Options{}, `key "Parameters" is given again as "parameters"`)
			// Any top-level key a manifest does not have fails too.
			dir = copyDir(t, rel)
			forgeText(t, dir, func(text string) string {
				return strings.Replace(text, "{", "{\n  \"k_anonymity_guaranteed\": 100,", 1)
			})
			mustFail(t, dir, verify.Options{}, `unknown key "k_anonymity_guaranteed"`)
		})
	}
}

// received checks a release as privlab check does (pipeline.Check: the
// audit record beside it is read).
func received(t *testing.T, dir string) *verify.Report {
	t.Helper()
	rep, err := pipeline.Check(dir, nil, nil)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	return rep
}

func lineNamed(rep *verify.Report, name string) (verify.Line, bool) {
	for _, l := range rep.Lines {
		if l.Name == name {
			return l, true
		}
	}
	return verify.Line{}, false
}

// Issue 25, item 4: claims about how a release was made that the files
// cannot confirm (the audit's forgeries: a variant, kja's split,
// ambiguity's kinds, the version) are named as unconfirmed by check, and
// with the audit record beside the release they fail: it holds the
// digest of the manifest the producer wrote.
func TestDescriptiveClaimsAreNamedOrBound(t *testing.T) {
	t.Parallel()
	forgeries := map[string]struct {
		edit func(m map[string]any)
		want string // in the unconfirmed line
	}{
		"distribution": {func(m map[string]any) {
			m["parameters"].(map[string]any)["grouping"] = "mondrian:2"
			m["details"].(map[string]any)["grouping"] = "mondrian:2"
		}, `parameters.grouping "mondrian:2"`},
		"kja":       {func(m map[string]any) { m["parameters"].(map[string]any)["split"] = "round-robin" }, `parameters.split "round-robin"`},
		"lossyjoin": {func(m map[string]any) { m["details"].(map[string]any)["criterion"] = "the best one" }, `details.criterion "the best one"`},
		"sampling":  {func(m map[string]any) { m["variant"] = "within-limit" }, `variant "within-limit"`},
		"ambiguity": {func(m map[string]any) { m["details"].(map[string]any)["kinds"].(map[string]any)["age"] = "categorical" }, `details.kinds {"age":"categorical"`},
	}
	for i, rel := range sharedExamples(t) {
		method := catalog.Names()[i]
		f := forgeries[method]
		t.Run(method, func(t *testing.T) {
			// The release as exported: the audit record binds every claim.
			rep := received(t, copyDir(t, rel))
			if l, ok := lineNamed(rep, "provenance"); !rep.OK() || !ok || !strings.Contains(l.Text, "version") {
				t.Fatalf("an exported release with its audit record:\n%s", strings.Join(rep.Strings(), "\n"))
			}
			for _, edit := range []struct {
				name, want string
				f          func(m map[string]any)
			}{
				{"version", `version "9.9.9"`, func(m map[string]any) { m["version"] = "9.9.9" }},
				{"method's own", f.want, f.edit},
			} {
				t.Run(edit.name, func(t *testing.T) {
					// Without the audit record: passes, naming the claim.
					dir := copyBare(t, rel)
					verifytest.Restate(t, dir, edit.f)
					rep := received(t, dir)
					l, ok := lineNamed(rep, "unconfirmed")
					if !rep.OK() || !ok || !strings.Contains(l.Text, edit.want) {
						t.Fatalf("without the audit record, want a pass naming %s as unconfirmed:\n%s", edit.want, strings.Join(rep.Strings(), "\n"))
					}
					// With it: fails, naming the manifest.
					dir = copyDir(t, rel)
					verifytest.Restate(t, dir, edit.f)
					rep = received(t, dir)
					if l, ok := lineNamed(rep, "claim manifest"); rep.OK() || !ok || l.OK {
						t.Fatalf("with the audit record, want a failing claim manifest line:\n%s", strings.Join(rep.Strings(), "\n"))
					}
				})
			}
		})
	}
}

// Issue 25, item 5: what a killed export leaves (.r.tmp-PID-X: the
// manifest before verification, verified=false, no check lines, no
// report.md) never passes check, under its own name or renamed; nor does a
// finished release still in an export's temporary directory.
func TestUnfinishedReleasesNeverPass(t *testing.T) {
	t.Parallel()
	for i, rel := range sharedExamples(t) {
		method := catalog.Names()[i]
		t.Run(method, func(t *testing.T) {
			killed := func(name string) string {
				dir := filepath.Join(t.TempDir(), name)
				if err := os.Rename(copyDir(t, rel), dir); err != nil {
					t.Fatal(err)
				}
				os.Remove(filepath.Join(dir, "report.md"))
				verifytest.Restate(t, dir, func(m map[string]any) {
					delete(m, "checks")
					m["verified"] = false
					var files []any
					for _, f := range m["files"].([]any) {
						if f.(map[string]any)["name"] != "report.md" {
							files = append(files, f)
						}
					}
					m["files"] = files
				})
				return dir
			}
			finishedInTemp := filepath.Join(t.TempDir(), ".r.tmp-4242-17")
			if err := os.Rename(copyDir(t, rel), finishedInTemp); err != nil {
				t.Fatal(err)
			}
			for _, dir := range []string{killed(".r.tmp-4242-17"), killed("r"), finishedInTemp} {
				rep := received(t, dir)
				if l, ok := lineNamed(rep, "finished"); rep.OK() || !ok || l.OK {
					t.Errorf("%s passes or has no failing finished line:\n%s", filepath.Base(dir), strings.Join(rep.Strings(), "\n"))
				}
			}
		})
	}
}
