package attack

import (
	"fmt"
	"strings"

	"privlab/model"
	"privlab/model/csvfile"
)

// The hints of a marginals file's rows (sampling's --marginals reads the
// same form and gives the same).
const (
	probabilityHint = "a probability is a number from 0 to 1, e.g. 0.25"
	onceHint        = "list each value of an attribute once"
)

// ReadMarginals reads public marginals from a CSV attribute,value,
// probability (the form sampling's --marginals takes): per attribute, each
// value's probability.
func ReadMarginals(path string) (map[string]map[string]float64, error) {
	t, err := csvfile.LoadFile(path, csvfile.LoadOptions{MissingTokens: []string{}})
	if err != nil {
		return nil, err
	}
	want := []string{"attribute", "value", "probability"}
	if strings.Join(t.Names(), ",") != strings.Join(want, ",") {
		return nil, &model.InputError{File: path, Line: 1, Msg: "expected the header attribute,value,probability, got " + strings.Join(t.Names(), ","),
			Hint: "one row per value: attribute,value,probability"}
	}
	out := map[string]map[string]float64{}
	for row := 0; row < t.Rows; row++ {
		a, v, ps := t.Columns[0].Value(row), t.Columns[1].Value(row), t.Columns[2].Value(row)
		p, ok := model.ParseNumber(ps)
		if !ok || p < 0 || p > 1 {
			return nil, &model.InputError{File: path, Line: row + 2, Column: 3, Msg: fmt.Sprintf("probability %q is not a number in [0,1]", ps),
				Hint: probabilityHint}
		}
		if out[a] == nil {
			out[a] = map[string]float64{}
		}
		if _, dup := out[a][v]; dup {
			return nil, &model.InputError{File: path, Line: row + 2, Msg: fmt.Sprintf("%s = %s is given twice", a, v),
				Hint: onceHint}
		}
		out[a][v] = p
	}
	return out, nil
}
