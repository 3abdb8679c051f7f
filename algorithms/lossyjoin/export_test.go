package lossyjoin

import "privlab/algorithms/method"

// Hooks for the external tests.

// Compare is the study's comparison of the three variants.
var Compare = compare

// LiteralSQL is a's answerer by the literal SQL of Section 7 (nil when a
// does not answer on NSS and SS).
func LiteralSQL(a method.Answerer) method.Answerer {
	if x, ok := a.(*joinIndex); ok {
		return literalSQL{x}
	}
	return nil
}
