package method

import (
	"strconv"

	"privlab/model"
)

// GroupSizes are the group sizes an advisor grid steps through, from
// weak to strong privacy (privlab advise): those a table of rows rows
// can hold (every group at least k records).
func GroupSizes(rows int) []int {
	var out []int
	for _, k := range []int{2, 5, 10, 20, 50, 100, 200, 500} {
		if k <= rows {
			out = append(out, k)
		}
	}
	return out
}

// GroupSizeGrid is a grid over the group sizes of GroupSizes, each point
// the variant with values and k (param) set to the size, spelled by
// spell.
func GroupSizeGrid(rows int, variant string, values model.Values, param string, spell func(k int) string) []GridPoint {
	if spell == nil {
		spell = strconv.Itoa
	}
	var out []GridPoint
	for _, k := range GroupSizes(rows) {
		v := model.Values{param: spell(k)}
		for name, x := range values {
			v[name] = x
		}
		out = append(out, GridPoint{Variant: variant, Values: v})
	}
	return out
}
