package method

import "privlab/model"

// GroupSizeParam is the name of the group size k (SPEC 2.5): the
// parameter of the methods that have one, and the comparable setting a
// comparison or a sweep gives every method (Spec.Compare).
const GroupSizeParam = "k"

// groupSizeWhy is why k has the range it has, whichever paper a method
// takes it from.
const groupSizeWhy = "a group must hold at least two records to hide anyone and cannot exceed the table"

// GroupSize declares a method's group size k: a whole number from 2 to
// the table's rows. Every k privlab reads (a method's, the comparison's,
// a sweep's) is this declaration, so it is validated in one place
// (model.ParamSpec.Validate) with one message; cite names the paper and
// definition the method takes k from ("" for none).
func GroupSize(def, help, cite string) model.ParamSpec {
	why := groupSizeWhy
	if cite != "" {
		why += " (" + cite + ")"
	}
	return model.ParamSpec{Name: GroupSizeParam, Kind: model.ParamInt, Min: 2, MaxRows: true, Default: def, Step: 1, Header: true,
		Common: true, Help: help, Why: why}
}

// ComparableGroupSize is the k that privlab eval --compare, the Compare
// pane and a sweep of k give each method as its comparable settings.
var ComparableGroupSize = GroupSize("10", "group size: the method's comparable settings for k (as the Compare pane uses them)", "")

// ParseGroupSize reads a comparable group size k for a table of rows
// rows (0: not known), refusing it as every k is refused.
func ParseGroupSize(v string, rows int) (int, error) {
	if err := ComparableGroupSize.Validate(v, rows); err != nil {
		return 0, err
	}
	return model.Values{GroupSizeParam: v}.Int(GroupSizeParam), nil
}
