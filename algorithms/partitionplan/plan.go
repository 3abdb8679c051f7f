// Package partitionplan chooses, on a sample of a table, cuts of the
// quasi-identifier space that split the table into partitions small enough
// to anonymize one at a time (issue 36). The plan is method-neutral: it
// holds only the cuts, and places any row with the same quasi-identifier
// columns (the table, a population, a public table) in exactly one
// partition.
package partitionplan

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"privlab/model"
	"privlab/model/hierarchy"
)

// Column is one quasi-identifier the plan cuts on.
type Column struct {
	Name    string `json:"name"`
	Numeric bool   `json:"numeric"`
}

// Cut sends a row left or right by one column's value. A numeric value
// at most AtMost goes left; a categorical value goes left when it is in
// LeftValues. A missing value (or, in a numeric column, a text that is no
// number) goes left, because Mondrian ranks missing values first; a
// categorical value the sample never held goes right.
type Cut struct {
	Column     int      `json:"column"`
	AtMost     float64  `json:"at_most,omitempty"`
	LeftValues []string `json:"left_values,omitempty"`
}

// Node is a node of the plan's binary tree: a cut with two children, or a
// leaf holding a partition.
type Node struct {
	Cut   *Cut  `json:"cut,omitempty"`
	Left  *Node `json:"left,omitempty"`
	Right *Node `json:"right,omitempty"`
	// Partition is the leaf's partition index (-1 on a cut).
	Partition int `json:"partition"`
	// EstimatedRows is the partition's row count estimated from the
	// sample (the sample count times the table's rows over the sample's).
	EstimatedRows float64 `json:"estimated_rows"`
}

// Plan is a tree of cuts over the quasi-identifiers; its leaves are the
// partitions 0 .. Partitions-1, numbered left to right.
type Plan struct {
	Columns    []Column `json:"columns"`
	Root       *Node    `json:"root"`
	Partitions int      `json:"partitions"`
	SampleRows int      `json:"sample_rows"`
	TableRows  int      `json:"table_rows"`
}

// Assign places a row, given as the texts of the plan's columns in order
// ("" for missing), in its partition.
func (p *Plan) Assign(values []string) int {
	n := p.Root
	for n.Cut != nil {
		if p.goesLeft(n.Cut, values[n.Cut.Column]) {
			n = n.Left
		} else {
			n = n.Right
		}
	}
	return n.Partition
}

func (p *Plan) goesLeft(c *Cut, v string) bool {
	if p.Columns[c.Column].Numeric {
		x, ok := model.ParseNumber(v)
		return !ok || x <= c.AtMost
	}
	if v == "" {
		return true
	}
	for _, s := range c.LeftValues {
		if s == v {
			return true
		}
	}
	return false
}

// AssignTable places every row of t (which must hold the plan's columns)
// in its partition.
func (p *Plan) AssignTable(t *model.Table) ([]int, error) {
	cols := make([]*model.Column, len(p.Columns))
	for i, c := range p.Columns {
		if cols[i] = t.Column(c.Name); cols[i] == nil {
			return nil, fmt.Errorf("partition plan: %s has no column %q", t.Name, c.Name)
		}
	}
	out := make([]int, t.Rows)
	values := make([]string, len(cols))
	for r := range out {
		for i, c := range cols {
			values[i] = c.Value(r)
		}
		out[r] = p.Assign(values)
	}
	return out, nil
}

// Decode reads a plan written by json.Marshal and checks that it is whole:
// every cut names a column, cuts it as its kind is cut, and has two
// children, and the leaves are the
// partitions 0 .. Partitions-1 once each.
func Decode(data []byte) (*Plan, error) {
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("partition plan: %w", err)
	}
	if p.Root == nil {
		return nil, errors.New("partition plan: no root")
	}
	seen := make([]bool, p.Partitions)
	if err := p.check(p.Root, seen, 0); err != nil {
		return nil, err
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("partition plan: partition %d has no leaf", i)
		}
	}
	return &p, nil
}

// maxDepth bounds a decoded plan's tree (it guards the decoder's stack;
// built plans are far shallower).
const maxDepth = 4096

func (p *Plan) check(n *Node, seen []bool, depth int) error {
	if depth > maxDepth {
		return errors.New("partition plan: tree deeper than 4096 cuts")
	}
	if n.Cut == nil {
		if n.Left != nil || n.Right != nil {
			return errors.New("partition plan: a leaf has children")
		}
		if n.Partition < 0 || n.Partition >= len(seen) || seen[n.Partition] {
			return fmt.Errorf("partition plan: leaf partition %d out of range or repeated", n.Partition)
		}
		seen[n.Partition] = true
		return nil
	}
	if n.Cut.Column < 0 || n.Cut.Column >= len(p.Columns) {
		return fmt.Errorf("partition plan: a cut names column %d of %d", n.Cut.Column, len(p.Columns))
	}
	if p.Columns[n.Cut.Column].Numeric != (n.Cut.LeftValues == nil) || !p.Columns[n.Cut.Column].Numeric && n.Cut.AtMost != 0 {
		return fmt.Errorf("partition plan: a cut of %s is not one of a %s column (numeric columns are cut at_most a number, categorical ones by left_values)",
			p.Columns[n.Cut.Column].Name, kindName(p.Columns[n.Cut.Column].Numeric))
	}
	if n.Left == nil || n.Right == nil {
		return errors.New("partition plan: a cut lacks a child")
	}
	if err := p.check(n.Left, seen, depth+1); err != nil {
		return err
	}
	return p.check(n.Right, seen, depth+1)
}

func kindName(numeric bool) string {
	if numeric {
		return "numeric"
	}
	return "categorical"
}

// Options say how a plan is built.
type Options struct {
	// MaxRows is N: a partition is cut while its estimated rows exceed it.
	MaxRows int
	// MinRows is M: no cut leaves a half with fewer estimated rows.
	MinRows int
	// SampleRows, or else SampleRate (of the table's rows), sizes the
	// sample; with neither, or when it reaches the table, the whole table
	// is the sample.
	SampleRows int
	SampleRate float64
	// Hierarchies order categorical columns by leaf position, as Mondrian
	// does (partition.CodeRanks); a column without one is ordered by text.
	Hierarchies map[string]*hierarchy.Hierarchy
	// Partitions, when set, asks for that many partitions instead of a
	// size: the partition with the most estimated rows is cut until there
	// are that many (or none can be cut); MaxRows is then ignored.
	Partitions int
	// TableRows, when set, says the table given is itself a sample of a
	// table of that many rows (a streamed input the plan never holds
	// whole): estimates scale to it.
	TableRows int
}

// sampleSize is the number of sample rows the options ask of a table.
func (o Options) sampleSize(rows int) (int, error) {
	if o.MaxRows < 1 && o.Partitions < 1 || o.MinRows < 0 {
		return 0, fmt.Errorf("partition plan: max rows %d must be at least 1 and min rows %d at least 0", o.MaxRows, o.MinRows)
	}
	n := rows
	switch {
	case o.SampleRows < 0 || o.SampleRate < 0 || o.SampleRate > 1 || math.IsNaN(o.SampleRate):
		return 0, fmt.Errorf("partition plan: sample rows %d or rate %g out of range", o.SampleRows, o.SampleRate)
	case o.SampleRows > 0:
		n = o.SampleRows
	case o.SampleRate > 0:
		n = int(math.Ceil(o.SampleRate * float64(rows)))
	}
	return min(n, rows), nil
}
