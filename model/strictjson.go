package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// JSONError is a JSON document that does not read one way only: a key
// repeated in an object, a key its reader does not know, or text that is
// not JSON of the expected shape. Line is 1-based (0: not known).
type JSONError struct {
	Line int
	Path string // where in the document ("" for the top level)
	Msg  string
}

func (e *JSONError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// DecodeStrict decodes the JSON document data into v (a pointer) so that
// every JSON reader reads it alike. Go's encoding/json matches keys
// without regard to case and keeps the last of repeated keys, jq and
// Python keep the last exact one: so a key repeated in one object (in any
// case) is an error, and so is a key that no field of a struct in v's
// type names exactly. Objects read into maps or interface values are
// checked for repeated keys only.
func DecodeStrict(data []byte, v any) error {
	w := &strictWalker{dec: json.NewDecoder(bytes.NewReader(data)), data: data}
	w.dec.UseNumber()
	if err := w.value(reflect.TypeOf(v), ""); err != nil {
		return err
	}
	if _, err := w.dec.Token(); err == nil {
		return &JSONError{Line: w.line(w.dec.InputOffset()), Msg: "more text after the JSON document"}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return w.unmarshalError(err)
	}
	return nil
}

type strictWalker struct {
	dec  *json.Decoder
	data []byte
}

// line is the 1-based line of a byte offset.
func (w *strictWalker) line(off int64) int {
	if off > int64(len(w.data)) {
		off = int64(len(w.data))
	}
	return bytes.Count(w.data[:off], []byte{'\n'}) + 1
}

func (w *strictWalker) syntax(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &JSONError{Line: w.line(se.Offset), Msg: "not valid JSON: " + se.Error()}
	}
	return &JSONError{Line: w.line(w.dec.InputOffset()), Msg: "not valid JSON: " + err.Error()}
}

func (w *strictWalker) unmarshalError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &JSONError{Line: w.line(te.Offset), Path: te.Field, Msg: fmt.Sprintf("a JSON %s where %s is expected", te.Value, te.Type)}
	}
	return w.syntax(err)
}

// value reads one JSON value whose Go type is t (nil: any).
func (w *strictWalker) value(t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return w.syntax(err)
	}
	switch tok {
	case json.Delim('{'):
		return w.object(t, path)
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.value(elem, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		if err != nil {
			return w.syntax(err)
		}
	}
	return nil
}

// object reads the members of an object (its '{' read) of Go type t.
func (w *strictWalker) object(t reflect.Type, path string) error {
	var fields map[string]reflect.Type
	var elem reflect.Type
	if t != nil && t.Kind() == reflect.Struct {
		fields = jsonFields(t)
	} else if t != nil && t.Kind() == reflect.Map {
		elem = t.Elem()
	}
	seen := map[string]string{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return w.syntax(err)
		}
		key, _ := tok.(string)
		// The key's line is counted only for an error: counting it for
		// every key made a document of many keys (a manifest with 20,000
		// marginals) quadratic to read.
		at := w.dec.InputOffset()
		fold := strings.ToLower(strings.ToUpper(key))
		if prev, dup := seen[fold]; dup {
			how := "twice"
			if prev != key {
				how = fmt.Sprintf("again as %q (encoding/json reads keys without regard to case, jq and Python do not)", prev)
			}
			return &JSONError{Line: w.line(at), Path: path, Msg: fmt.Sprintf("key %q is given %s; a key may appear once", key, how)}
		}
		seen[fold] = key
		child := elem
		if fields != nil {
			ft, ok := fields[key]
			if !ok {
				return &JSONError{Line: w.line(at), Path: path, Msg: unknownKey(key, fields)}
			}
			child = ft
		}
		if err := w.value(child, join(path, key)); err != nil {
			return err
		}
	}
	if _, err := w.dec.Token(); err != nil {
		return w.syntax(err)
	}
	return nil
}

// unknownKey says that key is not one of fields (naming the one it
// matches in another case, if any).
func unknownKey(key string, fields map[string]reflect.Type) string {
	names := make([]string, 0, len(fields))
	for n := range fields {
		if strings.EqualFold(n, key) {
			return fmt.Sprintf("unknown key %q (the key is %q: keys are matched exactly)", key, n)
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return fmt.Sprintf("unknown key %q (known keys: %s)", key, strings.Join(names, ", "))
}

// jsonFields maps the JSON names of a struct's fields (as encoding/json
// names them; embedded structs' fields included) to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for n, typ := range jsonFields(ft) {
					out[n] = typ
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}
