package releasedir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// decodeDetails gives what json.Unmarshal into an any gives, for small
// documents and large ones, read again, laid out otherwise (indented) or
// changed in one byte (the kept document is not answered for another),
// and refuses what it refuses (a syntax error, a number out of range).
func TestDecodeDetailsIsUnmarshal(t *testing.T) {
	big := func(x int) []byte {
		var b strings.Builder
		b.WriteString(`{"groups": [`)
		for i := 0; i < 4000; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"id": %d, "v": "s%05d", "n": 1.5e3}`, i, i*x)
		}
		b.WriteString(`], "z": {"b": 1, "a": [1, "x", null, true]}}`)
		return []byte(b.String())
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, big(1), "", "  "); err != nil {
		t.Fatal(err)
	}
	docs := [][]byte{[]byte(`{"a": 1}`), big(1), big(1), big(3), big(1), indented.Bytes(), []byte(`{"a": }`), append(big(1)[:len(big(1))-1], ','),
		[]byte(`{"a": 1e400, "pad": "` + strings.Repeat("x", cachedMin) + `"}`)}
	if len(docs[1]) < cachedMin {
		t.Fatalf("the large document has %d bytes, under %d", len(docs[1]), cachedMin)
	}
	for i, d := range docs {
		var want any
		werr := json.Unmarshal(d, &want)
		got, err := decodeDetails(d)
		if (err != nil) != (werr != nil) {
			t.Fatalf("doc %d: error %v, json.Unmarshal's %v", i, err, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("doc %d: decoded differently from json.Unmarshal", i)
		}
	}
}

// The audit record's digest is taken of the manifest as written
// (writtenDigest), and is the digest of the file read back for every kind
// of claim: nil and empty lists and maps, pointers to figures, floats,
// escaped text, indented and compact details, and text that is not UTF-8
// (read back, as its digest as written differs).
func TestManifestDigestOfWrittenIsOfReadBack(t *testing.T) {
	f := 0.1 + 0.2
	neg := math.Copysign(0, -1)
	yes := true
	ms := []*Manifest{
		{Tool: "privlab", Method: "m"},
		{Tool: "privlab", Method: "m", Parameters: map[string]string{}, QIs: []string{}, Dropped: nil, WorstCases: []Figure{}, Files: []FileEntry{}},
		{Tool: "privlab", Version: "v", Method: "kja", Variant: "mondrian", Title: "t<&>\u2028", Paper: "p", Certifies: "c",
			Parameters: map[string]string{"k": "10", "b": "x\xffy"}, QIs: []string{"age", "zip"}, SA: "d", Dropped: []string{"id"},
			RowsIn: 10, Published: 9, Suppressed: 1, MissingValues: "drop", Groups: 3,
			WorstCases: []Figure{{Name: "n", Value: f, Limit: "0.3", OK: true, Short: "s", Bar: true, Help: "h"}},
			Utility:    []Figure{{Name: "u", Value: neg}, {Name: "big", Value: 1e300}, {Name: "small", Value: 5e-324}},
			Workload:   "count-in", Risk: []Figure{{Name: "r", Value: 1.0 / 3}}, RiskSummary: "rs",
			Attacks:  []AttackFigure{{Attack: "a", Attacker: "b", Measured: &f, Bound: nil, Holds: &yes, Records: 4}},
			Warnings: []string{"w"}, WorkloadError: &WorkloadError{Shape: "count-in", Queries: 100, Seed: 1, Mean: f},
			Details: json.RawMessage(`{"z": [1, 2.50, {"b": null, "a": "\u00e9"}], "a": 12345678901234567890}`),
			Files:   []FileEntry{{Name: "qi.csv", Rows: 9, SHA256: "ab"}}, Verified: true, Checks: []string{"ok x"}, AcceptedBad: true, Notes: []string{"n"}},
	}
	valid := *ms[2]
	valid.Parameters = map[string]string{"k": "10", "b": "x\ufffdy \\ufffd"} // the character itself, and the escape as text
	ms = append(ms, &valid)
	for i, m := range ms {
		dir := writeManifestDir(t, m)
		back, err := ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		written, err1 := writtenDigest(m, dir)
		read, err2 := ManifestDigest(back)
		if err1 != nil || err2 != nil || written != read {
			t.Fatalf("manifest %d: digest as written %s (%v), read back %s (%v)", i, written, err1, read, err2)
		}
	}
	// Text that is not UTF-8 is why the file is read back: its digest as
	// it stands is not the one read back.
	asItStands, _ := ManifestDigest(ms[2])
	if written, _ := writtenDigest(ms[2], writeManifestDir(t, ms[2])); written == asItStands {
		t.Fatal("invalid UTF-8 does not change the digest: the test does not see the read back")
	}
}

func writeManifestDir(t *testing.T, m *Manifest) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeDraftJSON(filepath.Join(dir, "manifest.json"), m); err != nil {
		t.Fatal(err)
	}
	return dir
}

// renderViaJSON is RenderReport as it was: the whole manifest, details
// and all, written as JSON and read back before rendering.
func renderViaJSON(m *Manifest) string {
	var c Manifest
	b, _ := json.Marshal(m)
	if err := json.Unmarshal(b, &c); err != nil {
		c = *m
	}
	return renderManifest(&c)
}

// report.md renders as when the whole manifest went through JSON: text
// that is not UTF-8, HTML characters, details indented, compact, invalid
// or holding invalid UTF-8, a value JSON cannot write (the manifest is
// then rendered as it stands).
func TestRenderReportAsThroughJSON(t *testing.T) {
	base := Manifest{Tool: "privlab", Version: "v", Method: "kja", Title: "a <b> & \xff", Certifies: "k \xfe", QIs: []string{"age"}, SA: "d",
		Parameters: map[string]string{"k": "1\xff0"}, WorstCases: []Figure{{Name: "w\xff", Value: 0.5, Limit: "1", OK: true}},
		Checks: []string{"ok x \xff"}, Notes: []string{"<n>"}, Files: []FileEntry{{Name: "qi.csv", Rows: 3, SHA256: "ab"}}, Verified: true}
	for i, d := range []string{"", `{"b": 1, "a": {"x": "\u00e9 <&>"}}`, "{\n  \"b\": [1,\n 2],\n \"a\": \"x\xffy\"\n}", `{"b": `, `null`, `  `} {
		m := base
		m.Details = json.RawMessage(d)
		if got, want := RenderReport(&m), renderViaJSON(&m); got != want {
			t.Fatalf("details %d: rendered\n%s\nthrough JSON\n%s", i, got, want)
		}
	}
	m := base
	m.Utility = []Figure{{Name: "nan", Value: math.NaN()}}
	if got, want := RenderReport(&m), renderViaJSON(&m); got != want {
		t.Fatalf("a value JSON cannot write: rendered\n%s\nthrough JSON\n%s", got, want)
	}
}
