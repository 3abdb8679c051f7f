package kja

import (
	"context"
	"fmt"
	"strings"

	"privlab/algorithms/kja/format"
	"privlab/algorithms/method"
	"privlab/model"
)

// The first-round grouping: the k-anonymous grouping of MT that the
// baselines publish and Refinement refines (Sacharidis et al., Section
// 4). By default the variant's algorithm (Mondrian or TopDown) forms it;
// column:NAME takes it from a column of MT instead, records sharing the
// column's value forming one group. Section 3.2 builds a JAT from any
// k-anonymous AT, and the paper's own AT (Figure 2) is given, not
// computed: its boxes overlap and no Mondrian cut gives them.
const (
	paramGrouping = string(format.ParamGrouping)
	// GroupingAlgorithm forms the first round with the variant's algorithm.
	GroupingAlgorithm = method.GroupingAlgorithm
)

var groupingParam = model.ParamSpec{Name: paramGrouping, Kind: model.ParamText, Default: GroupingAlgorithm,
	Help:    "the k-anonymous grouping of MT the baselines publish and Refinement refines: the variant's algorithm, or column:NAME (a given grouping)",
	Why:     "Refinement refines any k-anonymous table AT of MT (Sacharidis et al., Sections 3.2 and 4); Figure 2's AT is given, not computed",
	Allowed: "algorithm or column:NAME (a column of the table; each of its values a group of at least k records)",
	Check:   func(s string) error { _, err := method.ParseColumnGrouping(s); return err },
	Presets: func(model.Roles) []string { return []string{GroupingAlgorithm} },
	Explain: "algorithm: Mondrian or TopDown groups MT (the variant's). column:NAME: the records that share NAME's value form one group, " +
		"e.g. a k-anonymous table published before; the plain variants publish its boxes, Refinement splits them with the public tuples. " +
		"Direct has no first round and takes no grouping."}

// givenGroups reads the first-round groups a column names (nil for the
// variant's algorithm): the MT rows sharing a value, in order of first
// appearance. Every group must hold at least k records (k-anonymity).
func givenGroups(in *method.Input, value string, cfg config) ([][]int32, error) {
	name, err := method.ParseColumnGrouping(value)
	if err != nil || name == "" {
		return nil, err
	}
	bad := func(reason, hint string) error {
		return &model.ParamError{Param: paramGrouping, Value: value, Reason: reason, Hint: hint}
	}
	if cfg.method == directKA {
		return nil, bad("variant "+cfg.variant+" anonymizes all of JT at once: it has no first-round grouping to take",
			"use grouping=algorithm, or a plain or Refinement variant")
	}
	c := in.Table.Column(name)
	if c == nil {
		return nil, bad("no such column", "columns are: "+strings.Join(in.Table.Names(), ", "))
	}
	for r, code := range c.Codes {
		if code == model.Missing {
			return nil, bad(fmt.Sprintf("row %d has no value in %s", r+1, name), "every record needs a group")
		}
	}
	groups := method.GroupsByColumn(c, nil)
	for _, g := range groups {
		if len(g) < cfg.k {
			return nil, bad(fmt.Sprintf("group %s = %q holds %d records, fewer than k = %d", name, c.Value(int(g[0])), len(g), cfg.k),
				"a given grouping must be k-anonymous: lower k or merge the groups")
		}
	}
	return groups, nil
}

// given is a kAlgorithm that returns fixed groups of MT's tuples (JT's
// tuples 0..mt-1 are MT's rows in order).
func given(groups [][]int32) kAlgorithm {
	return func(context.Context, *jt, []int32, int, func([]int32) bool) ([][]int32, error) {
		out := make([][]int32, len(groups))
		for i, g := range groups {
			out[i] = append([]int32(nil), g...)
		}
		return out, nil
	}
}
