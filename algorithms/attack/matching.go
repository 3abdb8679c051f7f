package attack

// flowNet is a flow network for Dinic's maximum flow (Dinic 1970): edge
// e runs from the node it was added at to to[e] with residual capacity
// cap[e], and e^1 is its reverse.
type flowNet struct {
	head, next, to, cap []int32
	level, iter         []int32
	queue               []int32
}

func newFlowNet(nodes, edges int) *flowNet {
	n := &flowNet{head: make([]int32, nodes), level: make([]int32, nodes), iter: make([]int32, nodes),
		next: make([]int32, 0, 2*edges), to: make([]int32, 0, 2*edges), cap: make([]int32, 0, 2*edges)}
	for i := range n.head {
		n.head[i] = -1
	}
	return n
}

// add adds an edge a -> b of capacity c (and its reverse, of none).
func (n *flowNet) add(a, b, c int32) {
	n.to = append(n.to, b, a)
	n.cap = append(n.cap, c, 0)
	n.next = append(n.next, n.head[a], n.head[b])
	e := int32(len(n.to) - 2)
	n.head[a], n.head[b] = e, e+1
}

// maxFlow pushes a maximum flow from s to t.
func (n *flowNet) maxFlow(s, t int32) int {
	total := 0
	for n.levels(s, t) {
		copy(n.iter, n.head)
		for {
			f := n.push(s, t, 1<<30)
			if f == 0 {
				break
			}
			total += int(f)
		}
	}
	return total
}

// levels numbers the nodes by their distance from s in the residual
// network (-1: unreached); false when t is unreached.
func (n *flowNet) levels(s, t int32) bool {
	for i := range n.level {
		n.level[i] = -1
	}
	n.level[s] = 0
	n.queue = append(n.queue[:0], s)
	for i := 0; i < len(n.queue); i++ {
		v := n.queue[i]
		for e := n.head[v]; e >= 0; e = n.next[e] {
			if w := n.to[e]; n.cap[e] > 0 && n.level[w] < 0 {
				n.level[w] = n.level[v] + 1
				n.queue = append(n.queue, w)
			}
		}
	}
	return n.level[t] >= 0
}

// push sends up to f from v to t along edges that go one level up,
// advancing each node's current edge past those that are used up.
func (n *flowNet) push(v, t, f int32) int32 {
	if v == t {
		return f
	}
	for ; n.iter[v] >= 0; n.iter[v] = n.next[n.iter[v]] {
		e := n.iter[v]
		w := n.to[e]
		if n.cap[e] <= 0 || n.level[w] != n.level[v]+1 {
			continue
		}
		if d := n.push(w, t, min(f, n.cap[e])); d > 0 {
			n.cap[e] -= d
			n.cap[e^1] += d
			return d
		}
	}
	return 0
}

// reached marks the nodes s reaches in the residual network.
func (n *flowNet) reached(s int32) []bool {
	seen := make([]bool, len(n.head))
	seen[s] = true
	n.queue = append(n.queue[:0], s)
	for i := 0; i < len(n.queue); i++ {
		v := n.queue[i]
		for e := n.head[v]; e >= 0; e = n.next[e] {
			if w := n.to[e]; n.cap[e] > 0 && !seen[w] {
				seen[w] = true
				n.queue = append(n.queue, w)
			}
		}
	}
	return seen
}

// pools are the groups of regions the data's records are counted in
// (risk.Exposure.PoolsOf; each region alone without them), with the
// pools each tuple of a population placed lies in and the people each
// covers.
type pools struct {
	records []int
	start   []int32 // tuple t's pools: of[start[t]:start[t+1]]
	of      []int32
	covered []int
}

func (g *pools) at(t int) []int32 { return g.of[g.start[t]:g.start[t+1]] }

// certainReached is certain, with the pools the source reaches in the
// residual network: a pool it does not reach covers only certain people.
func (g *pools) certainReached(count, taken []int32, used []int) ([]bool, []bool) {
	T, U := len(count), len(g.records)
	src, sink := int32(0), int32(T+U+1)
	n := newFlowNet(T+U+2, T+U+len(g.of))
	for t := range count {
		if c := count[t] - taken[t]; c > 0 && g.start[t+1] > g.start[t] {
			n.add(src, int32(1+t), c)
			for _, j := range g.at(t) {
				n.add(int32(1+t), int32(1+T)+j, c)
			}
		}
	}
	for j, r := range g.records {
		if c := r - used[j]; c > 0 {
			n.add(int32(1+T+j), sink, int32(c))
		}
	}
	n.maxFlow(src, sink)
	seen := n.reached(src)
	out := make([]bool, T)
	for t := range count {
		out[t] = taken[t] > 0 || count[t] > 0 && g.start[t+1] > g.start[t] && !seen[1+t]
	}
	return out, seen[1+T : 1+T+U]
}

// tight is the pools tuple t (certain) may hold a record of that the
// source does not reach (reached) and, closed under covering, the tuples
// they cover: people who are all certainly in the data.
func (g *pools) tight(t int, reached []bool, count int) (poolSet []int32, tuples []int32) {
	by := make([][]int32, len(g.records)) // pool -> tuples covering it
	for x := 0; x < count; x++ {
		for _, j := range g.at(x) {
			by[j] = append(by[j], int32(x))
		}
	}
	inPool, inTuple := make([]bool, len(g.records)), make([]bool, count)
	inTuple[t] = true
	tuples = []int32{int32(t)}
	for i := 0; i < len(tuples); i++ {
		for _, j := range g.at(int(tuples[i])) {
			if reached[j] || inPool[j] {
				continue
			}
			inPool[j] = true
			poolSet = append(poolSet, j)
			for _, y := range by[j] {
				if !inTuple[y] {
					inTuple[y] = true
					tuples = append(tuples, y)
				}
			}
		}
	}
	return poolSet, tuples
}
