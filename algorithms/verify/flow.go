package verify

// Flow is a small max-flow solver (Dinic's algorithm) for the matching
// checks: integer capacities, adjacency lists of edge indexes. Nodes and
// edges are indexed in 32 bits (a network of a 20,000-value group has
// ~100,000 edges; at 64 bits its lists were three quarters of a check's
// memory); capacities stay int.
type Flow struct {
	head  []int32
	to    []int32
	cap   []int
	next  []int32
	level []int32
	iter  []int32
	queue []int32 // bfs's
	path  []int32 // dfs's
}

// NewFlow returns an empty network.
func NewFlow() *Flow { return &Flow{} }

// Reset empties the network, keeping its memory for the next one (a
// checker solving one network per group allocates once, not per group).
func (f *Flow) Reset() {
	f.head, f.to, f.cap, f.next = f.head[:0], f.to[:0], f.cap[:0], f.next[:0]
}

// Grow makes room for about nodes more nodes and edges more edges, so
// that a network whose size is known (or bounded) is built without
// growing its lists step by step.
func (f *Flow) Grow(nodes, edges int) {
	f.head = grow(f.head, nodes)
	f.to, f.next = grow(f.to, 2*edges), grow(f.next, 2*edges)
	if need := len(f.cap) + 2*edges; need > cap(f.cap) {
		f.cap = append(make([]int, 0, need), f.cap...)
	}
}

// Node adds a node and returns its index.
func (f *Flow) Node() int {
	f.head = append(f.head, -1)
	return len(f.head) - 1
}

// Edge adds an edge u -> v of capacity c and returns its index (for
// Used).
func (f *Flow) Edge(u, v, c int) int {
	f.to = append(f.to, int32(v), int32(u))
	f.cap = append(f.cap, c, 0)
	f.next = append(f.next, f.head[u], f.head[v])
	f.head[u] = int32(len(f.to) - 2)
	f.head[v] = int32(len(f.to) - 1)
	return len(f.to) - 2
}

// Used is the flow MaxFlow sent along edge e (Edge's index): a matching
// is read from it.
func (f *Flow) Used(e int) int { return f.cap[e^1] }

func (f *Flow) bfs(s, t int) bool {
	f.level = slicesGrow(f.level, len(f.head))
	for i := range f.level {
		f.level[i] = -1
	}
	f.level[s] = 0
	q := append(f.queue[:0], int32(s))
	for head := 0; head < len(q); head++ {
		u := q[head]
		for e := f.head[u]; e >= 0; e = f.next[e] {
			if f.cap[e] > 0 && f.level[f.to[e]] < 0 {
				f.level[f.to[e]] = f.level[u] + 1
				q = append(q, f.to[e])
			}
		}
	}
	f.queue = q[:0]
	return f.level[t] >= 0
}

// dfs pushes flow along level-increasing paths (iterative, so deep
// networks cannot overflow the stack).
func (f *Flow) dfs(s, t int) int {
	total := 0
	for {
		// find one augmenting path with the current iterators
		path := f.path[:0]
		u := int32(s)
		for u != int32(t) {
			advanced := false
			for ; f.iter[u] >= 0; f.iter[u] = f.next[f.iter[u]] {
				e := f.iter[u]
				v := f.to[e]
				if f.cap[e] > 0 && f.level[v] == f.level[u]+1 {
					path = append(path, e)
					u = v
					advanced = true
					break
				}
			}
			if !advanced {
				if u == int32(s) {
					return total
				}
				// dead end: retreat and skip this edge
				f.level[u] = -1
				e := path[len(path)-1]
				path = path[:len(path)-1]
				u = f.to[e^1]
				f.iter[u] = f.next[f.iter[u]]
			}
		}
		push := int(^uint(0) >> 1)
		for _, e := range path {
			if f.cap[e] < push {
				push = f.cap[e]
			}
		}
		for _, e := range path {
			f.cap[e] -= push
			f.cap[e^1] += push
		}
		total += push
		f.path = path[:0]
	}
}

// MaxFlow returns the value of a maximum flow from s to t.
func (f *Flow) MaxFlow(s, t int) int {
	total := 0
	for f.bfs(s, t) {
		f.iter = append(f.iter[:0], f.head...)
		total += f.dfs(s, t)
	}
	return total
}

// slicesGrow is s with length n, its memory reused when large enough.
func slicesGrow(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n)
}

// grow is s with room for n more entries.
func grow(s []int32, n int) []int32 {
	if need := len(s) + n; need > cap(s) {
		return append(make([]int32, 0, need), s...)
	}
	return s
}
