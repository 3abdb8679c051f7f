package catalog_test

import (
	"testing"

	ambiguityformat "privlab/algorithms/ambiguity/format"
	"privlab/algorithms/catalog"
	distributionformat "privlab/algorithms/distribution/format"
	kjaformat "privlab/algorithms/kja/format"
	lossyjoinformat "privlab/algorithms/lossyjoin/format"
	samplingformat "privlab/algorithms/sampling/format"
	"privlab/model"
)

// Every parameter a format package names for its method's reads (and its
// checker's reads of the manifest) is one the method declares, so a
// renamed declaration cannot leave a read that finds nothing.
func TestFormatParamsAreDeclared(t *testing.T) {
	t.Parallel()
	named := map[string][]string{
		"kja":          {string(kjaformat.ParamK), kjaformat.ParamSplit.Name(), kjaformat.ParamGrouping.Name()},
		"lossyjoin":    {string(lossyjoinformat.ParamK), lossyjoinformat.ParamAlpha.Name()},
		"ambiguity":    {ambiguityformat.ParamAlpha.Name(), ambiguityformat.ParamBeta.Name(), ambiguityformat.ParamGrouping.Name()},
		"distribution": {distributionformat.ParamTarget.Name(), distributionformat.ParamGrouping.Name(), string(distributionformat.ParamMaxDenominator), distributionformat.ParamFakes.Name()},
		"sampling": {samplingformat.ParamRate.Name(), samplingformat.ParamMaxDistortion.Name(), samplingformat.ParamMinGeneralization.Name(),
			samplingformat.ParamMarginals.Name()},
	}
	for method, names := range named {
		e, ok := catalog.EntryOf(method)
		if !ok {
			t.Fatalf("no method %s", method)
		}
		for _, name := range names {
			if _, ok := e.Method.Spec().Param(name); !ok {
				t.Errorf("%s: %q is read but not declared", method, name)
			}
		}
	}
	if got := (model.IntParam("k")).Of(model.Values{"k": "12"}); got != 12 {
		t.Errorf("IntParam.Of = %d, want 12", got)
	}
}
