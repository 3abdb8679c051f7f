// Package format is the published form of a lossyjoin release (Wong,
// Liu, Yin, Huang, Fu, Pei, (alpha,k)-anonymity by lossy join): its
// files, their headers and the method's part of manifest.json. The
// method writes it and its checker reads it; it holds types and parsing
// only, no algorithm, so the checker imports it and never the method.
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
	ParamK     model.IntParam   = "k"
	ParamAlpha model.BoundParam = "alpha"
)

// The files of a release: the quasi-identifiers and the sensitive values
// in two tables joined by ClassID (variants lossy and anatomy, Section
// 5), or the generalized records and the labels' subdomains (variant
// alpha).
const (
	FileNSS         = "nss.csv"
	FileSS          = "ss.csv"
	FileGeneralized = "generalized.csv"
	FileDomains     = "domains.csv"
	// ClassID is the join attribute of NSS and SS (Section 5).
	ClassID = "ClassID"
)

// NSSHeader is nss.csv's header: the QIs, then ClassID.
func NSSHeader(qis []string) []string { return append(append([]string(nil), qis...), ClassID) }

// SSHeader is ss.csv's header: ClassID, then the sensitive attribute.
func SSHeader(sa string) []string { return []string{ClassID, sa} }

// GeneralizedHeader is generalized.csv's header: the QIs, then the
// sensitive attribute.
func GeneralizedHeader(qis []string, sa string) []string {
	return append(append([]string(nil), qis...), sa)
}

// DomainsHeader is domains.csv's header: every label of every attribute
// with each value it holds.
var DomainsHeader = []string{"attribute", "label", "value"}

// Details is the method's part of manifest.json. The field order is the
// order the manifest lists them in.
type Details struct {
	// Remark is the annotation of Section 5 (lossy and anatomy).
	Remark    string `json:"remark,omitempty"`
	Criterion string `json:"criterion,omitempty"`
	Classes   int    `json:"classes"`
	// JoinRows is the size of the lossy join of nss.csv and ss.csv on
	// ClassID: the sum of the squared class sizes (Table 7 has 12).
	JoinRows int `json:"join_rows,omitempty"`
	// L is Anatomy's l = ceil(1/alpha).
	L             int                        `json:"l,omitempty"`
	GroupFigures  []releasedir.FigureSummary `json:"group_figures"`
	DomainEntries int                        `json:"domain_entries,omitempty"`
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
