package strictjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// strictClean reports whether data, a valid JSON document (json.Valid),
// has no key walkStrict would reject for type t: no key repeated in any
// object (in any case) and no key a struct of t does not name exactly. It
// reads the bytes once without a token per value (walkStrict's
// json.Decoder allocated one per key and number, which dominated reading
// a manifest of many marginals). It looks at every object, lists of scalars too, so
// it finds whatever walkStrict finds; false only sends the document to
// walkStrict, which says what is wrong and where, as it always has.
func strictClean(data []byte, t reflect.Type) bool {
	s := &fastScan{data: data}
	s.space()
	return s.value(t) && s.i == len(s.data)
}

// fastScan walks a valid JSON document; a method returns false on
// anything it does not read plainly (the caller then asks walkStrict).
type fastScan struct {
	data []byte
	i    int
}

func (s *fastScan) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value reads one value of Go type t (nil: any) and the space after it.
func (s *fastScan) value(t reflect.Type) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s.i >= len(s.data) {
		return false
	}
	switch s.data[s.i] {
	case '{':
		s.i++
		s.space()
		if !s.object(t) {
			return false
		}
	case '[':
		s.i++
		s.space()
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		if !s.list(elem) {
			return false
		}
	case '"':
		if _, _, ok := s.str(); !ok {
			return false
		}
	default:
		s.scalar()
	}
	s.space()
	return true
}

// scalar reads a number, true, false or null.
func (s *fastScan) scalar() {
	for ; s.i < len(s.data); s.i++ {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r', ',', ']', '}':
			return
		}
	}
}

// list reads a list's values (its '[' read) and its ']'.
func (s *fastScan) list(elem reflect.Type) bool {
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return true
	}
	for s.i < len(s.data) {
		if !s.value(elem) {
			return false
		}
		if s.i >= len(s.data) {
			return false
		}
		c := s.data[s.i]
		s.i++
		if c == ']' {
			return true
		}
		s.space()
	}
	return false
}

// str reads a string; raw is its text between the quotes and escaped
// says whether it holds a backslash.
func (s *fastScan) str() (raw []byte, escaped, ok bool) {
	start := s.i + 1
	for j := start; j < len(s.data); j++ {
		switch s.data[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			s.i = j + 1
			return s.data[start:j], escaped, true
		}
	}
	return nil, false, false
}

// object reads an object's members (its '{' read) and its '}'.
func (s *fastScan) object(t reflect.Type) bool {
	var info *structInfo
	var elem reflect.Type
	if t != nil && t.Kind() == reflect.Struct {
		info = structInfoOf(t)
	} else if t != nil && t.Kind() == reflect.Map {
		elem = t.Elem()
	}
	var keys foldSet
	var seen fieldSet
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return true
	}
	for s.i < len(s.data) && s.data[s.i] == '"' {
		raw, escaped, ok := s.str()
		if !ok {
			return false
		}
		key := raw
		if escaped {
			var k string
			if json.Unmarshal(s.data[s.i-len(raw)-2:s.i], &k) != nil {
				return false
			}
			key = []byte(k)
		}
		child := elem
		if info != nil {
			f, ok := info.fields[string(key)]
			if !ok || !seen.add(f.class) {
				return false
			}
			child = f.typ
		} else if !keys.add(key) {
			return false
		}
		s.space()
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return false
		}
		s.i++
		s.space()
		if !s.value(child) || s.i >= len(s.data) {
			return false
		}
		c := s.data[s.i]
		s.i++
		if c == '}' {
			return true
		}
		s.space()
	}
	return false
}

// fieldSet holds the fold classes of a struct's keys read so far.
type fieldSet struct {
	low  uint64
	high map[int]bool
}

// add adds class; false when it is there already.
func (f *fieldSet) add(class int) bool {
	if class < 64 {
		if f.low&(1<<class) != 0 {
			return false
		}
		f.low |= 1 << class
		return true
	}
	if f.high[class] {
		return false
	}
	if f.high == nil {
		f.high = map[int]bool{}
	}
	f.high[class] = true
	return true
}

// foldSet holds an object's keys as walkStrict compares them (upper then
// lower case): a short list while few, a map beyond.
type foldSet struct {
	few  [8][]byte
	n    int
	many map[string]struct{}
}

// add adds key's fold; false when it is there already.
func (f *foldSet) add(key []byte) bool {
	fold := foldKey(key)
	if f.many != nil {
		if _, dup := f.many[string(fold)]; dup {
			return false
		}
		f.many[string(fold)] = struct{}{}
		return true
	}
	for _, k := range f.few[:f.n] {
		if bytes.Equal(k, fold) {
			return false
		}
	}
	if f.n < len(f.few) {
		f.few[f.n] = fold
		f.n++
		return true
	}
	f.many = make(map[string]struct{}, 2*len(f.few))
	for _, k := range f.few {
		f.many[string(k)] = struct{}{}
	}
	f.many[string(fold)] = struct{}{}
	return true
}

// foldKey is strings.ToLower(strings.ToUpper(key)); key itself when it
// is ASCII without capitals.
func foldKey(key []byte) []byte {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return []byte(foldString(string(key)))
		}
	}
	var b []byte
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			if b == nil {
				b = append([]byte(nil), key...)
			}
			b[i] = c + 'a' - 'A'
		}
	}
	if b == nil {
		return key
	}
	return b
}

// foldString is how walkStrict compares keys.
func foldString(key string) string { return strings.ToLower(strings.ToUpper(key)) }

// structInfo is a struct type's JSON fields (jsonFields), computed once
// per type: each field's type and fold class (fields whose names fold
// alike share one).
type structInfo struct {
	fields map[string]fieldInfo
}

type fieldInfo struct {
	typ   reflect.Type
	class int
}

func newStructInfo(t reflect.Type) *structInfo {
	info := &structInfo{fields: map[string]fieldInfo{}}
	classes := map[string]int{}
	for name, typ := range jsonFields(t) {
		fold := foldString(name)
		c, ok := classes[fold]
		if !ok {
			c = len(classes)
			classes[fold] = c
		}
		info.fields[name] = fieldInfo{typ: typ, class: c}
	}
	return info
}

var structInfos sync.Map // reflect.Type -> *structInfo

func structInfoOf(t reflect.Type) *structInfo {
	if v, ok := structInfos.Load(t); ok {
		return v.(*structInfo)
	}
	v, _ := structInfos.LoadOrStore(t, newStructInfo(t))
	return v.(*structInfo)
}
