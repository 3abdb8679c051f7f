package releasedir

import (
	"encoding/json"
	"strings"
	"testing"
)

func mustDetails(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := EncodeDetails(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A method's details are read strictly: an unknown key, a key given
// twice (in any case) or no details at all is an error naming it.
func TestDecodeDetailsIsStrict(t *testing.T) {
	t.Parallel()
	type det struct {
		Boxes int      `json:"boxes"`
		Join  []string `json:"join_columns"`
	}
	for _, c := range []struct{ raw, want string }{
		{`{"boxes": 3, "join_columns": ["id"]}`, ""},
		{`{"boxes": 3, "k_guaranteed": 100}`, `details: unknown key "k_guaranteed"`},
		{`{"boxes": 3, "Boxes": 4}`, `details: key "Boxes" is given again as "boxes"`},
		{`{"boxes": "3"}`, "boxes: a JSON string where int is expected"},
		{`{"join_columns": [{"a": 1}]}`, "a JSON object where string is expected"},
		{``, "the manifest has no details"},
		{`null`, "the manifest has no details"},
	} {
		var d det
		err := DecodeDetails(json.RawMessage(c.raw), &d)
		if c.want == "" && (err != nil || d.Boxes != 3 || len(d.Join) != 1) || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: got %v (%+v), want %q", c.raw, err, d, c.want)
		}
	}
}

// The digest reads the details in one fixed form: the digest a release
// written before details were kept as written (json.RawMessage) still
// binds its manifest (the audit record of testdata/digest holds it), and
// the order a file lists the details' keys in does not change it.
func TestManifestDigestOfDetails(t *testing.T) {
	t.Parallel()
	m, err := ReadManifest("testdata/digest")
	if err != nil {
		t.Fatal(err)
	}
	const written = "d037ffb75e3cbf88317e4c793ecfd13b4699cc7b6ab89090000a186878a05336"
	if sum, err := ManifestDigest(m); err != nil || sum != written {
		t.Fatalf("digest %s (%v), the audit record holds %s", sum, err, written)
	}
	a, b := *m, *m
	a.Details = json.RawMessage(`{"grouping": "sa-only", "fake_values": 0, "nested": {"y": 1, "x": [2, 1]}}`)
	b.Details = json.RawMessage(`{"nested": {"x": [2, 1], "y": 1}, "fake_values": 0, "grouping": "sa-only"}`)
	da, _ := ManifestDigest(&a)
	db, _ := ManifestDigest(&b)
	if da != db || da == written {
		t.Errorf("details in another key order: %s and %s", da, db)
	}
	b.Details = json.RawMessage(`{"nested": {"x": [1, 2], "y": 1}, "fake_values": 0, "grouping": "sa-only"}`)
	if dc, _ := ManifestDigest(&b); dc == da {
		t.Error("a changed detail leaves the digest unchanged")
	}
}

// The manifest writes the details as the method encoded them (its
// struct's key order), byte for byte what encoding the struct in place
// wrote before.
func TestDetailsWrittenInPlace(t *testing.T) {
	t.Parallel()
	type det struct {
		Zeta  string  `json:"zeta"`
		Alpha float64 `json:"alpha"`
		HTML  string  `json:"html"`
	}
	v := det{Zeta: "z", Alpha: 0.1, HTML: "<b>&"}
	m := Manifest{Method: "x", Details: mustDetails(t, v)}
	got, _ := json.MarshalIndent(&m, "", "  ")
	// The struct in place: indented at the details' depth.
	want, _ := json.MarshalIndent(v, "  ", "  ")
	if !strings.Contains(string(got), "\n  \"details\": "+string(want)+",\n") {
		t.Errorf("got\n%s\nwant details\n%s", got, want)
	}
}
