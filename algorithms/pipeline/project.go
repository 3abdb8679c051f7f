// Package pipeline is the headless twin of the workbench: it turns a
// project (input, roles, hierarchies, method and parameters; the same
// project.json the workbench saves) into a prepared run, runs the method,
// exports and verifies the release, and answers queries. The command line
// and the workbench both go through it.
package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	mhierarchy "privlab/model/hierarchy"
	"privlab/model/releasedir"
	"privlab/model/source"
	"privlab/model/strictjson"
)

// Project is a complete configuration: project.json.
type Project struct {
	// Input is a table's file (CSV, FILE.xlsx[:SHEET], FILE.parquet,
	// FILE.db:TABLE; model/source) or dataset:NAME.
	Input string `json:"input"`
	// Rows and DataSeed size and seed a synthetic dataset (0: its default).
	Rows     int    `json:"rows,omitempty"`
	DataSeed uint64 `json:"data_seed,omitempty"`
	// Columns names the columns of a header-less CSV file.
	Columns []string `json:"columns,omitempty"`
	// Header says whether the input's first row names its columns: "yes",
	// "no", or "" to detect it (a first row that looks like data is read
	// as data, csvfile.FirstRowIsData).
	Header string `json:"header,omitempty"`
	// MissingValues are the cell values read as missing in the input and
	// the public table (nil: csvfile.DefaultMissingTokens, "", ?, NA, NULL).
	MissingValues []string `json:"missing_values,omitempty"`
	// Delimiter is the field separator ("" detects one of , ; tab |).
	Delimiter string `json:"delimiter,omitempty"`
	// Kinds overrides inferred column kinds (numeric or categorical).
	Kinds map[string]string `json:"kinds,omitempty"`
	// Missing is "drop" (default) or "category".
	Missing string `json:"missing,omitempty"`
	// MaxCell raises the loader's cell-size limit (bytes; 0: the default,
	// 64 KiB; -1: none).
	MaxCell int         `json:"max_cell,omitempty"`
	Roles   model.Roles `json:"roles"`
	// Hierarchies maps attribute -> builder spec or file.
	Hierarchies map[string]string `json:"hierarchies,omitempty"`
	// Pins record the hierarchy each used column had when the project was
	// saved (a file and its digest, or a builder): reopening it warns when
	// that changed (PinWarnings). Save writes them; they change no result.
	Pins    map[string]HierarchyPin `json:"hierarchy_pins,omitempty"`
	Method  string                  `json:"method"`
	Variant string                  `json:"variant,omitempty"`
	Params  model.Values            `json:"params,omitempty"`
	// Public is the public table (a CSV path or dataset:NAME) for methods
	// that read one. PublicRows sizes a synthetic public table (0: its
	// default); it shares DataSeed with the input, so a generated public
	// table draws from the same population as a generated input.
	Public     string `json:"public,omitempty"`
	PublicRows int    `json:"public_rows,omitempty"`
	// Population is a population table the attacks of the release read
	// (a CSV path or dataset:NAME): the data's people and others, one row
	// per person, with the quasi-identifier columns (SPEC 3.7).
	// PopulationColumns names its columns when it has no header row.
	Population        string   `json:"population,omitempty"`
	PopulationColumns []string `json:"population_columns,omitempty"`
	// RiskThreshold is the prosecutor risk above which a record counts as
	// at risk in the figures every release gets (0: risk's default).
	RiskThreshold float64 `json:"risk_threshold,omitempty"`
	// Methods keeps the settings of the other methods (by name): the
	// workbench brings them back when it switches to one (see Switch). A
	// run reads the current method's settings only.
	Methods map[string]Settings `json:"methods,omitempty"`
	// Exported lists the releases exported from the project: the Export
	// pane attacks a new release together with those of the same input
	// (SPEC 3.7: several releases of one original are attacked together).
	Exported []ExportedRelease `json:"exported,omitempty"`
	// Advisor is the Advisor's risk-utility map (issue 34.2), nil when
	// none was computed; a project without it opens as before.
	Advisor *AdvisorMap `json:"advisor,omitempty"`
}

// ExportedRelease is a release directory and the input it was made from.
type ExportedRelease struct {
	Dir   string `json:"dir"`
	Input string `json:"input"`
}

// Earlier are the directories of the releases exported from the
// project's input, in the order they were exported.
func (p Project) Earlier() []string {
	var out []string
	for _, r := range p.Exported {
		if r.Input == p.Input {
			out = append(out, r.Dir)
		}
	}
	return out
}

// AddExported records a release exported to dir from the project's
// input (a directory exported again moves to the end).
func (p *Project) AddExported(dir string) {
	kept := p.Exported[:0:0]
	for _, r := range p.Exported {
		if r.Dir != dir {
			kept = append(kept, r)
		}
	}
	p.Exported = append(kept, ExportedRelease{Dir: dir, Input: p.Input})
}

// Settings are one method's choices: its variant, its parameter values
// and, for a method that reads one, its public table.
type Settings struct {
	Variant    string       `json:"variant,omitempty"`
	Params     model.Values `json:"params,omitempty"`
	Public     string       `json:"public,omitempty"`
	PublicRows int          `json:"public_rows,omitempty"`
}

// Switch returns the project with method name in place of the current
// one: the current method's settings go into Methods, and name's come
// back from there (its declared defaults when it has none). The public
// table goes with the method that read it; a method without settings of
// its own that reads one keeps the current public table.
func (p Project) Switch(name string) Project {
	q := p.Clone()
	if q.Method == name {
		return q
	}
	if q.Methods == nil {
		q.Methods = map[string]Settings{}
	}
	if q.Method != "" {
		q.Methods[q.Method] = Settings{Variant: q.Variant, Params: q.Params, Public: q.Public, PublicRows: q.PublicRows}
	}
	s, had := q.Methods[name]
	delete(q.Methods, name)
	if len(q.Methods) == 0 {
		q.Methods = nil
	}
	q.Method, q.Variant, q.Params = name, s.Variant, s.Params.Clone()
	if q.Params == nil {
		q.Params = model.Values{}
	}
	if had {
		q.Public, q.PublicRows = s.Public, s.PublicRows
	}
	if m, err := catalog.Lookup(name); err == nil && m.Spec().Public == method.NoPublic {
		q.Public, q.PublicRows = "", 0
	}
	return q
}

// LoadProject reads a project.json. Errors name the file and the line:
// syntax errors, unknown fields, wrong types, a file cut short, and
// anything after the project's closing brace.
func LoadProject(path string) (Project, error) {
	b, err := model.ReadFileLimit(path, model.MaxProjectBytes, "a project file")
	if ie := (*model.InputError)(nil); errors.As(err, &ie) {
		return Project{}, ie
	}
	if err != nil {
		return Project{}, &model.InputError{File: path, Msg: "cannot read the project file: " + csvfile.OpenReason(err)}
	}
	// An editor that saves UTF-8 with a byte order mark (Notepad) leaves
	// the project what it was.
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	lineAt := func(off int64) int {
		if off > int64(len(b)) {
			off = int64(len(b))
		}
		return 1 + strings.Count(string(b[:off]), "\n")
	}
	fail := func(off int64, msg string) (Project, error) {
		return Project{}, &model.InputError{File: path, Line: lineAt(off), Msg: "not a valid project file: " + msg,
			Hint: "the workbench writes this file when it saves the project"}
	}
	var p Project
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return fail(se.Offset, err.Error())
		case errors.As(err, &te):
			return fail(te.Offset, err.Error())
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return fail(int64(len(b)), "unexpected EOF: the file ends before the project is complete")
		}
		// An unknown field carries no offset: find the field's name before
		// where the decoder stopped.
		off := dec.InputOffset()
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if i := bytes.LastIndex(b[:min(off, int64(len(b)))], []byte(name)); i >= 0 {
				off = int64(i)
			}
		}
		return fail(off, err.Error())
	}
	if dec.More() {
		return fail(dec.InputOffset(), "unexpected data after the project")
	}
	if tok, err := dec.Token(); err == nil {
		return fail(dec.InputOffset(), fmt.Sprintf("unexpected %v after the project", tok))
	} else if err != io.EOF {
		return fail(dec.InputOffset(), "unexpected data after the project")
	}
	// encoding/json keeps the last of a repeated key and matches keys in
	// any case: a project that reads two ways is refused, as a manifest is.
	if err := strictjson.Decode(b, new(Project)); err != nil {
		line := 0
		if se := (*strictjson.Error)(nil); errors.As(err, &se) {
			line = se.Line
		}
		return Project{}, &model.InputError{File: path, Line: line, Msg: "not a valid project file: " + err.Error(),
			Hint: "the workbench writes this file when it saves the project"}
	}
	dir := filepath.Dir(path)
	return p.mapPaths(func(v string, always bool) string { return resolvePath(dir, v, always) }), nil
}

// Save writes the project as indented JSON, atomically. The files it
// names (the input, public tables, hierarchy files, parameter values
// that name a file) are written relative to the project file's folder,
// so the project opens from any working directory (LoadProject resolves
// them against that folder); a path with no relative form stays
// absolute.
func (p Project) Save(path string) error {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return err
	}
	q := p.withPins().mapPaths(func(v string, always bool) string { return relPath(dir, v, always) })
	b, err := json.MarshalIndent(q, "", "  ")
	if err != nil {
		return err
	}
	return releasedir.WriteFileAtomic(path, append(b, '\n'))
}

// mapPaths returns the project with f applied to every value that names
// a file: the input and public tables (always files, unless
// dataset:NAME), the exported releases' directories, hierarchy specs
// that are not builders (always files), and the values of parameters
// declared as files (files only when one is there: target=uniform is a
// preset).
func (p Project) mapPaths(f func(v string, always bool) string) Project {
	q := p.Clone()
	table := func(v string) string {
		if _, ok := DatasetName(v); ok || v == "" {
			return v
		}
		return f(v, true)
	}
	params := func(name string, vals model.Values) {
		m, err := catalog.Lookup(name)
		if err != nil {
			return
		}
		for _, ps := range m.Spec().Params {
			if v, ok := vals[ps.Name]; ok && ps.File && v != "" {
				vals[ps.Name] = f(v, false)
			}
		}
	}
	q.Input, q.Public, q.Population = table(q.Input), table(q.Public), table(q.Population)
	q.Exported = slices.Clone(q.Exported)
	for i := range q.Exported {
		q.Exported[i].Dir = f(q.Exported[i].Dir, true)
	}
	for attr, spec := range q.Hierarchies {
		if IsHierarchyFile(spec) {
			q.Hierarchies[attr] = f(spec, true)
		}
	}
	for attr, pin := range q.Pins {
		if pin.File != "" {
			pin.File = f(pin.File, true)
			q.Pins[attr] = pin
		}
	}
	params(q.Method, q.Params)
	for name, s := range q.Methods {
		s.Public = table(s.Public)
		params(name, s.Params)
		q.Methods[name] = s
	}
	return q
}

// IsHierarchyFile reports whether a hierarchy spec names a file rather
// than a builder (flat, masking, binary, ternary, intervals[:W], auto)
// or a dataset's embedded hierarchy.
func IsHierarchyFile(spec string) bool {
	name, _, _ := strings.Cut(spec, ":")
	switch strings.ToLower(name) {
	case "", "auto", "flat", "masking", "mask", "binary", "ternary", "intervals", "interval", "embedded":
		return false
	}
	return true
}

// relPath writes path v (relative to the working directory, or
// absolute) relative to dir; a value that need not be a file (always
// false) is a path only when the file is there.
func relPath(dir, v string, always bool) string {
	if !always && !isFile(v) {
		return v
	}
	abs, err := filepath.Abs(v)
	if err != nil {
		return v
	}
	if rel, err := filepath.Rel(dir, abs); err == nil {
		return rel
	}
	return abs
}

// resolvePath reads a path of a project file in dir: relative to dir,
// else (a project saved before paths were relative to it) relative to
// the working directory when the file is there; a value that need not
// be a file stays as it is unless the file is in dir.
func resolvePath(dir, v string, always bool) string {
	if filepath.IsAbs(v) {
		return v
	}
	cand := filepath.Join(dir, v)
	switch {
	case isFile(cand):
		return cand
	case isFile(v) || !always:
		return v
	}
	return cand
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// Clone deep-copies the project.
func (p Project) Clone() Project {
	q := p
	q.Columns = append([]string(nil), p.Columns...)
	if p.Columns == nil {
		q.Columns = nil
	}
	if p.MissingValues != nil {
		q.MissingValues = append([]string(nil), p.MissingValues...)
	}
	if p.PopulationColumns != nil {
		q.PopulationColumns = append([]string(nil), p.PopulationColumns...)
	}
	if p.Exported != nil {
		q.Exported = append([]ExportedRelease(nil), p.Exported...)
	}
	q.Roles = model.Roles{IDs: append([]string(nil), p.Roles.IDs...), QIs: append([]string(nil), p.Roles.QIs...), SA: p.Roles.SA}
	q.Kinds = cloneMap(p.Kinds)
	q.Hierarchies = cloneMap(p.Hierarchies)
	q.Pins = maps.Clone(p.Pins)
	q.Params = p.Params.Clone()
	q.Advisor = p.Advisor.Clone()
	if p.Methods != nil {
		q.Methods = make(map[string]Settings, len(p.Methods))
		for name, s := range p.Methods {
			s.Params = s.Params.Clone()
			q.Methods[name] = s
		}
	}
	return q
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Datasets resolves dataset:NAME inputs. The datasets package implements
// it; the pipeline does not import it so that algorithms depend on model
// alone.
type Datasets interface {
	LoadTable(name string, rows int, seed uint64) (*model.Table, error)
	// DefaultHierarchy is the dataset's hierarchy spec for a column ("" if none).
	DefaultHierarchy(name, column string) string
	// LoadHierarchy builds a spec that the dataset understands (embedded files).
	LoadHierarchy(name, spec string, col *model.Column) (*mhierarchy.Hierarchy, error)
	// Defaults returns the dataset's default roles and the parameter
	// values it suggests (applied to the methods that read them).
	Defaults(name string) (model.Roles, bool)
	// List describes every embedded dataset.
	List() []model.DatasetInfo
}

// Env carries what the pipeline needs from outside.
type Env struct {
	Datasets Datasets
	// SharedData is the folder of the real datasets kept beside the
	// project (UCI Adult in adult/), given to the methods' studies; ""
	// when there is none (the command line resolves it once, with
	// datasets.SharedDir).
	SharedData string
	// Cache keeps the population table and audit record last read and
	// the live workload's true answers, for the session or command that
	// owns this Env (nil: each is read or counted anew).
	Cache *Cache
}

// DatasetName returns NAME for an input "dataset:NAME".
func DatasetName(input string) (string, bool) {
	if strings.HasPrefix(input, "dataset:") {
		return strings.TrimPrefix(input, "dataset:"), true
	}
	return "", false
}

// LoadTable loads the project's input table.
func (e Env) LoadTable(p Project) (*model.Table, error) {
	return e.LoadTableContext(context.Background(), p)
}

// LoadTableContext loads the project's input table under a context:
// cancelling it (Ctrl-C, a newer load) stops the reading of a workbook or
// a database, with the context's error.
func (e Env) LoadTableContext(ctx context.Context, p Project) (*model.Table, error) {
	kinds := map[string]model.Kind{}
	for c, k := range p.Kinds {
		kind, err := model.ParseKind(k)
		if err != nil {
			return nil, &model.ParamError{Param: "kind", Value: c + "=" + k, Reason: err.Error()}
		}
		kinds[c] = kind
	}
	if name, ok := DatasetName(p.Input); ok {
		if e.Datasets == nil {
			return nil, &model.ParamError{Param: "in", Value: p.Input, Reason: "embedded datasets are not available here"}
		}
		t, err := e.Datasets.LoadTable(name, p.Rows, p.DataSeed)
		if err != nil {
			return nil, err
		}
		for c, k := range kinds {
			col := t.Column(c)
			if col == nil {
				return nil, &model.ParamError{Param: "kind", Value: c, Reason: "no such column", Hint: "columns are: " + strings.Join(t.Names(), ", ")}
			}
			if err := col.SetKind(k); err != nil {
				return nil, &model.ParamError{Param: "kind", Value: c, Reason: err.Error()}
			}
		}
		return t, nil
	}
	if p.Input == "" {
		return nil, &model.ParamError{Param: "in", Reason: "no input table", Fixes: []model.Fix{{Setting: model.SetInput}}}
	}
	var delim rune
	if p.Delimiter != "" {
		r := []rune(p.Delimiter)
		if p.Delimiter == `\t` || p.Delimiter == "tab" {
			r = []rune{'\t'}
		}
		if len(r) != 1 {
			return nil, &model.ParamError{Param: "delimiter", Value: p.Delimiter, Reason: "must be one character", Hint: "e.g. , ; | or tab"}
		}
		delim = r[0]
	}
	header, err := csvfile.ParseHeaderMode(p.Header)
	if err != nil {
		return nil, err
	}
	return source.LoadContext(ctx, p.Input, csvfile.LoadOptions{Header: p.Columns, HeaderRow: header, Kinds: kinds, MaxCell: p.MaxCell,
		Delimiter: delim, MissingTokens: p.MissingValues})
}

// WithDefaults fills what the user left open: the method (the first
// registered), the dataset's default roles, and the values the method
// declares for that dataset (method.Spec.ForDataset).
func (e Env) WithDefaults(p Project) Project {
	p = p.Clone()
	if p.Method == "" {
		p.Method = catalog.Names()[0]
	}
	if p.Params == nil {
		p.Params = model.Values{}
	}
	if name, ok := DatasetName(p.Input); ok && e.Datasets != nil {
		if roles, ok := e.Datasets.Defaults(name); ok {
			switch {
			case len(p.Roles.QIs) == 0 && p.Roles.SA == "":
				p.Roles = roles
			case len(p.Roles.QIs) == 0:
				// The user chose the sensitive attribute: the dataset's
				// other quasi-identifiers stay.
				for _, q := range roles.QIs {
					if q != p.Roles.SA {
						p.Roles.QIs = append(p.Roles.QIs, q)
					}
				}
				if p.Roles.IDs == nil {
					p.Roles.IDs = roles.IDs
				}
			}
		}
		if m, err := catalog.Lookup(p.Method); err == nil {
			for k, v := range m.Spec().ForDataset[name] {
				if _, reads := m.Spec().Param(k); reads {
					if _, set := p.Params[k]; !set {
						p.Params[k] = v
					}
				}
			}
		}
	}
	return p
}

// Prepared is a project resolved against its table: validated roles,
// built hierarchies, validated parameters. It is what a run reads.
type Prepared struct {
	Project Project
	// Source is the table as loaded; Table is after the missing-value policy.
	Source  *model.Table
	Table   *model.Table
	Dropped int
	// InputRow maps a row of Table to its row in Source.
	InputRow    []int
	Method      method.Method
	Values      model.Values
	Hierarchies map[string]*mhierarchy.Hierarchy
	// Public is the public table (nil unless the method reads one and the
	// project names it).
	Public *model.Table
	// Population is the project's population table, which the attacks
	// measured at export read (SPEC 3.7): loaded by LoadPopulation (the
	// export loads it when no one has), not on every preview.
	Population *model.Table
	// Pins are the hierarchies this run uses, each builder resolved for
	// its column (what a project saved now should record), and
	// PinWarnings how they differ from those the project pinned when it
	// was saved (issue 35.9): the command line prints them, the
	// workbench can show them.
	Pins        map[string]HierarchyPin
	PinWarnings []string
	// VariantNote says which variant ran when none was chosen and no
	// public table was given, for a method whose default variant joins
	// one (kja runs plain Mondrian, as the workbench does): the command
	// line prints it and the manifest's notes state it.
	VariantNote string
	// Whole is set when this is one partition of a partitioned run (SPEC
	// 3.9): the whole input's value counts, which the method reads for
	// its global figures (method.Input.Whole) and the export's check
	// holds them to (verify.Options.Whole).
	Whole *model.Whole
	// IDBase is added to the release's group identifiers
	// (method.Input.IDBase): a partition's range.
	IDBase int
	// PopulationMarginals are the value frequencies of a partitioned
	// run's whole population (WholeMarginals), which every partition is
	// attacked with, and their name (nil: not a partition, or none).
	PopulationMarginals     map[string]map[string]float64
	PopulationMarginalsName string
}

// Prepare resolves the project against a loaded table.
func (e Env) Prepare(p Project, src *model.Table) (*Prepared, error) {
	p = e.WithDefaults(p)
	m, err := catalog.Lookup(p.Method)
	if err != nil {
		return nil, err
	}
	spec := m.Spec()
	var variantNote string
	if p.Variant == "" && p.Public == "" && spec.NoPublicVariant != "" {
		p.Variant = spec.NoPublicVariant
		variantNote = fmt.Sprintf("no public table given: %s runs variant %s, as the workbench does (a public table lets the variants that join one run)",
			spec.Name, p.Variant)
	}
	if p.Variant != "" && !slices.Contains(spec.Variants, p.Variant) {
		hint := "this method has no variants"
		if len(spec.Variants) > 0 {
			hint = "variants: " + strings.Join(spec.Variants, ", ")
		}
		return nil, &model.ParamError{Param: "variant", Value: p.Variant, Reason: "unknown variant of " + spec.Name, Hint: hint}
	}
	if !spec.NeedsSA && p.Roles.SA != "" {
		// The method reads no sensitive attribute: the column is not used.
		p.Roles.SA = ""
	}
	if err := p.Roles.Validate(src, spec.NeedsSA); err != nil {
		return nil, err
	}
	p.Roles.QIs = TableOrder(src, p.Roles.QIs)
	if err := src.CheckMagnitudes(p.Input, p.Roles.Used()); err != nil {
		return nil, err
	}
	policy, err := model.ParseMissingPolicy(p.Missing)
	if err != nil {
		return nil, err
	}
	prep := &Prepared{Project: p, Source: src, Method: m, VariantNote: variantNote}
	prep.Table, prep.Dropped = src.HandleMissing(p.Roles.Used(), policy)
	if prep.Table.Rows == 0 {
		return nil, &model.ParamError{Param: "missing", Value: p.Missing, Reason: "every row has a missing value in a quasi-identifier or the sensitive attribute",
			Fixes: []model.Fix{{Setting: model.SetMissing, Value: "category", Why: "(categorical missing values are then kept as ?)"}}}
	}
	if prep.Dropped > 0 {
		prep.InputRow = keptRows(src, p.Roles.Used(), policy, prep.Table.Rows)
	}
	// An identifier names one person among the rows read (issue 31.6).
	if err := model.CheckIdentifiers(src, p.Input, p.Roles.IDs, prep.InputRow); err != nil {
		return nil, err
	}
	prep.Values, err = spec.Validate(p.Params, prep.Table.Rows)
	if err != nil {
		return nil, err
	}
	if prep.Public, err = e.loadPublic(p, spec, prep.Table, policy); err != nil {
		return nil, err
	}

	if prep.Public != nil {
		if err := prep.Public.CheckMagnitudes(p.Public, p.Roles.QIs); err != nil {
			return nil, err
		}
	}
	if prep.Hierarchies, err = e.hierarchies(p, src, prep.Table); err != nil {
		return nil, err
	}
	prep.Pins = e.Pins(p, prep.Table)
	prep.PinWarnings = pinWarnings(p.Pins, prep.Pins)
	return prep, nil
}

// keptRows is which input rows survived HandleMissing (kept of them):
// not those with a missing value in a used column the policy drops
// (every column under drop, numeric ones under category).
func keptRows(src *model.Table, used []string, policy model.MissingPolicy, kept int) []int {
	out := make([]int, 0, kept)
	cols, _ := src.MustColumns("qi", used)
rows:
	for r := 0; r < src.Rows; r++ {
		for _, c := range cols {
			if c.IsMissing(r) && (policy == model.DropMissing || c.Kind == model.Numeric) {
				continue rows
			}
		}
		out = append(out, r)
	}
	return out
}

// hierarchies builds the hierarchy of every used column of t, and
// refuses a hierarchy given for a column src does not have.
func (e Env) hierarchies(p Project, src, t *model.Table) (map[string]*mhierarchy.Hierarchy, error) {
	hs := map[string]*mhierarchy.Hierarchy{}
	for _, attr := range p.Roles.Used() {
		h, err := e.hierarchy(p, t.Column(attr), attr == p.Roles.SA)
		if err != nil {
			return nil, err
		}
		hs[attr] = h
	}
	for attr := range p.Hierarchies {
		if hs[attr] == nil && src.Column(attr) == nil {
			return nil, &model.ParamError{Param: "hierarchy", Value: attr, Reason: "no such column", Hint: "columns are: " + strings.Join(src.Names(), ", ")}
		}
	}
	return hs, nil
}

// loadPublic loads the public table of a method that reads one (see
// LoadPublic), or refuses one given to a method that reads none.
func (e Env) loadPublic(p Project, spec method.Spec, t *model.Table, policy model.MissingPolicy) (*model.Table, error) {
	if spec.Public == method.NoPublic {
		if p.Public != "" {
			return nil, &model.ParamError{Param: "public", Value: p.Public, Reason: "method " + spec.Name + " reads no public table",
				Fixes: []model.Fix{{Setting: model.SetPublic, Change: model.Leave}}}
		}
		return nil, nil
	}
	if p.Public == "" {
		if spec.Public == method.PublicRequired {
			return nil, &model.ParamError{Param: "public", Reason: "method " + spec.Name + " needs a public table",
				Hint: "a table with the same quasi-identifier columns", Fixes: []model.Fix{{Setting: model.SetPublic}}}
		}
		return nil, nil
	}
	return e.LoadPublic(p, t, policy)
}

// LoadPublic loads p.Public, the public table: the same loader and errors
// as the input, every QI present with the kind it has in t (the input or
// the original of a release), and the missing-value policy on the QIs.
// Settings that describe the input file alone (its column names, its row
// count) are not applied to it; a synthetic public table takes
// PublicRows and shares DataSeed. run and check both load it here.
func (e Env) LoadPublic(p Project, t *model.Table, policy model.MissingPolicy) (*model.Table, error) {
	q := Project{Input: p.Public, Rows: p.PublicRows, DataSeed: p.DataSeed, MaxCell: p.MaxCell, MissingValues: p.MissingValues}
	pub, err := e.LoadTable(q)
	if err != nil {
		return nil, err
	}
	for _, name := range append(append([]string(nil), p.Roles.QIs...), p.Roles.IDs...) {
		c := pub.Column(name)
		if c == nil {
			if p.Roles.Of(name) == model.Identifier {
				continue // an identifier joins the tables only when both have it
			}
			return nil, &model.InputError{File: p.Public, Line: 1, Msg: fmt.Sprintf("the public table has no quasi-identifier column %q", name),
				Hint: "its columns are: " + strings.Join(pub.Names(), ", ")}
		}
		want := c.Kind
		if tc := t.Column(name); tc != nil {
			want = tc.Kind
		}
		if c.Kind != want {
			if err := c.SetKind(want); err != nil {
				return nil, &model.InputError{File: p.Public, Line: 1, Msg: fmt.Sprintf("column %s is %s in the input but not in the public table: %v", name, want, err),
					Hint: "both tables must hold the same kinds of values"}
			}
		}
	}
	pub, _ = pub.HandleMissing(p.Roles.QIs, policy)
	if pub.Rows == 0 {
		return nil, &model.InputError{File: p.Public, Msg: "the public table has no row with every quasi-identifier present"}
	}
	return pub, nil
}

// hierarchy builds the hierarchy of one attribute: the user's spec, else
// the dataset's default, else binary for a numeric SA (as Koudas et al.
// 2009 use), flat for a categorical SA, and auto intervals / flat for QIs.
func (e Env) hierarchy(p Project, c *model.Column, isSA bool) (*mhierarchy.Hierarchy, error) {
	spec := e.HierarchySpec(p, c, isSA)
	name, isDataset := DatasetName(p.Input)
	var h *mhierarchy.Hierarchy
	var err error
	if strings.HasPrefix(spec, "embedded:") && isDataset && e.Datasets != nil {
		h, err = e.Datasets.LoadHierarchy(name, spec, c)
	} else {
		h, err = mhierarchy.Build(spec, c)
	}
	if err != nil {
		return nil, err
	}
	if _, err := h.MapColumn(c); err != nil {
		return nil, &model.ParamError{Param: "hierarchy " + c.Name, Value: spec, Reason: err.Error(),
			Hint: "the hierarchy must list every value of the column"}
	}
	return h, nil
}

// HierarchySpec is the hierarchy an attribute gets: the user's spec, else
// the dataset's default, else a file beside the data (FoundHierarchy),
// else binary for a numeric SA, flat for a categorical SA, auto for QIs.
// The workbench shows it and privlab run uses it: the same everywhere.
func (e Env) HierarchySpec(p Project, c *model.Column, isSA bool) string {
	spec := p.Hierarchies[c.Name]
	name, isDataset := DatasetName(p.Input)
	if spec == "" && isDataset && e.Datasets != nil {
		spec = e.Datasets.DefaultHierarchy(name, c.Name)
		if strings.HasPrefix(spec, "intervals") && c.Kind != model.Numeric {
			spec = "" // the user made the column categorical: the default no longer fits
		}
	}
	if spec == "" && !isDataset {
		spec = FoundHierarchy(p.Input, c.Name)
	}
	if spec == "" {
		switch {
		case isSA && c.Kind == model.Numeric:
			spec = "binary"
		case isSA:
			spec = "flat"
		default:
			spec = "auto"
		}
	}
	return spec
}

// FoundHierarchy is the hierarchy file beside a data file in the common
// layout DIR/STEM_hierarchy_COLUMN.csv (ARX writes hierarchies so, as in
// UCI Adult's adult.csv and adult_hierarchy_age.csv), or "" when there is
// none. The workbench and privlab run both use it when no hierarchy is set.
func FoundHierarchy(input, column string) string {
	if input == "" {
		return ""
	}
	dir, base := filepath.Split(source.Path(input))
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	path := filepath.Join(dir, stem+"_hierarchy_"+column+".csv")
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return path
	}
	return ""
}

// Input builds the method input.
func (p *Prepared) Input() *method.Input {
	return &method.Input{Table: p.Table, Public: p.Public, Roles: p.Project.Roles, Hierarchies: p.Hierarchies,
		Variant: p.Project.Variant, Values: p.Values, Whole: p.Whole, IDBase: p.IDBase}
}

// TableOrder returns the quasi-identifiers in the table's column order:
// a run reads them so, whatever order they were given in, so the order
// given never changes the groups (Mondrian's ties between equally wide
// dimensions, a partition's first split, go to the same column; issue 35
// polish: 399 groups became 397 with the order). Names the table lacks
// keep their place at the end (Validate refuses them before).
func TableOrder(t *model.Table, qis []string) []string {
	out := slices.Clone(qis)
	slices.SortStableFunc(out, func(a, b string) int {
		ia, ib := t.ColumnIndex(a), t.ColumnIndex(b)
		if ia < 0 {
			ia = len(t.Columns)
		}
		if ib < 0 {
			ib = len(t.Columns)
		}
		return ia - ib
	})
	return out
}
