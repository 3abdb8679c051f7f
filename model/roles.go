package model

import (
	"fmt"
	"slices"
	"strings"
)

// Role is what an attribute is to the anonymization (SPEC 2.2).
type Role int

const (
	// Insensitive attributes are kept as they are where the method allows
	// and dropped otherwise.
	Insensitive Role = iota
	// Identifier attributes are dropped from every release.
	Identifier
	// QuasiIdentifier attributes can be linked with outside data.
	QuasiIdentifier
	// Sensitive is the one attribute to protect.
	Sensitive
)

var roleNames = []string{"insensitive", "identifier", "quasi-identifier", "sensitive"}

func (r Role) String() string { return roleNames[r] }

// Short is a one-letter tag for tables.
func (r Role) Short() string { return []string{"-", "ID", "QI", "SA"}[r] }

// Roles assigns roles to columns; every column not named is insensitive.
type Roles struct {
	IDs []string `json:"identifiers,omitempty"`
	QIs []string `json:"quasi_identifiers"`
	SA  string   `json:"sensitive"`
}

// Of returns the role of a column.
func (r Roles) Of(name string) Role {
	switch {
	case name == r.SA && name != "":
		return Sensitive
	case slices.Contains(r.QIs, name):
		return QuasiIdentifier
	case slices.Contains(r.IDs, name):
		return Identifier
	}
	return Insensitive
}

// Insensitive lists the table's columns that have no role.
func (r Roles) Insensitive(t *Table) []string {
	var out []string
	for _, c := range t.Columns {
		if r.Of(c.Name) == Insensitive {
			out = append(out, c.Name)
		}
	}
	return out
}

// Used lists the QIs and the SA (the columns a run reads).
func (r Roles) Used() []string {
	out := append([]string(nil), r.QIs...)
	if r.SA != "" {
		out = append(out, r.SA)
	}
	return out
}

// Validate checks the roles against a table: named columns exist, exactly
// one sensitive attribute when needSA (none is then an error), at least one
// quasi-identifier, no column in two roles.
func (r Roles) Validate(t *Table, needSA bool) error {
	if _, err := t.MustColumns("qi", r.QIs); err != nil {
		return err
	}
	if _, err := t.MustColumns("id", r.IDs); err != nil {
		return err
	}
	if r.SA == "" && needSA {
		return &ParamError{Param: "sa", Reason: "no sensitive attribute chosen", Fixes: []Fix{{Setting: SetSA}}, Hint: "the columns are: " + strings.Join(t.Names(), ", ")}
	}
	if r.SA != "" {
		if _, err := t.MustColumns("sa", []string{r.SA}); err != nil {
			return err
		}
	}
	if len(r.QIs) == 0 {
		return &ParamError{Param: "qi", Reason: "no quasi-identifier chosen", Fixes: []Fix{{Setting: SetQI}}}
	}
	seen := map[string]string{}
	check := func(role, name string) error {
		if prev, dup := seen[name]; dup {
			if prev == role {
				return &ParamError{Param: role, Value: name, Reason: "column listed twice"}
			}
			return &ParamError{Param: role, Value: name, Reason: fmt.Sprintf("column is already the %s", prev),
				Hint: "a column has one role"}
		}
		seen[name] = role
		return nil
	}
	if r.SA != "" {
		if err := check("sa", r.SA); err != nil {
			return err
		}
	}
	for _, q := range r.QIs {
		if err := check("qi", q); err != nil {
			return err
		}
	}
	for _, q := range r.IDs {
		if err := check("id", q); err != nil {
			return err
		}
	}
	return nil
}

// DatasetInfo describes an embedded dataset for menus and listings.
type DatasetInfo struct {
	Name        string
	Title       string
	Source      string
	DefaultRows int
	Generated   bool // any number of rows, deterministic by seed
}
