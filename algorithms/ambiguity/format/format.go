// Package format is the published form of an ambiguity release (Hui
// Wang, Ambiguity): its files, their headers, the method's part of
// manifest.json and the audit record's group map. The method writes it
// and its checker reads it; it holds types and parsing only, no
// algorithm, so the checker imports it and never the method.
package format

import (
	"encoding/json"
	"fmt"

	"privlab/model"
	"privlab/model/releasedir"
)

// The method's parameters as the manifest states them: the method names
// its declarations (model.ParamSpec) by these and the checker reads the
// manifest through them, so neither spells a parameter's name.
const (
	ParamAlpha    model.BoundParam = "alpha"
	ParamBeta     model.BoundParam = "beta"
	ParamGrouping model.TextParam  = "grouping"
)

// FileST is the sensitive table: every group's sensitive values with
// their frequencies. Each quasi-identifier has an auxiliary table of its
// own, at_<qi>.csv (named in Details.AuxiliaryTables).
const FileST = "st.csv"

// STHeader is st.csv's header: GroupID, the sensitive attribute,
// Frequency.
func STHeader(sa string) []string { return []string{"GroupID", sa, "Frequency"} }

// ATHeader is an auxiliary table's header: its quasi-identifier,
// GroupID.
func ATHeader(qi string) []string { return []string{qi, "GroupID"} }

// AuditGroups is the key of the audit record's row map that lists the
// input rows of every group: group 1's rows (ascending), then group 2's,
// ..., each group as many rows as its ST frequencies add up to. The files
// cannot say which record is in which group when several groups cover the
// same values (that is the point of the scheme); the audit record can.
const AuditGroups = "groups"

// The kinds a published column compares as.
const (
	Numeric     = "numeric"
	Categorical = "categorical"
)

// Details is the method's part of manifest.json. Every number in it is
// recomputed by the checker from the files. The field order is the order
// the manifest lists them in.
type Details struct {
	// AuxiliaryTables names the file of every quasi-identifier, in QI order.
	AuxiliaryTables []ATFile `json:"auxiliary_tables"`
	SensitiveTable  string   `json:"sensitive_table"`
	// Kinds says how each published column compares (Numeric or
	// Categorical): a query reads the files as the run read the table.
	Kinds map[string]string `json:"kinds"`
	// CeilInvBeta is ceil(1/beta), the least number of distinct sensitive
	// values per group (Theorem 7.2).
	CeilInvBeta   int `json:"ceil_inv_beta"`
	MinGroupSize  int `json:"min_group_size"`
	MaxGroupSize  int `json:"max_group_size"`
	MinDistinctSA int `json:"min_distinct_sensitive"`
	MaxFrequency  int `json:"max_frequency"`
	// FigureSummary is min / mean / max of every per-group figure.
	FigureSummary []releasedir.FigureSummary `json:"group_figures"`
	// GroupIDBase is the number before the first GroupID: the GroupIDs
	// are GroupIDBase+1..GroupIDBase+G. It is 0 (and not written) for a
	// whole table; a partition of a partitioned run has a range of its
	// own (method.Input.IDBase), so no two partitions share a GroupID.
	GroupIDBase int `json:"group_id_base,omitempty"`
}

// MaxGroupIDBase is the largest GroupIDBase a release may state: far
// beyond any partitioned run's ranges, and far enough below the largest
// whole number that every GroupID after it is one.
const MaxGroupIDBase = 1_000_000_000_000_000

// GroupIDBaseProblem says what is wrong with the stated GroupIDBase ("":
// nothing).
func (d Details) GroupIDBaseProblem() string {
	if d.GroupIDBase < 0 || d.GroupIDBase > MaxGroupIDBase {
		return fmt.Sprintf("group_id_base %d is not between 0 and %d", d.GroupIDBase, MaxGroupIDBase)
	}
	return ""
}

// ATFile is one auxiliary table.
type ATFile struct {
	QI   string `json:"qi"`
	File string `json:"file"`
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
