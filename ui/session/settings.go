package session

import (
	"slices"

	"privlab/algorithms/pipeline"
	"privlab/model/csvfile"
)

// The edits of the project the panes make: each marks what must be
// recomputed (Changed, or Reload when the table is read differently).

// ToggleQI makes col a quasi-identifier (dropping its other role), or
// no longer one.
func (s *Session) ToggleQI(col string) {
	r := &s.Project.Roles
	if slices.Contains(r.QIs, col) {
		r.QIs = without(r.QIs, col)
	} else {
		s.clearRoles(col)
		r.QIs = append(r.QIs, col)
	}
	s.Changed()
}

// SetSA makes col the sensitive attribute (dropping its other role).
func (s *Session) SetSA(col string) {
	s.clearRoles(col)
	s.Project.Roles.SA = col
	s.Changed()
}

// ToggleID makes col an identifier (dropping its other role), or no
// longer one.
func (s *Session) ToggleID(col string) {
	r := &s.Project.Roles
	if slices.Contains(r.IDs, col) {
		r.IDs = without(r.IDs, col)
	} else {
		s.clearRoles(col)
		r.IDs = append(r.IDs, col)
	}
	s.Changed()
}

// ClearRole removes every role of col.
func (s *Session) ClearRole(col string) {
	s.clearRoles(col)
	s.Changed()
}

func (s *Session) clearRoles(col string) {
	r := &s.Project.Roles
	r.QIs = without(r.QIs, col)
	r.IDs = without(r.IDs, col)
	if r.SA == col {
		r.SA = ""
	}
}

// without is list without s (nil when nothing is left).
func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// SetKind reads col as kind ("numeric" or "categorical"): its hierarchy
// goes, and the table is read again. The shown result is of the old
// kind: stale until the new run lands.
func (s *Session) SetKind(col, kind string) {
	if s.Project.Kinds == nil {
		s.Project.Kinds = map[string]string{}
	}
	s.Project.Kinds[col] = kind
	delete(s.Project.Hierarchies, col)
	s.Reload()
}

// ToggleMissing switches the missing-value policy between keeping
// missing values as a category and dropping their rows.
func (s *Session) ToggleMissing() {
	if s.Project.Missing == "category" {
		s.Project.Missing = "drop"
	} else {
		s.Project.Missing = "category"
	}
	s.Changed()
}

// MissingTokens are the values read as missing (the project's, or the
// default ones).
func (s *Session) MissingTokens() []string {
	if s.Project.MissingValues != nil {
		return s.Project.MissingValues
	}
	return csvfile.DefaultMissingTokens
}

// SetMissingTokens takes the typed missing-value tokens: the table is
// read again with them (the default ones are not written to the
// project).
func (s *Session) SetMissingTokens(v string) error {
	toks, err := csvfile.ParseMissingTokens(v)
	if err != nil {
		return err
	}
	if csvfile.FormatMissingTokens(toks) == csvfile.FormatMissingTokens(csvfile.DefaultMissingTokens) {
		toks = nil
	}
	s.Project.MissingValues = toks
	s.Reload()
	return nil
}

// SetPublic names the public table ("" for none).
func (s *Session) SetPublic(path string) {
	s.Project.Public = path
	s.Changed()
}

// SetHierarchy gives attr the hierarchy spec (a builder or a file).
func (s *Session) SetHierarchy(attr, spec string) {
	if s.Project.Hierarchies == nil {
		s.Project.Hierarchies = map[string]string{}
	}
	s.Project.Hierarchies[attr] = spec
	s.Changed()
}

// SetVariant chooses the method's variant.
func (s *Session) SetVariant(v string) {
	s.Project.Variant = v
	s.Changed()
}

// UseRun switches to a method with the variant and parameter values of
// a run (a comparison's row).
func (s *Session) UseRun(methodName string, p pipeline.Project) {
	s.SetMethod(methodName)
	s.Project.Variant = p.Variant
	for name, v := range p.Params {
		s.Project.Params[name] = v
	}
	s.Changed()
}

// SetPopulation sets the population the attacks of the plan and the
// export read (the project's population, run --population); a new file's
// columns are its header's.
func (s *Session) SetPopulation(path string) {
	if path != s.Project.Population {
		s.Project.PopulationColumns = nil
	}
	s.Project.Population = path
	s.Changed()
	if path == "" {
		s.Notify("no population: the attacks that need one do not run")
		return
	}
	s.Notify("population %s: the attacks read it", path)
}

// ImportPopulation sets the population with the import wizard's reading
// of it: the column names of a header-less file (nil when its first row
// names them).
func (s *Session) ImportPopulation(spec string, columns []string) {
	s.Project.Population = spec
	s.Project.PopulationColumns = nil
	if columns != nil {
		s.Project.PopulationColumns = append([]string(nil), columns...)
	}
	s.Changed()
	s.Notify("population %s: the attacks read it", spec)
}

// Reading is how the import wizard read a file, kept in the project so
// privlab run --config reads it the same way.
type Reading struct {
	// CSV is set for a delimited file: its Delimiter (by name) is
	// written to the project.
	CSV       bool
	Delimiter string
	// Columns are the names of a header-less file's columns (nil: its
	// header's).
	Columns []string
	// Header is "yes" when a first row that looked like data names the
	// columns.
	Header        string
	MissingValues []string
	// Kinds are the kinds the user set, by column.
	Kinds map[string]string
}

// ImportFile switches to the input spec read as r.
func (s *Session) ImportFile(spec string, r Reading) {
	s.SetInput(spec)
	if r.CSV {
		s.Project.Delimiter = r.Delimiter
	}
	s.Project.Columns = nil
	if r.Columns != nil {
		s.Project.Columns = append([]string(nil), r.Columns...)
	}
	if r.Header != "" {
		s.Project.Header = r.Header
	}
	s.Project.MissingValues = r.MissingValues
	s.Project.Kinds = r.Kinds
}

// Exported records a release written to dir: the next release is
// attacked together with it, and nothing is unexported; the project,
// which now lists the release, is still unsaved.
func (s *Session) Exported(dir string) {
	s.Project.AddExported(dir)
	s.Dirty, s.Unsaved = false, true
}

// Saved records the project file the settings were written to (or
// opened from): ctrl+s writes back to it.
func (s *Session) Saved(path string) {
	s.ProjectPath, s.Dirty, s.Unsaved = path, false, false
}

// OpenProjectFile opens the project saved at path.
func (s *Session) OpenProjectFile(p pipeline.Project, path string) {
	s.OpenProject(p)
	s.ProjectPath = path
}

// UseFolder is the folder the file pickers open in next.
func (s *Session) UseFolder(dir string) {
	s.LastDir = dir
}

// MarkDirty marks the settings as unsaved (a worked example opened with
// a paper's settings).
func (s *Session) MarkDirty() {
	s.Dirty, s.Unsaved = true, true
}
