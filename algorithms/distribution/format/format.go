// Package format is the published form of a distribution release
// (Koudas et al. 2009): its files, their headers and the method's part of
// manifest.json. The method writes it and its checker reads it; it holds
// types and parsing only, no algorithm, so the checker imports it and
// never the method.
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
	ParamTarget         model.TextParam = "target"
	ParamGrouping       model.TextParam = "grouping"
	ParamMaxDenominator model.IntParam  = "max-denominator"
	ParamFakes          model.TextParam = "fakes"
)

// The files of a release: the quasi-identifiers with their group
// (Section 2, footnote 1), each group's generalized sensitive subdomains,
// the sensitive attribute's hierarchy with the weights that give the
// target, the domain in leaf order, and per-group weights when each group
// has its own target.
const (
	FileQI           = "qi.csv"
	FileSA           = "sa.csv"
	FileHierarchy    = "hierarchy.csv"
	FileDomain       = "sa_domain.csv"
	FileGroupWeights = "group_weights.csv"
)

// Headers of the fixed-form files (qi.csv's is GroupID and the QIs,
// QIHeader; sa_domain.csv's is the sensitive attribute's name).
var (
	SAHeader           = []string{"GroupID", "Low", "High"}
	HierarchyHeader    = []string{"NodeID", "ParentID", "Low", "High", "Weight"}
	GroupWeightsHeader = []string{"GroupID", "NodeID", "Weight"}
)

// QIHeader is qi.csv's header: GroupID, then the quasi-identifiers.
func QIHeader(qis []string) []string {
	return append([]string{"GroupID"}, qis...)
}

// Details is the method's part of manifest.json. The field order is the
// order the manifest lists them in.
type Details struct {
	// Grouping and Target are the parameters that made the groups and the
	// distribution every group's sensitive values appear to follow
	// (Sections 4.2 and 3: "custom" names a target read from a private
	// file); MaxDenominator bounds the hierarchy's weights (0: exact).
	Grouping       string `json:"grouping"`
	Target         string `json:"target"`
	MaxDenominator int    `json:"max_denominator"`
	// PerGroupTarget says group_weights.csv gives every group its own
	// target.
	PerGroupTarget bool `json:"per_group_target"`
	// Domain is the sensitive attribute's values in leaf order.
	Domain []string `json:"domain"`
	// Effective is the target the weights give (Definition 3.2's P'),
	// and its distance to the requested one.
	Effective    []float64 `json:"effective_target,omitempty"`
	TargetEMD    float64   `json:"effective_vs_requested_emd"`
	TargetMaxAbs float64   `json:"effective_vs_requested_max_abs"`
	Subdomains   int       `json:"sa_rows"`
	FakeValues   int       `json:"fake_values"`
	SumOfRanges  float64   `json:"sum_of_ranges"`
	// FigureSummary summarises the per-group figures but the group's
	// distance to the target, which describes its private original
	// distribution.
	FigureSummary []releasedir.FigureSummary `json:"group_figures"`
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
