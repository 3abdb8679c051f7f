package releasedir

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"privlab/model/strictjson"
)

// decodeAudit reads every record as strictjson.Decode does: the same audit
// from a record privlab writes, and the same audit or the same error
// from records edited in the ways that matter to its fast path (a row
// map at another depth or inside a text, keys given twice or in another
// case, escapes, numbers that are not plain integers, broken syntax).
func TestDecodeAuditIsDecodeStrict(t *testing.T) {
	t.Parallel()
	a := Audit{Input: "in.csv", InputSHA256: "ab", Seed: 7, SeedFixed: true, Release: "rel",
		RowMap: map[string][]int{"a.csv": {3, 0, -2, 120, 7}, "b.csv": {}, "c d.csv": {1}},
		Config: map[string]any{"k": "v", "n": 2.5}}
	b, err := json.MarshalIndent(&a, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	edits := []struct{ old, new string }{
		{"", ""},
		{`"a.csv": [`, `"a.csv": [1.5, `},
		{`"a.csv": [`, `"a.csv": [1e3, `},
		{`"a.csv": [`, `"a.csv": [01, `},
		{`"a.csv": [`, `"a.csv": [null, `},
		{`"a.csv": [`, `"a.csv": [-, `},
		{`"a.csv": [`, `"a.csv": [1234567890123456789, `},
		{`"a.csv": [`, `"a.csv": [123456789012345678, `},
		{`"a.csv": [`, `"a.csv": ["1", `},
		{`"a.csv": [`, `"a\u0041.csv": [`},
		{`"b.csv": []`, `"A.csv": []`},
		{`"b.csv": []`, `"a.csv": []`},
		{`"b.csv": []`, `"b.csv": [],`},
		{`"b.csv": []`, `"b.csv": [1,]`},
		{`"b.csv": []`, `"b.csv": [1 2]`},
		{`"row_map": {`, `"row_map": null, "x": {`},
		{`"row_map": {`, `"Row_map": {`},
		{`"row_map": {`, `"row_map" : {`},
		{`"row_map": {`, `"row_map": {"z.csv": [5], `},
		{`"input": "in.csv"`, `"input": "\"row_map\": {}"`},
		{`"input": "in.csv"`, `"input": "in.csv", "row_map": {"x": [1]}`},
		{`"k": "v"`, `"k": "v", "row_map": {"x": [1]}`},
		{`"seed": 7`, `"seed": "7"`},
		{`"seed": 7`, `"seed": 7, "seed": 8`},
		{`"release": "rel"`, `"release": "rel", "extra": 1`},
		{"\n}", "\n} x"},
		{"\n}", ""},
		{`"c d.csv": [`, `"c d.csv": [` + "\n\t\r "},
	}
	for _, e := range edits {
		text := strings.Replace(doc, e.old, e.new, 1)
		if e.old != "" && text == doc {
			t.Fatalf("edit %q does not apply", e.old)
		}
		var want, got Audit
		werr := strictjson.Decode([]byte(text), &want)
		gerr := decodeAudit([]byte(text), &got)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || !reflect.DeepEqual(want, got) {
			t.Errorf("edit %q: strictjson.Decode gives %+v (%v), decodeAudit %+v (%v)", e.new, want, werr, got, gerr)
		}
	}
	if _, _, ok := splitRowMap(b); !ok {
		t.Fatal("the record privlab writes does not take the fast path")
	}
	var got Audit
	if err := decodeAudit(b, &got); err != nil || len(got.RowMap["a.csv"]) != 5 || got.RowMap["a.csv"][3] != 120 || got.RowMap["b.csv"] == nil {
		t.Fatalf("read %+v, %v", got, err)
	}
}
