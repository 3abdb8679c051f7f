package releasedir

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// checkFinite refuses a manifest that states a figure JSON cannot hold
// (NaN or an infinity), naming where: a figure that overflowed stops the
// export with its name, not with encoding/json's "unsupported value".
func checkFinite(m *Manifest) error {
	if where, x, ok := nonFinite(reflect.ValueOf(m), ""); ok {
		return nonFiniteError(where, x)
	}
	return nil
}

func nonFiniteError(where string, x float64) error {
	return fmt.Errorf("the release cannot state %s = %v (not a finite number): a value of the input is too large for the figures (hint: rescale the column, e.g. to thousands)", where, x)
}

// nonFinite finds the first float that is not finite in v, with its path
// (figures by name).
func nonFinite(v reflect.Value, path string) (string, float64, bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", 0, false
		}
		return nonFinite(v.Elem(), path)
	case reflect.Float32, reflect.Float64:
		if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			return path, x, true
		}
	case reflect.Struct:
		if f, ok := v.Interface().(Figure); ok {
			path = strings.TrimSuffix(path, "]")
			path = path[:strings.LastIndex(path, "[")] + fmt.Sprintf(" %q", f.Name)
		}
		for i := 0; i < v.NumField(); i++ {
			tag, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			if tag == "-" || !v.Type().Field(i).IsExported() {
				continue
			}
			if tag == "" {
				tag = v.Type().Field(i).Name
			}
			if w, x, ok := nonFinite(v.Field(i), join(path, tag)); ok {
				return w, x, true
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return "", 0, false // bytes (json.RawMessage: encoded already)
		}
		for i := 0; i < v.Len(); i++ {
			if w, x, ok := nonFinite(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); ok {
				return w, x, true
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if w, x, ok := nonFinite(iter.Value(), join(path, fmt.Sprint(iter.Key().Interface()))); ok {
				return w, x, true
			}
		}
	}
	return "", 0, false
}
