package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"privlab/model"
	"privlab/model/releasedir"
)

// AdvisorSeed is the seed the advisor's points run with when the
// project fixes none: every point is to be made again with the same
// figures.
const AdvisorSeed = "1"

// MapSeed is the seed the advisor's points run with: the project's when
// it is fixed, else AdvisorSeed (a project with no seed, or "random" as
// the workbench saves an unset seed, maps alike).
func (p Project) MapSeed() string {
	if s := p.Params[model.SeedParam.Name]; s != "" {
		if _, fixed, err := model.ParseSeed(s); err == nil && fixed {
			return s
		}
	}
	return AdvisorSeed
}

// AdvisorMap is the risk-utility map saved in the project file: every
// point the advisor computed (algorithms/advise), the point adopted, and
// the digest of the settings it was computed for, so that a reopened
// project knows whether its map is stale (AdvisorDigest).
type AdvisorMap struct {
	// Digest is AdvisorDigest of the project the map was computed for.
	Digest string `json:"digest"`
	// Risk is the risk measure the points were judged by (advise.RiskNames).
	Risk string `json:"risk,omitempty"`
	// Points are the points in the order they were computed.
	Points []AdvisorPoint `json:"points"`
	// Adopted is the index of the point adopted, nil for none.
	Adopted *int `json:"adopted,omitempty"`
}

// AdvisorPoint is one point of the map, its figures as privlab advise
// --json writes them (a figure not measured is null).
type AdvisorPoint struct {
	Method string `json:"method"`
	// Params are the parameters as the command line spells them, the
	// variant among them (variant=...).
	Params       model.Values `json:"params"`
	Holds        bool         `json:"holds"`
	Risk         *float64     `json:"risk"`
	RiskInterval [2]*float64  `json:"risk_interval"`
	Attack       string       `json:"attack,omitempty"`
	Loss         *float64     `json:"loss"`
	Front        bool         `json:"front"`
	// Error says why the point could not run.
	Error string `json:"error,omitempty"`
}

// Clone deep-copies the map (nil stays nil).
func (m *AdvisorMap) Clone() *AdvisorMap {
	if m == nil {
		return nil
	}
	q := *m
	q.Points = make([]AdvisorPoint, len(m.Points))
	for i, pt := range m.Points {
		pt.Params = pt.Params.Clone()
		for _, f := range []**float64{&pt.Risk, &pt.RiskInterval[0], &pt.RiskInterval[1], &pt.Loss} {
			if *f != nil {
				v := **f
				*f = &v
			}
		}
		q.Points[i] = pt
	}
	if m.Adopted != nil {
		a := *m.Adopted
		q.Adopted = &a
	}
	return &q
}

// AdoptedPoint is the adopted point, if any.
func (m *AdvisorMap) AdoptedPoint() (AdvisorPoint, bool) {
	if m == nil || m.Adopted == nil || *m.Adopted < 0 || *m.Adopted >= len(m.Points) {
		return AdvisorPoint{}, false
	}
	return m.Points[*m.Adopted], true
}

// Stale reports whether the map was computed for other settings than
// the project's (a map of no digest is stale).
func (m *AdvisorMap) Stale(p Project) bool {
	return m == nil || m.Digest == "" || m.Digest != p.AdvisorDigest()
}

// advisorInputs are the settings every point of the map reads: the
// input and how it is read, the roles (QIs, sensitive attribute,
// identifiers), the hierarchies, the public tables, the population, the
// risk threshold and the seed. The method and its parameters are not
// among them: the map spans every method over its own grid. The public
// tables are those of every method (with their sizes), as Switch moves
// one between the current method and Methods: adopting a point of
// another method does not make the map stale.
type advisorInputs struct {
	Input             string            `json:"input"`
	Rows              int               `json:"rows"`
	DataSeed          uint64            `json:"data_seed"`
	Columns           []string          `json:"columns"`
	Header            string            `json:"header"`
	MissingValues     []string          `json:"missing_values"`
	Delimiter         string            `json:"delimiter"`
	Kinds             map[string]string `json:"kinds"`
	Missing           string            `json:"missing"`
	MaxCell           int               `json:"max_cell"`
	Roles             model.Roles       `json:"roles"`
	Hierarchies       map[string]string `json:"hierarchies"`
	Public            []string          `json:"public"`
	Population        string            `json:"population"`
	PopulationColumns []string          `json:"population_columns"`
	RiskThreshold     float64           `json:"risk_threshold"`
	Seed              string            `json:"seed"`
}

// AdvisorDigest is the SHA-256 (hex) of the settings the advisor's map
// depends on (advisorInputs). The seed is the one the points run with
// (MapSeed: the current method's when fixed, so an unset seed and the
// "random" a saved project writes for it are the same map): whoever
// adopts a point of another method carries the seed over, as the
// point's figures were made with it. Files are named by their absolute paths,
// so the same project gives the same digest whether it was just
// written or opened again from its file (whose paths are relative to it).
func (p Project) AdvisorDigest() string {
	q := p.mapPaths(func(v string, always bool) string {
		if !always && !isFile(v) {
			return v
		}
		if abs, err := filepath.Abs(v); err == nil {
			return abs
		}
		return v
	})
	in := advisorInputs{Input: q.Input, Rows: q.Rows, DataSeed: q.DataSeed, Columns: q.Columns, Header: q.Header,
		MissingValues: q.MissingValues, Delimiter: q.Delimiter, Kinds: q.Kinds, Missing: q.Missing, MaxCell: q.MaxCell,
		Roles: q.Roles, Hierarchies: q.Hierarchies, Public: q.publicTables(), Population: q.Population,
		PopulationColumns: q.PopulationColumns, RiskThreshold: q.RiskThreshold, Seed: q.MapSeed()}
	b, err := json.Marshal(in)
	if err != nil {
		panic(err) // strings, numbers and maps of strings always marshal
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// publicTables are the public tables the project names, for the current
// method or another, each with its size, sorted and without repeats.
func (p Project) publicTables() []string {
	var out []string
	add := func(table string, rows int) {
		if table != "" {
			out = append(out, fmt.Sprintf("%s rows=%d", table, rows))
		}
	}
	add(p.Public, p.PublicRows)
	for _, s := range p.Methods {
		add(s.Public, s.PublicRows)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// AdvisorExport is the risk-utility map an export states (Note: the
// measure, the counts, the adopted point; Export fills in Map) and draws
// (Write writes the picture to a path: advise.WriteSVG).
type AdvisorExport struct {
	Note  releasedir.AdvisorNote
	Write func(path string) error
}

// note is the manifest's advisor section for release dir (nil without a map).
func (a *AdvisorExport) note(dir string) *releasedir.AdvisorNote {
	if a == nil {
		return nil
	}
	n := a.Note
	n.Map = filepath.Base(releasedir.AdvisorMapPath(dir))
	if n.Adopted != nil {
		adopted := *n.Adopted
		adopted.Params = maps.Clone(n.Adopted.Params)
		n.Adopted = &adopted
	}
	return &n
}

// draw writes the map's picture beside the release in place; without a
// map, a picture an earlier release of dir left there goes, so that no
// map the report does not name stands beside the release.
func (a *AdvisorExport) draw(dir string) error {
	path := releasedir.AdvisorMapPath(dir)
	if a == nil {
		if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
			return os.Remove(path)
		}
		return nil
	}
	if err := a.Write(path); err != nil {
		return fmt.Errorf("the release is written to %s, but its risk-utility map beside it is not: %w", dir, err)
	}
	return nil
}
