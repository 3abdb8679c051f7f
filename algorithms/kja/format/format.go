// Package format is the published form of a k-join-anonymity release
// (Sacharidis, Mouratidis, Papadias): its files, their headers and the
// method's part of manifest.json. The method writes it and its checker
// reads it; it holds types and parsing only, no algorithm, so the checker
// imports it and never the method.
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
	ParamK        model.IntParam  = "k"
	ParamSplit    model.TextParam = "split"
	ParamGrouping model.TextParam = "grouping"
)

// The files of a release: one row per join-table tuple with its G-box and
// sensitive group (Definition 5), and the sensitive values of every
// sensitive group (Section 3.2).
const (
	FileJAT = "jat.csv"
	FileSI  = "si.csv"
)

// JATHeader is jat.csv's header: GroupID, SG and a range per QI.
func JATHeader(qis []string) []string {
	out := []string{"GroupID", "SG"}
	for _, q := range qis {
		out = append(out, q+"_min", q+"_max")
	}
	return out
}

// SIHeader is si.csv's header: SG and the sensitive attribute.
func SIHeader(sa string) []string { return []string{"SG", sa} }

// The methodologies (Section 4): plain k-anonymity of the microdata,
// Direct and Refinement over the join table.
const (
	PlainKA  = "k-anonymity"
	DirectKA = "direct"
	RefineKA = "refinement"
)

// Groupings are details.sensitive_grouping per methodology (Section
// 3.2): a box, neighbouring boxes merged, a first-round group of MT.
var Groupings = map[string]string{PlainKA: "box", RefineKA: "first-round", DirectKA: "merged-boxes"}

// The kinds of a QI's or the sensitive attribute's values.
const (
	Numeric     = "numeric"
	Categorical = "categorical"
)

// What the numeric extents of details.domain span: the join table, or
// the microdata alone.
const (
	DomainJT = "JT"
	DomainMT = "MT"
)

// Details is the method's part of manifest.json. The field order is the
// order the manifest lists them in.
type Details struct {
	// Algorithm is the k-anonymity algorithm and Methodology how it is
	// used (k-anonymity, direct or refinement; Section 4).
	Algorithm   string `json:"k_algorithm"`
	Methodology string `json:"methodology"`
	// Join names the identifier columns that joined MT and PD (the column
	// names only; identifiers are never published). The plain variants
	// name them when a public table set their NCP domain.
	Join []string `json:"join_columns"`
	// Domain describes every QI: numeric ones with the extent NCP
	// normalises by, categorical ones with their values in hierarchy order
	// (how jat.csv's ranges read).
	Domain []DomainEntry `json:"domain"`
	// NCPDomain says what the numeric extents span: DomainJT (the
	// microdata and the public tuples, whenever a public table is given,
	// in every variant) or DomainMT (the microdata alone).
	NCPDomain string `json:"ncp_domain"`
	// SAKind is Numeric or Categorical (how si.csv's values read).
	SAKind          string `json:"sensitive_kind"`
	Boxes           int    `json:"boxes"`
	SensitiveGroups int    `json:"sensitive_groups"`
	JTRows          int    `json:"jt_rows"`
	PublicRows      int    `json:"public_rows"`
	SmallestBox     int    `json:"smallest_box"`
	SmallestGroup   int    `json:"smallest_sensitive_group"`
	// Grouping is how the sensitive groups are formed, each of at least k
	// MT tuples (Section 3.2; Groupings).
	Grouping string `json:"sensitive_grouping"`
	// QIPaired counts the public rows no identifier joined that equal a
	// microdata tuple on every QI and are counted as that person, not as
	// another JT tuple; 0 for the plain variants.
	QIPaired int `json:"qi_paired"`
}

// DomainEntry is one QI of Details.Domain: a numeric QI's extent, or a
// categorical QI's values in order (Low 0, High the last position).
type DomainEntry struct {
	QI     string   `json:"qi"`
	Kind   string   `json:"kind"`
	Low    float64  `json:"low"`
	High   float64  `json:"high"`
	Values []string `json:"values,omitempty"`
}

// Encode renders the details as the manifest holds them.
func (d Details) Encode() (json.RawMessage, error) { return releasedir.EncodeDetails(d) }

// Read decodes a manifest's details strictly (releasedir.DecodeDetails): a key
// this declaration does not name is an error.
func Read(m *releasedir.Manifest) (Details, error) {
	var d Details
	err := releasedir.DecodeDetails(m.Details, &d)
	return d, err
}
