package releasedir

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/strictjson"
)

// nested is n lists one inside the other.
func nested(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// A document nested deeper than strictjson.MaxDepth is refused naming the line
// of the first list or object too deep; one at the limit reads. Brackets
// inside texts do not count.
func TestDepthLimit(t *testing.T) {
	var v any
	if err := strictjson.Decode([]byte(nested(strictjson.MaxDepth)), &v); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	err := strictjson.Decode([]byte("[\n"+nested(strictjson.MaxDepth)+"]"), &v)
	if je, ok := err.(*strictjson.Error); !ok || je.Line != 2 || je.Msg != "objects and lists nested more than 64 deep; privlab writes no JSON file nested so deep" {
		t.Fatalf("one deeper: %#v", err)
	}
	text := fmt.Sprintf(`{"a": "%s\"[[", "b": [{"c": %s}]}`, strings.Repeat("[", 100), nested(strictjson.MaxDepth-3))
	if err := strictjson.Decode([]byte(text), &v); err != nil {
		t.Fatalf("brackets in a text counted: %v", err)
	}
	if err := strictjson.Decode([]byte(strings.Replace(text, "[{", "[[{", 1)+"]"), &v); err == nil {
		t.Fatal("one level more read")
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A manifest whose details, or an audit record, nest thousands deep is
// refused at once, in memory proportional to the file: the strict reader
// kept a path per level, memory growing with the square of the depth
// (a small file of 40,000 levels took gigabytes).
func TestDeepManifestAndAudit(t *testing.T) {
	dir := t.TempDir()
	// A key repeated at the bottom sends the document to the reader that
	// names it, which kept the path to every level.
	deep := strings.Repeat("[", 5000) + `{"k": 1, "k": 2}` + strings.Repeat("]", 5000)
	man := `{"method": "kja",` + "\n" + `"details": {"boxes": ` + deep + `}}`
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(man), 0o644)
	var err error
	if n := allocated(func() { _, err = ReadManifest(dir) }); n > 1<<20 {
		t.Errorf("the manifest took %d bytes", n)
	}
	want := filepath.Join(dir, "manifest.json") + ":2: objects and lists nested more than 64 deep"
	if ie, ok := err.(*model.InputError); !ok || ie.Line != 2 || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("manifest: %v", err)
	}
	raw := json.RawMessage(`{"boxes": ` + deep + `}`)
	var d struct {
		Boxes any `json:"boxes"`
	}
	if n := allocated(func() { err = DecodeDetails(raw, &d) }); n > 1<<20 || err == nil ||
		err.Error() != "details: objects and lists nested more than 64 deep; privlab writes no JSON file nested so deep" {
		t.Errorf("details: %d bytes, %v", n, err)
	}
	for _, text := range []string{
		`{"seed": 1, "config": {"x": ` + deep + "}}",
		`{"row_map": {"a.csv": ` + deep + "}}",
		"{\"row_map\": {\"a.csv\": [1]},\n\"config\": " + deep + "}",
	} {
		path := filepath.Join(dir, "r.audit.json")
		os.WriteFile(path, []byte(text), 0o600)
		if n := allocated(func() { _, err = ReadAudit(path) }); n > 1<<20 {
			t.Errorf("the audit record %.40s took %d bytes", text, n)
		}
		if ie, ok := err.(*model.InputError); !ok || ie.File != path || !strings.Contains(err.Error(), "nested more than 64 deep") {
			t.Errorf("audit record %.40s: %v", text, err)
		}
	}
}
