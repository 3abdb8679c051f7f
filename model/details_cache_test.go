package model

import (
	"bytes"
	"encoding/json"
	"fmt"
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
