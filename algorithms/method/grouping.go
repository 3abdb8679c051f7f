package method

import (
	"fmt"
	"strings"

	"privlab/model"
)

// GroupingAlgorithm is a grouping parameter's value that lets the
// method's own algorithm form the groups; column:NAME gives them instead
// (the records sharing NAME's value form one group), as a paper's worked
// example fixes its grouping (Wang's Figure 2, Sacharidis et al.'s
// Figure 2).
const GroupingAlgorithm = "algorithm"

// ParseColumnGrouping reads a grouping parameter: the column it names,
// "" for the method's own algorithm.
func ParseColumnGrouping(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == GroupingAlgorithm {
		return "", nil
	}
	if col, ok := strings.CutPrefix(s, "column:"); ok && strings.TrimSpace(col) != "" {
		return strings.TrimSpace(col), nil
	}
	return "", fmt.Errorf("must be algorithm or column:NAME")
}

// GroupsByColumn groups the rows that share col's value, groups and
// their rows in order of first appearance; a row for which leave is true
// (nil: none) is in no group.
func GroupsByColumn(col *model.Column, leave func(row int) bool) [][]int32 {
	at := map[uint32]int{}
	var groups [][]int32
	for row, code := range col.Codes {
		if leave != nil && leave(row) {
			continue
		}
		g, ok := at[code]
		if !ok {
			g = len(groups)
			at[code] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], int32(row))
	}
	return groups
}
