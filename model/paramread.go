package model

// IntParam, BoundParam and TextParam name a declared parameter by its
// kind: a method declares each of its parameters once as one of these
// (beside its ParamSpec) and every read goes through it, so renaming a
// parameter is one edit the compiler follows rather than strings that
// compile and then read nothing.
type (
	IntParam   string
	BoundParam string
	TextParam  string
)

// Of is the parameter's value in v (0 when unset).
func (p IntParam) Of(v Values) int { return v.Int(string(p)) }

// Text is the parameter's value in v as written ("" when unset).
func (p IntParam) Text(v Values) string { return v[string(p)] }

// Name is the parameter's name (also its flag and manifest key).
func (p BoundParam) Name() string { return string(p) }

// Of is the parameter's value in v as an exact bound (see Values.Bound).
func (p BoundParam) Of(v Values) Bound { return v.Bound(string(p)) }

// Float is the parameter's value in v as a float64 (0 when unset).
func (p BoundParam) Float(v Values) float64 { return v.Float(string(p)) }

// Text is the parameter's value in v as written ("" when unset).
func (p BoundParam) Text(v Values) string { return v[string(p)] }

// Name is the parameter's name (also its flag and manifest key).
func (p TextParam) Name() string { return string(p) }

// Of is the parameter's value in v ("" when unset).
func (p TextParam) Of(v Values) string { return v[string(p)] }

// Lookup is the parameter's value in v and whether v sets it.
func (p TextParam) Lookup(v Values) (string, bool) {
	s, ok := v[string(p)]
	return s, ok
}
