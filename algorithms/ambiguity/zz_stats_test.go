package ambiguity

import (
	"context"
	"testing"

	"privlab/model"
)

func TestZZStats(t *testing.T) {
	for _, qis := range [][]string{{"age", "sex", "education", "marital-status"}, {"age", "sex", "education", "marital-status", "race", "workclass", "native-country"}} {
		for _, ab := range [][2]string{{"0.5", "0.25"}, {"0.2", "0.1"}, {"0.01", "0.25"}} {
			in := censusInput(t, 45000)
			in.Roles.QIs = qis
			in.Values = model.Values{"alpha": ab[0], "beta": ab[1]}
			res, err := Method{}.Run(context.Background(), in)
			if err != nil {
				t.Log(err)
				continue
			}
			r := &run{in: in}
			r.resolve()
			s := newScheme(in.Roles.QIs, in.Roles.SA, groupRows(res), r.qiCols, r.sa)
			sumJ := 0.0
			for g := 0; g < s.groups; g++ {
				sumJ += s.join(g)
			}
			// distinct tuples and sum of rarest list
			freq := make([]map[int32]int, len(qis))
			for i := range s.at {
				freq[i] = map[int32]int{}
				for _, c := range s.at[i].code {
					freq[i][c]++
				}
			}
			seen := map[string]bool{}
			sumS := 0
			for row := 0; row < in.Table.Rows; row++ {
				key := ""
				m := 1 << 30
				for i, c := range r.qiCols {
					key += string(rune(c.Codes[row])) + ","
					m = min(m, freq[i][int32(c.Codes[row])])
				}
				if !seen[key] {
					seen[key] = true
					sumS += m
				}
			}
			t.Logf("qis %d alpha %s beta %s: groups %d published %d distinct %d sumS %d sumJ %.0f", len(qis), ab[0], ab[1], s.groups, res.Published, len(seen), sumS, sumJ)
		}
	}
}
