package releasedir

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"privlab/model/strictjson"
)

// decodeAudit reads an audit record the way strictjson.Decode does, with a
// fast path for its row map (millions of numbers): the row map is parsed
// by hand and the rest of the record by strictjson.Decode. Anything the fast
// path does not read plainly (an escape in a key, a number that is not a
// plain integer, a key given twice, a row map not at the top level) is
// left to strictjson.Decode on the whole record, which reads it, or says
// where it fails, as it always has.
func decodeAudit(data []byte, a *Audit) error {
	if rows, rest, ok := splitRowMap(data); ok {
		var b Audit
		if strictjson.Decode(rest, &b) == nil {
			b.RowMap = rows
			*a = b
			return nil
		}
	}
	return strictjson.Decode(data, a)
}

// splitRowMap finds the top-level "row_map" member of an audit record
// and parses its value: it returns the row map and the record with the
// value replaced by {} (ok false when the fast path does not apply).
func splitRowMap(data []byte) (map[string][]int, []byte, bool) {
	key := bytes.Index(data, []byte(`"row_map"`))
	if key < 0 || !topLevelAt(data[:key]) {
		return nil, nil, false
	}
	i := skipSpace(data, key+len(`"row_map"`))
	if i >= len(data) || data[i] != ':' {
		return nil, nil, false
	}
	start := skipSpace(data, i+1)
	p := &rowMapParser{data: data, i: start}
	rows, ok := p.object()
	if !ok {
		return nil, nil, false
	}
	rest := make([]byte, 0, start+2+len(data)-p.i)
	rest = append(append(append(rest, data[:start]...), "{}"...), data[p.i:]...)
	return rows, rest, true
}

// topLevelAt reports whether the text after prefix is a key of the
// document's top-level object: prefix opens exactly one object, and
// every string in it is closed.
func topLevelAt(prefix []byte) bool {
	depth, in := 0, false
	for i := 0; i < len(prefix); i++ {
		c := prefix[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case in:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return depth == 1 && !in
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	return i
}

// rowMapParser reads {"name": [int, ...], ...} from data at i.
type rowMapParser struct {
	data []byte
	i    int
}

func (p *rowMapParser) object() (map[string][]int, bool) {
	d := p.data
	if p.i >= len(d) || d[p.i] != '{' {
		return nil, false
	}
	rows := map[string][]int{}
	seen := map[string]bool{}
	p.i = skipSpace(d, p.i+1)
	if p.i < len(d) && d[p.i] == '}' {
		p.i++
		return rows, true
	}
	for {
		name, ok := p.key()
		if !ok {
			return nil, false
		}
		fold := strings.ToLower(strings.ToUpper(name))
		if seen[fold] {
			return nil, false
		}
		seen[fold] = true
		if rows[name], ok = p.list(); !ok {
			return nil, false
		}
		p.i = skipSpace(d, p.i)
		if p.i >= len(d) {
			return nil, false
		}
		switch d[p.i] {
		case ',':
			p.i = skipSpace(d, p.i+1)
		case '}':
			p.i++
			return rows, true
		default:
			return nil, false
		}
	}
}

// key reads "name": (a name without escapes or control characters).
func (p *rowMapParser) key() (string, bool) {
	d := p.data
	if p.i >= len(d) || d[p.i] != '"' {
		return "", false
	}
	end := bytes.IndexByte(d[p.i+1:], '"')
	if end < 0 {
		return "", false
	}
	name := d[p.i+1 : p.i+1+end]
	for _, c := range name {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return "", false
		}
	}
	p.i = skipSpace(d, p.i+end+2)
	if p.i >= len(d) || d[p.i] != ':' {
		return "", false
	}
	p.i = skipSpace(d, p.i+1)
	return string(name), true
}

// list reads [int, ...] of plain integers (-?(0|[1-9][0-9]*), at most 18
// digits).
func (p *rowMapParser) list() ([]int, bool) {
	d := p.data
	if p.i >= len(d) || d[p.i] != '[' {
		return nil, false
	}
	p.i = skipSpace(d, p.i+1)
	out := make([]int, 0, 16)
	if p.i < len(d) && d[p.i] == ']' {
		p.i++
		return out, true
	}
	for {
		v, ok := p.integer()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		p.i = skipSpace(d, p.i)
		if p.i >= len(d) {
			return nil, false
		}
		switch d[p.i] {
		case ',':
			p.i = skipSpace(d, p.i+1)
		case ']':
			p.i++
			return out, true
		default:
			return nil, false
		}
	}
}

func (p *rowMapParser) integer() (int, bool) {
	d := p.data
	neg := p.i < len(d) && d[p.i] == '-'
	if neg {
		p.i++
	}
	start := p.i
	v := 0
	for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
		v = v*10 + int(d[p.i]-'0')
		p.i++
	}
	n := p.i - start
	if n == 0 || n > 18 || n > 1 && d[start] == '0' {
		return 0, false
	}
	if p.i < len(d) && (d[p.i] == '.' || d[p.i] == 'e' || d[p.i] == 'E') {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// marshalAudit is json.MarshalIndent(a, "", "  "), with the row map
// (millions of numbers) written by hand: the rest of the record is
// marshalled without it and the row map put in its place, after
// "release", byte for byte as encoding/json writes it.
func marshalAudit(a *Audit) ([]byte, error) {
	if len(a.RowMap) == 0 {
		return json.MarshalIndent(a, "", "  ")
	}
	rest := *a
	rest.RowMap = nil
	head, err := json.MarshalIndent(&rest, "", "  ")
	if err != nil {
		return nil, err
	}
	at := bytes.Index(head, []byte("\n  \"release\": "))
	if at < 0 {
		return json.MarshalIndent(a, "", "  ")
	}
	end := at + 1 + bytes.IndexByte(head[at+1:], '\n')
	if head[end-1] == ',' {
		end--
	}
	names := make([]string, 0, len(a.RowMap))
	size := 0
	for name, rows := range a.RowMap {
		names = append(names, name)
		size += 16 * len(rows)
	}
	sort.Strings(names)
	out := make([]byte, 0, len(head)+size+64)
	out = append(append(out, head[:end]...), ",\n  \"row_map\": {"...)
	for i, name := range names {
		key, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(append(out, "\n    "...), key...), ": "...)
		out = appendRows(out, a.RowMap[name])
	}
	out = append(out, "\n  }"...)
	return append(out, head[end:]...), nil
}

// appendRows appends a list of numbers as json.MarshalIndent writes it
// at the row map's depth.
func appendRows(out []byte, rows []int) []byte {
	if rows == nil {
		return append(out, "null"...)
	}
	if len(rows) == 0 {
		return append(out, "[]"...)
	}
	out = append(out, '[')
	for i, r := range rows {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendInt(append(out, "\n      "...), int64(r), 10)
	}
	return append(out, "\n    ]"...)
}
