package distribution

import (
	"testing"

	"privlab/model"
)

// TestDecode: distribution's parameters are read once into its Config:
// the target, the grouping and the fake budget parsed, the denominator a
// number.
func TestDecode(t *testing.T) {
	c, err := Decode(model.Values{paramTarget: "table", paramMaxDen: "4", paramGrouping: "mondrian:3", paramFakes: "10%"}, 10)
	if err != nil || c.Target.Kind != TargetTable || c.MaxDenominator != 4 || c.Grouping.String() != "mondrian:3" ||
		!c.Fakes.IsPercent || c.Fakes.Percent != 10 {
		t.Fatalf("Decode: %+v, %v", c, err)
	}
	if _, err := Decode(model.Values{paramFakes: "-1"}, 10); err == nil {
		t.Fatal("fakes -1 is accepted")
	}
}
