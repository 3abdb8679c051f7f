package distribution

import "context"

// SolveContext finds the P-private generalization of the group with the
// minimum sum of ranges using at most budget fake values (Problem 5.1).
// With budget 0 it is MinSumOfRange; otherwise minSORFake (Algorithm 2) is
// evaluated for k = 0..budget and the cheapest k is traced back to the
// actual fake values and subdomains. Ties go to fewer fakes. It stops with
// the context's error when the context is cancelled (the fake-value search
// can take long for large budgets).
func (s *Solver) SolveContext(ctx context.Context, leaves []int32, budget int) (*Generalization, error) {
	return s.solve(ctx, leaves, budget, nil)
}
