package releasedir

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/strictjson"
)

// A manifest reads one way only: a key given twice (in any case) or one a
// manifest does not have is an error naming its line, at every level
// (issue 25, item 3). encoding/json alone reads "Parameters" as
// "parameters" and keeps the last; jq and Python keep "parameters".
func TestReadManifestIsStrict(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
		line             int
	}{
		{"two readings", "{\n\"parameters\": {\"fakes\": \"0\"},\n\"Parameters\": {\"fakes\": \"2\"}\n}", `key "Parameters" is given again as "parameters"`, 3},
		{"repeated exactly", "{\"method\": \"kja\",\n\"method\": \"distribution\"}", `key "method" is given twice`, 2},
		{"unknown top-level key", "{\"method\": \"kja\",\n\n\"k_anonymity_guaranteed\": 100}", `unknown key "k_anonymity_guaranteed"`, 3},
		{"a key in another case", "{\"Method\": \"kja\"}", `unknown key "Method" (the key is "method"`, 1},
		{"repeated in a figure", "{\"worst_cases\": [{\"name\": \"k\", \"value\": 2,\n\"Value\": 20}]}", `worst_cases[0]: key "Value"`, 2},
		{"unknown in a file entry", "{\"files\": [{\"name\": \"a.csv\", \"rows\": 1, \"sha256\": \"x\", \"size\": 3}]}", `files[0]: unknown key "size"`, 1},
		{"repeated in details", "{\"details\": {\"boxes\": {\"k\": 1,\n\"K\": 2}}}", `details.boxes: key "K"`, 2},
		{"repeated in parameters", "{\"parameters\": {\"k\": \"2\", \"k\": \"20\"}}", `parameters: key "k" is given twice`, 1},
		{"not JSON", "{\"method\": }", "not valid JSON", 1},
		{"a number for a text", "{\"method\": 3}", "method: a JSON number where string is expected", 1},
		{"two documents", "{}\n{}", "more text after the JSON document", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadManifest(dir)
			ie, ok := err.(*model.InputError)
			if !ok || !strings.Contains(err.Error(), c.want) || ie.Line != c.line || ie.File != filepath.Join(dir, "manifest.json") {
				t.Fatalf("got %v (line %d), want %q at line %d", err, lineOf(err), c.want, c.line)
			}
		})
	}
}

func lineOf(err error) int {
	if ie, ok := err.(*model.InputError); ok {
		return ie.Line
	}
	return -1
}

// A manifest privlab writes reads back exactly.
func TestDecodeStrictRoundTrip(t *testing.T) {
	m := Manifest{Tool: "privlab", Version: model.Version, Method: "kja", Parameters: map[string]string{"k": "2"},
		QIs: []string{"a"}, WorstCases: []Figure{{Name: "k", Value: 2, Limit: "2", OK: true, Help: "h"}},
		WorkloadError: &WorkloadError{Shape: "count-in", Queries: 3}, Details: json.RawMessage(`{"x":[1,"y"]}`),
		Files: []FileEntry{{Name: "a.csv", Rows: 1, SHA256: "s"}}, Notes: []string{"n"}}
	b, _ := json.Marshal(&m)
	var got Manifest
	if err := strictjson.Decode(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("got %+v, want %+v", got, m)
	}
	a := Audit{Input: "in.csv", Seed: 3, RowMap: map[string][]int{"a.csv": {1, -1}}, Config: map[string]any{"method": "kja"}, ManifestDigest: "ab"}
	b, _ = json.Marshal(&a)
	var ga Audit
	if err := strictjson.Decode(b, &ga); err != nil || !reflect.DeepEqual(ga, a) {
		t.Errorf("audit: %v %+v", err, ga)
	}
}

// The audit record is read as strictly.
func TestReadAuditIsStrict(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.audit.json")
	os.WriteFile(path, []byte("{\"seed\": 1,\n\"Seed\": 2}"), 0o600)
	if _, err := ReadAudit(path); err == nil || !strings.Contains(err.Error(), `key "Seed" is given again as "seed"`) || lineOf(err) != 2 {
		t.Fatalf("got %v", err)
	}
}

// A list of numbers (the audit record's row map of a million rows) is
// read in one step, not a token per number, and reads as strictly: an
// object in it, a text for a number or broken JSON is an error naming its
// line; a key repeated after it is still caught.
func TestReadAuditRowMapIsStrict(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text, want string
		line       int
	}{
		{"{\"row_map\": {\"a.csv\": [1,\n2, {\"x\": 1, \"x\": 2}]}}", "a JSON object where int is expected", 2},
		{"{\"row_map\": {\"a.csv\": [1,\n\"2\"]}}", "a JSON string where int is expected", 2},
		{"{\"row_map\": {\"a.csv\": [1,\n2,]}}", "not valid JSON", 2},
		{"{\"row_map\": {\"a.csv\": [1, 2],\n\"a.csv\": [3]}}", `key "a.csv" is given twice`, 2},
		{"{\"row_map\": {\"a.csv\": [1, 2]},\n\"seed\": 1,\n\"Seed\": 2}", `key "Seed" is given again as "seed"`, 3},
	} {
		path := filepath.Join(t.TempDir(), "r.audit.json")
		os.WriteFile(path, []byte(c.text), 0o600)
		if _, err := ReadAudit(path); err == nil || !strings.Contains(err.Error(), c.want) || lineOf(err) != c.line {
			t.Errorf("%q: got %v (line %d), want %q at line %d", c.text, err, lineOf(err), c.want, c.line)
		}
	}
	path := filepath.Join(t.TempDir(), "r.audit.json")
	os.WriteFile(path, []byte("{\"row_map\": {\"a.csv\": [3, -1, 0], \"b.csv\": []}}"), 0o600)
	if a, err := ReadAudit(path); err != nil || len(a.RowMap["a.csv"]) != 3 || a.RowMap["a.csv"][1] != -1 || a.RowMap["b.csv"] == nil {
		t.Errorf("got %+v, %v", a, err)
	}
}
