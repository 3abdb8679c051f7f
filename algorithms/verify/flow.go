package verify

// Flow is a small max-flow solver (Dinic's algorithm) for the matching
// checks: integer capacities, adjacency lists of edge indexes.
type Flow struct {
	head  []int
	to    []int
	cap   []int
	next  []int
	level []int
	iter  []int
	queue []int // bfs's
	path  []int // dfs's
}

// NewFlow returns an empty network.
func NewFlow() *Flow { return &Flow{} }

// Reset empties the network, keeping its memory for the next one (a
// checker solving one network per group allocates once, not per group).
func (f *Flow) Reset() {
	f.head, f.to, f.cap, f.next = f.head[:0], f.to[:0], f.cap[:0], f.next[:0]
}

// Node adds a node and returns its index.
func (f *Flow) Node() int {
	f.head = append(f.head, -1)
	return len(f.head) - 1
}

// Edge adds an edge u -> v of capacity c.
func (f *Flow) Edge(u, v, c int) {
	f.to = append(f.to, v, u)
	f.cap = append(f.cap, c, 0)
	f.next = append(f.next, f.head[u], f.head[v])
	f.head[u] = len(f.to) - 2
	f.head[v] = len(f.to) - 1
}

func (f *Flow) bfs(s, t int) bool {
	f.level = slicesGrow(f.level, len(f.head))
	for i := range f.level {
		f.level[i] = -1
	}
	f.level[s] = 0
	q := append(f.queue[:0], s)
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
		u := s
		for u != t {
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
				if u == s {
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
func slicesGrow(s []int, n int) []int {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int, n)
}
