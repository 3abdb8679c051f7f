package releasedir

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sync"

	"privlab/model/strictjson"
)

// A release's manifest and its details are read several times by one
// command: an export's two checks, its audit record; a check, the
// workload it answers again and the method's answerer reading the files.
// On a wide table they are large (a sampling manifest holds a marginal
// per sensitive value), and reading one strictly each time shows.
// decodeCached keeps the last few documents read with what they decoded
// to: the same bytes read into the same type decode to the same value,
// so a document read again is handed a deep copy of that value (the
// caller owns it, as if decoded), without decoding.

// cachedMin is the smallest document kept (a small one decodes fast).
const cachedMin = 32 << 10

// cachedMax bounds a kept document's size, cachedEntries their number.
const (
	cachedMax     = 32 << 20
	cachedEntries = 4
)

type decodedDoc struct {
	typ  reflect.Type
	data []byte
	val  reflect.Value // the decoded value (not the pointer), never handed out
}

var decodeCache struct {
	sync.Mutex
	docs []*decodedDoc // the most recent first
}

// decodeCached is strictjson.Decode(data, v) for v a pointer to a zero value,
// through the cache of documents read last.
func decodeCached(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if len(data) < cachedMin || len(data) > cachedMax || rv.Kind() != reflect.Pointer || rv.IsNil() || !rv.Elem().IsZero() {
		return strictjson.Decode(data, v)
	}
	t := rv.Type()
	if d := cachedDoc(t, data); d != nil {
		rv.Elem().Set(deepCopy(d.val))
		return nil
	}
	if err := strictjson.Decode(data, v); err != nil {
		return err
	}
	d := &decodedDoc{typ: t, data: bytes.Clone(data), val: deepCopy(rv.Elem())}
	decodeCache.Lock()
	decodeCache.docs = append([]*decodedDoc{d}, decodeCache.docs...)
	if len(decodeCache.docs) > cachedEntries {
		decodeCache.docs = decodeCache.docs[:cachedEntries]
	}
	decodeCache.Unlock()
	return nil
}

// cachedDoc finds the document data read into type t (nil: not kept).
func cachedDoc(t reflect.Type, data []byte) *decodedDoc {
	decodeCache.Lock()
	defer decodeCache.Unlock()
	for _, d := range decodeCache.docs {
		if d.typ == t && bytes.Equal(d.data, data) {
			return d
		}
	}
	return nil
}

// deepCopy copies a decoded value: nothing the copy holds (pointer,
// slice, map, interface) is shared with v, but texts (immutable).
func deepCopy(v reflect.Value) reflect.Value {
	t := v.Type()
	out := reflect.New(t).Elem()
	if flat(t) {
		out.Set(v)
		return out
	}
	switch t.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			p := reflect.New(t.Elem())
			p.Elem().Set(deepCopy(v.Elem()))
			out.Set(p)
		}
	case reflect.Interface:
		if !v.IsNil() {
			out.Set(deepCopy(v.Elem()))
		}
	case reflect.Slice:
		if !v.IsNil() {
			s := reflect.MakeSlice(t, v.Len(), v.Len())
			if flat(t.Elem()) {
				reflect.Copy(s, v)
			} else {
				for i := 0; i < v.Len(); i++ {
					s.Index(i).Set(deepCopy(v.Index(i)))
				}
			}
			out.Set(s)
		}
	case reflect.Map:
		if !v.IsNil() {
			m := reflect.MakeMapWithSize(t, v.Len())
			it := v.MapRange()
			for it.Next() {
				m.SetMapIndex(deepCopy(it.Key()), deepCopy(it.Value()))
			}
			out.Set(m)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			out.Index(i).Set(deepCopy(v.Index(i)))
		}
	case reflect.Struct:
		out.Set(v)
		for i := 0; i < t.NumField(); i++ {
			if f := out.Field(i); f.CanSet() && !flat(t.Field(i).Type) {
				f.Set(deepCopy(v.Field(i)))
			}
		}
	default: // a func or channel: JSON decodes none
		out.Set(v)
	}
	return out
}

var flatTypes sync.Map // reflect.Type -> bool

// flat reports whether a value of type t holds no reference a copy
// would share (booleans, numbers, texts, and arrays and structs of them).
func flat(t reflect.Type) bool {
	if f, ok := flatTypes.Load(t); ok {
		return f.(bool)
	}
	f := false
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		f = true
	case reflect.Array:
		f = flat(t.Elem())
	case reflect.Struct:
		f = true
		for i := 0; i < t.NumField() && f; i++ {
			f = flat(t.Field(i).Type)
		}
	}
	flatTypes.Store(t, f)
	return f
}

// genericDetails is a manifest's details decoded as json.Unmarshal into
// an any does, the last document over cachedMin kept: report.md's
// rendering (RenderReport) and the manifest's digest (ManifestDigest)
// both read the same details of an export (large on a wide table),
// decoded once (in compact form: white space apart, the same document).
// The value is shared: its readers only read it.
var genericDetails struct {
	sync.Mutex
	raw []byte
	val any
}

func decodeDetails(raw []byte) (any, error) {
	if len(raw) < cachedMin || len(raw) > cachedMax {
		var v any
		err := json.Unmarshal(raw, &v)
		return v, err
	}
	// The details as the file lays them out and as json.Marshal writes
	// them back (RenderReport reads the manifest through JSON) differ in
	// white space only: the document is known by its compact form.
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		var v any
		err := json.Unmarshal(raw, &v)
		return v, err
	}
	genericDetails.Lock()
	defer genericDetails.Unlock()
	if genericDetails.raw != nil && bytes.Equal(genericDetails.raw, compact.Bytes()) {
		return genericDetails.val, nil
	}
	var v any
	if err := json.Unmarshal(compact.Bytes(), &v); err != nil {
		return nil, err
	}
	genericDetails.raw, genericDetails.val = compact.Bytes(), v
	return v, nil
}
