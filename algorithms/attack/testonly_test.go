package attack

// certain reports, per tuple, whether every maximum assignment of the
// pools' records to the people they cover (a person holds at most one
// record) places all the tuple's people in the data, after the people
// taken (per tuple) were placed on a record of their pool each (used, per
// pool): a maximum flow from the people to the pools' records, then the
// people the source still reaches in the residual network are those some
// maximum assignment leaves out (an even alternating path from a person
// left out, as in the Dulmage-Mendelsohn decomposition).
func (g *pools) certain(count, taken []int32, used []int) []bool {
	out, _ := g.certainReached(count, taken, used)
	return out
}
