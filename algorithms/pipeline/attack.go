package pipeline

import (
	"fmt"
	"path/filepath"

	"privlab/algorithms/attack"
	"privlab/algorithms/catalog"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// AttackMethod is what the registry gives the attacks of a method.
func AttackMethod(name string) (attack.Method, bool) {
	e, ok := catalog.EntryOf(name)
	if !ok {
		return attack.Method{}, false
	}
	return attack.Method{View: e.View, Expose: e.Expose, Attack: e.Attack}, true
}

// Attack runs the attacks on the release in dir (privlab attack).
func Attack(dir string, k *risk.Knowledge) (*attack.Report, error) {
	rel, err := verify.Open(dir)
	if err != nil {
		return nil, err
	}
	m, ok := AttackMethod(rel.Manifest.Method)
	if !ok {
		return nil, &model.InputError{File: filepath.Join(dir, "manifest.json"), Msg: fmt.Sprintf("unknown method %q", rel.Manifest.Method)}
	}
	return attack.Run(rel, m, k)
}

// LoadPopulation loads a population table (--population): the same loader
// as the input, with columns named by --population-columns when the file
// has no header row.
func (e Env) LoadPopulation(path string, columns []string, maxCell int) (*model.Table, string, error) {
	t, err := e.LoadTable(Project{Input: path, Columns: columns, MaxCell: maxCell})
	if err != nil {
		return nil, "", err
	}
	return t, fmt.Sprintf("%s's %d people", filepath.Base(path), t.Rows), nil
}
