package attack_test

import (
	"testing"

	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/model"
)

// BenchmarkAttackAdult times privlab attack on a release of all 30,162
// rows of adult.csv with adult.data's 32,561 people as the population
// and adult.csv as the original, for every method (SPEC 3.7, issue 19:
// under a second each). The release is made and the tables loaded before
// the timer starts.
func BenchmarkAttackAdult(b *testing.B) {
	needAdult(b)
	pop, name := population(b)
	orig := load(b, adultCSV)
	roles := model.Roles{QIs: adultQIs, SA: "salary-class"}
	ljRoles := model.Roles{QIs: append(append([]string(nil), adultQIs[:len(adultQIs)-1]...), "salary-class"), SA: "occupation"}
	for _, c := range []struct {
		name string
		p    pipeline.Project
	}{
		{"distribution", pipeline.Project{Method: "distribution", Roles: roles}},
		{"kja", pipeline.Project{Method: "kja", Variant: "mondrian", Roles: roles}},
		{"lossyjoin", pipeline.Project{Method: "lossyjoin", Roles: ljRoles}},
		{"lossyjoin-alpha", pipeline.Project{Method: "lossyjoin", Variant: "alpha", Roles: ljRoles}},
		{"sampling", pipeline.Project{Method: "sampling", Roles: roles}},
		{"ambiguity", pipeline.Project{Method: "ambiguity", Roles: roles}},
	} {
		b.Run(c.name, func(b *testing.B) {
			dir := release(b, adultCSV, c.p)
			k := &risk.Knowledge{Original: orig, Population: pop, PopulationName: name}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := pipeline.Attack(dir, k); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAttackTogetherAdult times privlab attack DIR1 DIR2 on two
// releases of all of adult.csv (each attacked alone, then together) with
// adult.data as the population (SPEC 3.7 and issue 31's budget).
func BenchmarkAttackTogetherAdult(b *testing.B) {
	needAdult(b)
	pop, name := population(b)
	orig := load(b, adultCSV)
	roles := model.Roles{QIs: adultQIs, SA: "salary-class"}
	for _, c := range []struct {
		name string
		a, b pipeline.Project
	}{
		{"kja", pipeline.Project{Method: "kja", Variant: "mondrian", Roles: roles, Params: model.Values{"k": "5"}},
			pipeline.Project{Method: "kja", Variant: "mondrian", Roles: roles, Params: model.Values{"k": "10"}}},
		{"ambiguity", pipeline.Project{Method: "ambiguity", Roles: roles, Params: model.Values{"alpha": "0.5", "beta": "0.5"}},
			pipeline.Project{Method: "ambiguity", Roles: roles, Params: model.Values{"alpha": "0.4", "beta": "0.5"}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			dirs := []string{release(b, adultCSV, c.a), release(b, adultCSV, c.b)}
			k := &risk.Knowledge{Original: orig, Population: pop, PopulationName: name}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, _, err := pipeline.AttackTogether(dirs, k); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
