package ambiguity

// calPPro is Algorithm 3 for the group under construction: the buckets it
// covers on S over the product of the buckets it covers on every QI. Every
// sensitive value occurs once in a group Algorithm 2 builds, so this is
// Theorem 5.1's |G| / prod_i |G_ATi|.
func (b *builder) calPPro() float64 {
	j := 1.0
	for i := range b.vset {
		j *= float64(len(b.vset[i]))
	}
	return float64(len(b.members)) / j
}
