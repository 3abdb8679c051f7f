package check

import (
	"privlab/algorithms/ambiguity/format"
	"privlab/algorithms/verify"
	"privlab/model"
)

// AcrossGroupsIn is acrossGroups on the release in dir and the original,
// looked up in blocks of block groups.
func AcrossGroupsIn(dir string, orig *model.Table, block int) (many int, combined float64, err error) {
	rel, err := verify.Open(dir)
	if err != nil {
		return 0, 0, err
	}
	c := &ctx{rel: rel, m: rel.Manifest, opt: verify.Options{Original: orig}, man: dir + "/manifest.json"}
	if c.det, err = format.Read(c.m); err != nil {
		return 0, 0, err
	}
	for _, gate := range []func(*ctx, *verify.Report) error{parameters, auxiliaryTables, readTables} {
		if err := gate(c, &verify.Report{}); err != nil {
			return 0, 0, err
		}
	}
	o, err := c.originalRows()
	if err != nil {
		return 0, 0, err
	}
	many, combined = acrossGroupsBy(c.rl, o, c.figuresOf().pres, block)
	return many, combined, nil
}
