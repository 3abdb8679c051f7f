package releasedir

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"privlab/model/strictjson"
)

// A document read again is handed what decoding it gives, and nothing it
// holds is shared with an earlier reading or with the cache: changing
// every list, map, pointer and interface value of one reading leaves the
// next as decoded. Other bytes or another type are decoded, not looked
// up; a value not zero is decoded into, as strictjson.Decode does.
func TestDecodeCachedIsDecodeStrict(t *testing.T) {
	type item struct {
		Value string  `json:"value"`
		P     float64 `json:"p"`
	}
	type doc struct {
		Name   string            `json:"name"`
		Items  []item            `json:"items"`
		Params map[string]string `json:"params"`
		Ptr    *item             `json:"ptr"`
		Any    any               `json:"any"`
		Raw    json.RawMessage   `json:"raw"`
		Empty  []int             `json:"empty"`
		Nested [][]int           `json:"nested"`
	}
	var b strings.Builder
	b.WriteString(`{"name": "n", "params": {"k": "2"}, "ptr": {"value": "x", "p": 1}, "any": {"a": [1, "b", {"c": null}]}, "raw": {"r": [1, 2]}, "empty": [], "nested": [[1], [2, 3]], "items": [`)
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"value": "s%05d", "p": %d}`, i, i)
	}
	b.WriteString("]}")
	data := []byte(b.String())
	if len(data) < cachedMin {
		t.Fatalf("the document (%d bytes) is too small to be kept", len(data))
	}
	var want doc
	if err := strictjson.Decode(data, &want); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 3; round++ {
		var got doc
		if err := decodeCached(data, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || got.Empty == nil {
			t.Fatalf("round %d: got a different document", round)
		}
		if round > 0 && cachedDoc(reflect.TypeOf(&got), data) == nil {
			t.Fatal("the document was not kept")
		}
		// Change everything the reading holds.
		got.Items[0].Value, got.Params["k"], got.Ptr.Value, got.Raw[0] = "changed", "changed", "changed", ' '
		got.Any.(map[string]any)["a"].([]any)[0] = "changed"
		got.Nested[1][0] = 99
		got.Params["new"] = "x"
	}
	// A key repeated in bytes never kept is an error; other bytes decode.
	var d doc
	if err := decodeCached([]byte(strings.Replace(string(data), `"params"`, `"Name": "m", "params"`, 1)), &d); err == nil {
		t.Fatal("a repeated key read from the cache")
	}
	other := []byte(strings.Replace(string(data), `"s00001"`, `"t00001"`, 1))
	var o doc
	if err := decodeCached(other, &o); err != nil || o.Items[1].Value != "t00001" {
		t.Fatalf("other bytes: %v, %q", err, o.Items[1].Value)
	}
	// Another type reads the same bytes as itself.
	var loose struct {
		Name  string `json:"name"`
		Items []struct {
			Value string `json:"value"`
		} `json:"items"`
	}
	if err := decodeCached(data, &loose); err == nil {
		t.Fatal("a key the type does not name read from the cache")
	}
	// A value not zero is decoded into, as strictjson.Decode does: what the
	// document does not set stays.
	type partial struct {
		Name  string `json:"name"`
		Items []item `json:"items"`
		Keep  string `json:"keep"`
	}
	var first partial
	text := []byte(strings.NewReplacer(`"params": {"k": "2"}, "ptr": {"value": "x", "p": 1}, "any": {"a": [1, "b", {"c": null}]}, "raw": {"r": [1, 2]}, "empty": [], "nested": [[1], [2, 3]], `, "").Replace(string(data)))
	if err := decodeCached(text, &first); err != nil {
		t.Fatal(err)
	}
	pre := partial{Keep: "kept"}
	if err := decodeCached(text, &pre); err != nil || pre.Name != "n" || pre.Keep != "kept" || len(pre.Items) != 3000 {
		t.Fatalf("decoding into a value: %v %q %q", err, pre.Name, pre.Keep)
	}
}
