// Package ui is the privlab workbench, a bubbletea application.
package ui

import (
	"errors"

	"privlab/algorithms/pipeline"
)

// Run opens the workbench on input (a CSV path, dataset:NAME, or "" for the
// default dataset).
func Run(env pipeline.Env, input string) error {
	return errors.New("the workbench is not built yet; use the subcommands (privlab help)")
}
