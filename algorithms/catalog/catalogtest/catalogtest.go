// Package catalogtest helps the checkers' tests check a release the way
// the product does, with every method's declaration (catalog.Declared).
package catalogtest

import (
	"privlab/algorithms/catalog"
	"privlab/algorithms/verify"
)

// Check verifies the release in dir with its method's checker, holding
// the manifest's words about the method to its declaration.
func Check(dir string, opt verify.Options) (*verify.Report, error) {
	return verify.NewShared(dir).Check(opt, catalog.Declared)
}
