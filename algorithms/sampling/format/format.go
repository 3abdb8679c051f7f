// Package format is the published form of a sampling release (Sattar,
// Li, Ding, Liu, Vincent): its file, its header and the method's part of
// manifest.json, the public knowledge a reader needs to recompute every
// record's confidence and distortion. The method writes it and its
// checker reads it; it holds types and parsing only, no algorithm, so the
// checker imports it and never the method.
package format

import (
	"encoding/json"

	"privlab/model"
	"privlab/model/releasedir"
)

// The method's parameters as the manifest states them: the method names
// its declarations (model.ParamSpec) by these and the checker reads the
// manifest through them, so neither spells a parameter's name.
const (
	ParamRate              model.BoundParam = "sampling-rate"
	ParamMaxDistortion     model.BoundParam = "max-distortion"
	ParamMinGeneralization model.TextParam  = "min-generalization"
	ParamMarginals         model.TextParam  = "marginals"
)

// MarginalsTable is ParamMarginals' value for the table's own marginals
// (its default); any other value names a CSV file.
const MarginalsTable = "table"

// MarginalsFile is the CSV file ParamMarginals names in v as written, ""
// when v leaves it unset or gives the table's own marginals. Whoever
// holds public marginals in that file (the method, the attacker of
// privlab attack) reads them through this.
func MarginalsFile(v model.Values) string {
	if f := ParamMarginals.Of(v); f != MarginalsTable {
		return f
	}
	return ""
}

// FilePublished holds the published records: the generalized QIs and
// the sensitive value of each, in an order drawn from the seed.
const FilePublished = "published.csv"

// Header is published.csv's header: the QIs, then the sensitive
// attribute.
func Header(qis []string, sa string) []string {
	return append(append([]string(nil), qis...), sa)
}

// Details is the method's part of manifest.json: the counts of Algorithm
// 1 and the public knowledge a reader (and the checker) needs to recompute
// every record's expected confidence and distortion from published.csv.
// The field order is the order the manifest lists them in.
//
// The marginals are published. By the paper's model they are public
// knowledge (Definition 1, item 3): the adversary is assumed to know them
// and the expected confidence is defined by them. When they come from the
// table itself (the default, as in the paper's experiments) they are the
// table's one-way frequencies of each QI and of the sensitive attribute,
// divided by the number of records: this reveals, e.g., that a value
// occurs once. A privacy officer who must not publish those gives
// population marginals with --marginals FILE instead.
type Details struct {
	SamplingRate  float64 `json:"sampling_rate"`
	MaxDistortion float64 `json:"max_distortion"`
	// RowsConsidered is n', the records the method read (after the
	// missing-value policy); RowsSampled = floor(beta n').
	RowsConsidered int `json:"rows_considered"`
	RowsSampled    int `json:"rows_sampled"`
	RowsUnsampled  int `json:"rows_unsampled"`
	// RowsSuppressed counts the sampled records Algorithm 1 did not
	// publish (the manifest's rows_suppressed adds the rows dropped for
	// missing values).
	RowsSuppressed int `json:"rows_suppressed_by_method"`
	RowsPublished  int `json:"rows_published"`
	// Marginals is "table" or "file".
	Marginals         string         `json:"marginals"`
	MinGeneralization map[string]int `json:"min_generalization"`
	WorstMargin       float64        `json:"worst_margin"`
	MaxDistortionSeen float64        `json:"max_distortion_published"`
	AvgDistortion     float64        `json:"avg_distortion"`
	// Attributes are the QIs' taxonomies with their public probabilities,
	// Sensitive the sensitive values' public probabilities.
	Attributes []Attribute `json:"public_knowledge"`
	Sensitive  []Value     `json:"sensitive_marginals"`
}

// Attribute is one quasi-identifier's public knowledge as the manifest
// publishes it: its taxonomy (Sattar et al., Figure 1) with the public
// probability of every value (Definition 5). Nodes are in depth-first
// order, the root first; a node's parent comes before it.
type Attribute struct {
	Name  string `json:"attribute"`
	Nodes []Node `json:"nodes"`
}

// Node is one taxonomy node: its label (the value a release publishes),
// its parent's index (-1 for the root) and, for a leaf, the public
// probability of the value.
type Node struct {
	Value  string  `json:"value"`
	Parent int     `json:"parent"`
	P      float64 `json:"p,omitempty"`
}

// Value is one sensitive value with its public probability Pr(s).
type Value struct {
	Value string  `json:"value"`
	P     float64 `json:"p"`
}

// Encode renders the details as the manifest holds them.
func (d Details) Encode() (json.RawMessage, error) { return releasedir.EncodeDetails(d) }

// Read decodes a manifest's details strictly (releasedir.DecodeDetails): a key
// this declaration does not name is an error, and so are no details.
func Read(m *releasedir.Manifest) (Details, error) {
	var d Details
	err := releasedir.DecodeDetails(m.Details, &d)
	return d, err
}
