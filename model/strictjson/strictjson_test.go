package strictjson

import (
	"encoding/json"
	"reflect"
	"testing"
)

// strictClean (the one-pass look for repeated and unknown keys) finds a
// problem exactly when walkStrict, reading token by token, does: at every
// level, in lists of scalars too, with escaped keys and keys that fold
// alike only beyond ASCII.
func TestStrictCleanIsWalkStrict(t *testing.T) {
	t.Parallel()
	type inner struct {
		Value string  `json:"value"`
		P     float64 `json:"p,omitempty"`
	}
	type doc struct {
		Method string            `json:"method"`
		Params map[string]string `json:"parameters"`
		Items  []inner           `json:"items"`
		Nums   []int             `json:"nums"`
		Any    any               `json:"any"`
		Raw    json.RawMessage   `json:"details"`
		Ptr    *inner            `json:"ptr"`
		Upper  int               `json:"Upper"`
	}
	docs := []string{
		`{}`, `{"method": "kja"}`, ` {"method" : "kja" , "nums" : [ 1 , 2 ] } `,
		`{"method": "kja", "method": "x"}`, `{"method": "kja", "Method": "x"}`, `{"Method": "kja"}`,
		`{"upper": 1}`, `{"Upper": 1}`, `{"Upper": 1, "upper": 2}`,
		`{"parameters": {"k": "2", "K": "3"}}`, `{"parameters": {"k": "2", "k2": "3"}}`,
		`{"parameters": {"a":"","b":"","c":"","d":"","e":"","f":"","g":"","h":"","i":"","j":"","A":""}}`,
		`{"parameters": {"a":"","b":"","c":"","d":"","e":"","f":"","g":"","h":"","i":"","j":"","k":""}}`,
		`{"items": [{"value": "a", "p": 1}, {"value": "b"}]}`, `{"items": [{"value": "a", "value": "b"}]}`,
		`{"items": [{"value": "a", "q": 1}]}`, `{"items": [{"value": "a", "P": 1}]}`,
		`{"nums": [1, {"x": 1, "x": 2}]}`, `{"nums": [1, {"x": 1, "y": 2}]}`,
		`{"any": {"a": {"b": [{"c": 1, "C": 2}]}}}`, `{"any": {"a": {"b": [{"c": 1, "d": 2}]}}}`,
		`{"details": {"boxes": {"k": 1, "K": 2}}}`, `{"details": {"boxes": {"k": 1, "j": 2}}}`,
		`{"ptr": {"value": "a"}}`, `{"ptr": {"value": "a", "valuE": "b"}}`, `{"ptr": null}`,
		`{"meth\u006fd": "kja"}`, `{"method": "kja", "meth\u006fd": "x"}`, `{"\u004dethod": "kja"}`,
		`{"parameters": {"\u017f": "1", "s": "2"}}`, `{"parameters": {"\u212a": "1", "k": "2"}}`,
		`{"parameters": {"é": "1", "É": "2"}}`, `{"parameters": {"é": "1", "e": "2"}}`,
		`{"parameters": {"a\"b": "1", "a\"B": "2"}}`, `{"parameters": {"a\\": "1", "b": "2"}}`,
		`{"method": "a\"}", "nums": []}`, `{"items": [], "any": [[], {}, [{}], "x", true, null, -1.5e3]}`,
	}
	for _, d := range docs {
		if !json.Valid([]byte(d)) {
			t.Fatalf("%s: not JSON", d)
		}
		want := walkStrict([]byte(d), reflect.TypeOf(&doc{}), false) == nil
		if got := strictClean([]byte(d), reflect.TypeOf(&doc{})); got != want {
			t.Errorf("%s: strictClean %v, walkStrict clean %v", d, got, want)
		}
	}
}
