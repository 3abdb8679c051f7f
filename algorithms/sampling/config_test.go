package sampling

import (
	"testing"

	"privlab/model"
)

// TestDecode: sampling's rate and delta' are read once into its Config,
// exactly, with the paper's defaults (Sattar et al., Section 6).
func TestDecode(t *testing.T) {
	c, err := Decode(model.Values{paramRate: "0.7", paramMaxDist: "0.25", "seed": "5"}, 10)
	if err != nil || c.Rate.String() != "7/10" || c.MaxDistortion.String() != "1/4" || c.Seed != 5 {
		t.Fatalf("Decode: %+v, %v", c, err)
	}
	if c, err = Decode(nil, 10); err != nil || c.Rate.String() != "9/10" || c.MaxDistortion.String() != "3/5" {
		t.Fatalf("defaults: %+v, %v", c, err)
	}
	if _, err := Decode(model.Values{paramMaxDist: "1.5"}, 10); err == nil {
		t.Fatal("max-distortion 1.5 is accepted")
	}
}
