package ambiguity

import (
	"errors"
	"testing"

	"privlab/model"
)

// TestDecode: ambiguity's alpha and beta are read once into its Config,
// exactly; each bound names its own definition when refused.
func TestDecode(t *testing.T) {
	c, err := Decode(model.Values{"alpha": "0.25", "beta": "1/3"}, 10)
	var pe *model.ParamError
	if !errors.As(err, &pe) || pe.Param != "beta" {
		t.Fatalf("beta 1/3: %+v, %v", c, err)
	}
	if c, err = Decode(model.Values{"alpha": "0.25", "beta": "0.3333"}, 10); err != nil || c.Alpha.String() != "1/4" || c.Beta.String() != "3333/10000" {
		t.Fatalf("Decode: %+v, %v", c, err)
	}
	for name, why := range map[string]string{"alpha": "alpha-presence (Wang, Definition 4.1)", "beta": "beta-association (Wang, Definition 4.2)"} {
		if _, err := Decode(model.Values{name: "2"}, 10); !errors.As(err, &pe) || pe.Param != name || pe.Hint != "it is a probability bound: "+why {
			t.Errorf("%s 2: %v", name, err)
		}
	}
}
