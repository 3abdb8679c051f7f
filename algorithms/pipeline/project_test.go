package pipeline

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"privlab/model"
)

// A project written in one folder opens from any other: the files it
// names are stored relative to the project file and read back against
// its folder, whatever the working directory. Builders, presets and
// embedded datasets are not paths and stay as they are.
func TestProjectPathsAreRelativeToTheProjectFile(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"data/in.csv", "data/age.csv", "data/weights.csv", "pub/pd.csv"} {
		writeAt(t, filepath.Join(root, f), "a\n1\n")
	}
	os.MkdirAll(filepath.Join(root, "proj"), 0o755)
	os.MkdirAll(filepath.Join(root, "elsewhere"), 0o755)
	t.Chdir(root)
	p := Project{Input: "data/in.csv", Method: "distribution", Public: "pub/pd.csv",
		Hierarchies: map[string]string{"age": "data/age.csv", "zip": "intervals:5", "sex": "flat"},
		Params:      model.Values{"target": "data/weights.csv", "grouping": "mondrian:50"},
		Methods: map[string]Settings{"kja": {Variant: "mondrian-refine", Params: model.Values{"k": "7"}, Public: "pub/pd.csv"},
			"ambiguity": {Params: model.Values{"beta": "0.25"}}}}
	if err := p.Save("proj/project.json"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile("proj/project.json")
	for _, want := range []string{`"input": "../data/in.csv"`, `"age": "../data/age.csv"`, `"zip": "intervals:5"`, `"sex": "flat"`,
		`"target": "../data/weights.csv"`, `"grouping": "mondrian:50"`, `"public": "../pub/pd.csv"`, `"k": "7"`, `"beta": "0.25"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the saved project lacks %s:\n%s", want, b)
		}
	}
	t.Chdir(filepath.Join(root, "elsewhere"))
	got, err := LoadProject("../proj/project.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{got.Input, got.Public, got.Hierarchies["age"], got.Params["target"], got.Methods["kja"].Public} {
		if !isFile(path) {
			t.Errorf("%q does not name its file from another folder (project %+v)", path, got)
		}
	}
	if got.Hierarchies["zip"] != "intervals:5" || got.Params["grouping"] != "mondrian:50" || got.Methods["kja"].Params["k"] != "7" {
		t.Errorf("settings changed on the way: %+v", got)
	}
}

// Project files written before paths were relative to them named files
// relative to the working directory: they still open when the file is
// there; absolute paths that resolve stay as they are.
func TestOldProjectFilesStillOpen(t *testing.T) {
	root := t.TempDir()
	writeAt(t, filepath.Join(root, "data", "in.csv"), "a\n1\n")
	abs := filepath.Join(root, "data", "in.csv")
	writeAt(t, filepath.Join(root, "proj", "old.json"), `{"input": "data/in.csv", "roles": {"quasi_identifiers": ["a"], "sensitive": ""}, "method": "distribution"}`)
	writeAt(t, filepath.Join(root, "proj", "abs.json"), `{"input": "`+filepath.ToSlash(abs)+`", "roles": {"quasi_identifiers": ["a"], "sensitive": ""}, "method": "distribution"}`)
	t.Chdir(root)
	if p, err := LoadProject("proj/old.json"); err != nil || p.Input != "data/in.csv" {
		t.Fatalf("old project: %q %v", p.Input, err)
	}
	if p, err := LoadProject("proj/abs.json"); err != nil || p.Input != filepath.ToSlash(abs) {
		t.Fatalf("absolute path: %q %v", p.Input, err)
	}
}

// Switching methods keeps each method's settings: the variant, the
// values and the public table of the method that read it come back; a
// method that reads no public table gets none, so its project runs as it
// is.
func TestSwitchKeepsEachMethodsSettings(t *testing.T) {
	p := Project{Input: "dataset:census", Method: "kja", Variant: "mondrian-refine", Params: model.Values{"k": "7"}, Public: "pd.csv"}
	q := p.Switch("distribution")
	if q.Method != "distribution" || q.Variant != "" || len(q.Params) != 0 || q.Public != "" {
		t.Fatalf("distribution after kja: %+v", q)
	}
	q.Params["grouping"] = "qi-sa"
	q = q.Switch("lossyjoin").Switch("kja")
	if q.Variant != "mondrian-refine" || q.Params["k"] != "7" || q.Public != "pd.csv" {
		t.Fatalf("kja back after two switches: %+v", q)
	}
	if g := q.Methods["distribution"].Params["grouping"]; g != "qi-sa" {
		t.Fatalf("distribution's settings went: %+v", q.Methods)
	}
	if _, kept := q.Methods["kja"]; kept {
		t.Fatal("the current method's settings are kept twice")
	}
	if r := q.Switch("kja"); !reflect.DeepEqual(r, q) {
		t.Fatal("switching to the current method changed the project")
	}
}

// writeAt writes a file, making its folder.
func writeAt(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, text)
}
