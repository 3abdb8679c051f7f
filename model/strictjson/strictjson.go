package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Error is a JSON document that does not read one way only: a key
// repeated in an object, a key its reader does not know, or text that is
// not JSON of the expected shape. Line is 1-based (0: not known).
type Error struct {
	Line int
	Path string // where in the document ("" for the top level)
	Msg  string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Decode decodes the JSON document data into v (a pointer) so that
// every JSON reader reads it alike. Go's encoding/json matches keys
// without regard to case and keeps the last of repeated keys, jq and
// Python keep the last exact one: so a key repeated in one object (in any
// case) is an error, and so is a key that no field of a struct in v's
// type names exactly. Objects read into maps or interface values are
// checked for repeated keys only. A document nested deeper than
// MaxDepth is refused before it is read. On an error v may hold part
// of the document.
func Decode(data []byte, v any) error {
	if err := checkDepth(data); err != nil {
		return err
	}
	// encoding/json checks the document's syntax before it reads into v:
	// once it has read it, strictClean looks for repeated and unknown keys
	// in one pass. Any problem is left to walkStrict, which names it and
	// its line as before (a key's problem before a type's).
	uerr := json.Unmarshal(data, v)
	if uerr == nil && strictClean(data, reflect.TypeOf(v)) {
		return nil
	}
	if err := walkStrict(data, reflect.TypeOf(v), true); err != nil {
		return err
	}
	if uerr != nil {
		w := &strictWalker{data: data}
		return w.unmarshalError(uerr)
	}
	return nil
}

// MaxDepth is the deepest nesting of objects and lists that a JSON
// document privlab reads strictly may have: a manifest nests 6 deep, an
// audit record 4.
const MaxDepth = 64

// checkDepth refuses a document nested deeper than MaxDepth, naming
// the line of the first object or list too deep. It runs before anything
// decodes the document: the readers recurse once per level and keep the
// path to each level, so a deep document of a few kilobytes would cost
// them memory growing with the square of its depth.
func checkDepth(data []byte) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			if depth++; depth > MaxDepth {
				return &Error{Line: bytes.Count(data[:i], []byte{'\n'}) + 1,
					Msg: fmt.Sprintf("objects and lists nested more than %d deep; privlab writes no JSON file nested so deep", MaxDepth)}
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

// walkStrict checks data for repeated and unknown keys. With skipLists a
// list of scalars is read whole (a row map of millions of numbers in one
// step); a problem found so is looked for again token by token, which
// names its line exactly.
func walkStrict(data []byte, t reflect.Type, skipLists bool) error {
	w := &strictWalker{dec: json.NewDecoder(bytes.NewReader(data)), data: data, skipLists: skipLists}
	w.dec.UseNumber()
	err := w.value(t, "")
	if err == nil {
		if _, terr := w.dec.Token(); terr == nil {
			err = &Error{Line: w.line(w.dec.InputOffset()), Msg: "more text after the JSON document"}
		}
	}
	if err != nil && w.skipped {
		return walkStrict(data, t, false)
	}
	return err
}

type strictWalker struct {
	dec  *json.Decoder
	data []byte
	// skipLists reads a list of scalars whole; skipped says one was.
	skipLists, skipped bool
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
		return &Error{Line: w.line(se.Offset), Msg: "not valid JSON: " + se.Error()}
	}
	return &Error{Line: w.line(w.dec.InputOffset()), Msg: "not valid JSON: " + err.Error()}
}

func (w *strictWalker) unmarshalError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &Error{Line: w.line(te.Offset), Path: te.Field, Msg: fmt.Sprintf("a JSON %s where %s is expected", te.Value, te.Type)}
	}
	return w.syntax(err)
}

// value reads one JSON value whose Go type is t (nil: any).
func (w *strictWalker) value(t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if w.skipLists && scalarList(t) {
		w.skipped = true
		// No key can hide in a list of numbers or texts (any object in it
		// fails the decoding that follows): it is skipped whole, which
		// reads an audit record's row map of millions of rows in one step
		// instead of a token per row.
		var raw json.RawMessage
		if err := w.dec.Decode(&raw); err != nil {
			return w.syntax(err)
		}
		return nil
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

// scalarList reports whether t is a list of booleans, numbers or texts
// (not bytes: json.RawMessage holds any JSON, objects included).
func scalarList(t reflect.Type) bool {
	if t == nil || t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
		return false
	}
	switch t.Elem().Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
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
			return &Error{Line: w.line(at), Path: path, Msg: fmt.Sprintf("key %q is given %s; a key may appear once", key, how)}
		}
		seen[fold] = key
		child := elem
		if fields != nil {
			ft, ok := fields[key]
			if !ok {
				return &Error{Line: w.line(at), Path: path, Msg: unknownKey(key, fields)}
			}
			child = ft
		}
		if err := w.value(child, keyPath(path, key)); err != nil {
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

// keyPath is the path of key inside the object at prefix, as errors name
// it (parameters.k).
func keyPath(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}
