package releasedir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"privlab/model"
	"privlab/model/strictjson"
)

// FuzzReadManifest: any manifest.json is read without a panic, and a
// manifest that reads renders a report (twice the same: the report is a
// function of the manifest, which check relies on).
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"method":"distribution","parameters":{"fakes":"0"},"quasi_identifiers":["a"],"sensitive":"s","rows_in":3,"rows_published":3,"groups":1,"details":{"domain":["1","2"],"group_figures":[{"figure":"x","min":1}]},"files":[{"name":"qi.csv","rows":3,"sha256":"00"}]}`))
	f.Add([]byte(`{"method":"x","details":[1,[2,{"a":null}],"|pipe|"],"worst_cases":[{"name":"w","value":1e308,"ok":true}]}`))
	f.Add([]byte(`{"files":[{"name":"../etc/passwd"}],"notes":["a\nb"]}`))
	f.Add([]byte(`{not json`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"method":"x","details":{"a":` + strings.Repeat("[", strictjson.MaxDepth-1) + strings.Repeat("]", strictjson.MaxDepth-1) + `}}`))
	f.Add([]byte(`{"details":` + strings.Repeat(`{"a":[`, 40) + `"\"[{"` + strings.Repeat(`]}`, 40) + `}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadManifest(dir)
		if err != nil {
			var ie *model.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if r1, r2 := RenderReport(m), RenderReport(m); r1 != r2 {
			t.Fatal("the report of one manifest differs between renderings")
		}
	})
}

// FuzzDecodeAudit: any audit record reads as strictjson.Decode reads it (the
// same record, or the same error), whatever its row map's fast path
// makes of it, and one nested too deep is an error.
func FuzzDecodeAudit(f *testing.F) {
	f.Add([]byte(`{"input":"in.csv","seed":7,"row_map":{"a.csv":[3,0,-2],"b.csv":[]},"config":{"k":"v"}}`))
	f.Add([]byte("{\"row_map\": {\"a.csv\": [1,\n2]},\n\"seed\": 1,\n\"Seed\": 2}"))
	f.Add([]byte(`{"row_map":{"a.csv":[1]},"config":` + strings.Repeat("[", strictjson.MaxDepth) + strings.Repeat("]", strictjson.MaxDepth) + `}`))
	f.Add([]byte(`{"config":{"x":"\"[[[\\"},"row_map":{"a.csv":[` + strings.Repeat("[", 70) + `]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var want, got Audit
		werr := strictjson.Decode(b, &want)
		gerr := decodeAudit(b, &got)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || werr == nil && !reflect.DeepEqual(want, got) {
			t.Fatalf("strictjson.Decode gives %+v (%v), decodeAudit %+v (%v)", want, werr, got, gerr)
		}
		if gerr == nil && jsonNesting(b) > strictjson.MaxDepth {
			t.Fatal("a record nested too deep was read")
		}
	})
}

// jsonNesting is the deepest nesting of objects and lists in the JSON
// document b (brackets inside strings aside).
func jsonNesting(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}
