package lossyjoin

import (
	"errors"
	"math/big"
	"testing"

	"privlab/model"
)

// TestDecode: lossyjoin's k and alpha are read once into its Config,
// alpha exactly as written (0.4999999999 is not 1/2).
func TestDecode(t *testing.T) {
	c, err := Decode(model.Values{"k": "3", "alpha": "0.4999999999", "seed": "9"}, 10)
	if err != nil || c.K != 3 || c.Alpha.Rat().Cmp(big.NewRat(4999999999, 10000000000)) != 0 || c.Seed != 9 {
		t.Fatalf("Decode: %+v, %v", c, err)
	}
	if c, err = Decode(nil, 10); err != nil || c.K != 2 || c.Alpha.String() != "33/100" {
		t.Fatalf("defaults: %+v, %v", c, err)
	}
	var pe *model.ParamError
	if _, err := Decode(model.Values{"alpha": "0"}, 10); !errors.As(err, &pe) || pe.Param != "alpha" ||
		pe.Hint != "it is a probability bound: (alpha,k)-anonymity (Wong et al., Definition 1)" {
		t.Fatalf("alpha 0: %v", err)
	}
}
