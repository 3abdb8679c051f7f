package ambiguity

import (
	"context"
	"errors"
	"testing"

	"privlab/model"
)

// TestBoundsExact: alpha-presence and beta-association are decided on
// counts against the decimals the user wrote (issue 18.5). The only
// group TestParkAndContinue's table allows has presence 2/(2x2) = 1/2:
// alpha = 0.49999999999999999999 (whose float64 is 0.5) refuses it.
// beta = 0.3333333333333333 is below 1/3, so a group needs
// ceil(1/beta) = 4 distinct sensitive values: a table of 3 is refused,
// where groups of 3 at association 1/3 passed.
func TestBoundsExact(t *testing.T) {
	cases := []struct {
		rows, alpha, beta, param string
	}{
		{"1,x,a\n1,x,b\n1,y,b\n2,y,a\n", "0.5", "0.5", ""},
		{"1,x,a\n1,x,b\n1,y,b\n2,y,a\n", "0.49999999999999999999", "0.5", "alpha"},
		{"1,x,a\n2,y,b\n3,z,c\n4,w,a\n5,v,b\n6,u,c\n", "1", "0.34", ""},
		{"1,x,a\n2,y,b\n3,z,c\n4,w,a\n5,v,b\n6,u,c\n", "1", "0.3333333333333333", "beta"},
	}
	for _, c := range cases {
		res, err := Method{}.Run(context.Background(), smallInput(t, c.rows, c.alpha, c.beta))
		var pe *model.ParamError
		switch {
		case c.param == "" && (err != nil || !res.Satisfied()):
			t.Errorf("alpha %s beta %s: %v", c.alpha, c.beta, err)
		case c.param != "" && (!errors.As(err, &pe) || pe.Param != c.param):
			t.Errorf("alpha %s beta %s: %v, want a refusal naming %s", c.alpha, c.beta, err, c.param)
		}
	}
	for beta, g := range map[string]int{"0.5": 2, "0.34": 3, "0.3333333333333333": 4, "0.3333333333333334": 3, "0.25": 4, "1": 1} {
		if got := ceilInv(model.Values{"beta": beta}.Bound("beta")); got != g {
			t.Errorf("ceil(1/%s) = %d, want %d", beta, got, g)
		}
	}
}
