package check

import (
	"encoding/binary"

	"privlab/algorithms/verify"
	"privlab/model"
)

// Faithfulness without the audit record. A sampling release is faithful
// when its published rows can be given distinct original rows, each
// published value covering the record's own value (at least the minimum
// generalization's levels above it, or the root) and the sensitive value
// being the record's. That is a bipartite b-matching, decided here by a
// maximum flow (verify.Flow) over distinct value combinations, not rows:
// published (generalized tuple, sensitive value) with their counts on one
// side, original (leaf tuple, sensitive value) with theirs on the other,
// an edge where the first covers the second. A record has one sensitive
// value, so the flow splits into one network per sensitive value.

// combos counts distinct tuples of node ids (a key per tuple, in order of
// first appearance).
type combos struct {
	index map[string]int32
	nodes [][]int32
	count []int
	key   []byte
	// rowSum sums the original rows of each combination (originals).
	rowSum []float64
}

func newCombos() *combos { return &combos{index: map[string]int32{}} }

// addRow adds original row row of the combination nodes.
func (c *combos) addRow(nodes []int32, row int) {
	id := c.add(nodes)
	for len(c.rowSum) <= int(id) {
		c.rowSum = append(c.rowSum, 0)
	}
	c.rowSum[id] += float64(row)
}

func (c *combos) add(nodes []int32) int32 {
	c.key = c.key[:0]
	for _, x := range nodes {
		c.key = binary.LittleEndian.AppendUint32(c.key, uint32(x))
	}
	key := c.key
	id, ok := c.index[string(key)]
	if !ok {
		id = int32(len(c.nodes))
		c.index[string(key)] = id
		c.nodes = append(c.nodes, append([]int32(nil), nodes...))
		c.count = append(c.count, 0)
	}
	c.count[id]++
	return id
}

// bySA groups combos by sensitive value.
type bySA map[string]*combos

func (b bySA) add(sa string, nodes []int32) int32 {
	c := b[sa]
	if c == nil {
		c = newCombos()
		b[sa] = c
	}
	return c.add(nodes)
}

// published groups the rows of published.csv (QIs as taxonomy nodes;
// every label is a node, Check has made sure), and gives each row's
// combination among its sensitive value's.
func published(t *model.Table, trees []*tree) (bySA, []int32) {
	d := len(trees)
	node := make([][]int32, d) // per QI, per dictionary code
	for i, tr := range trees {
		for _, label := range t.Columns[i].Dict {
			node[i] = append(node[i], int32(tr.byLabel[label]))
		}
	}
	out := bySA{}
	at := make([]int32, t.Rows)
	nodes := make([]int32, d)
	for row := 0; row < t.Rows; row++ {
		for i, tr := range trees {
			if code := t.Columns[i].Codes[row]; code != model.Missing {
				nodes[i] = node[i][code]
			} else {
				nodes[i] = int32(tr.byLabel[""])
			}
		}
		at[row] = out.add(t.Columns[d].Value(row), nodes)
	}
	return out, at
}

// originals groups the eligible original rows by their leaves; rows with
// a value outside a taxonomy cannot be published and are left out. Each
// column's distinct values are looked up once.
func originals(o *verify.Original, eligible []int, trees []*tree) bySA {
	leafOf := func(i int, row int) int32 {
		text, _ := o.Text(o.QIs[i], row)
		if l, ok := trees[i].leaf(text); ok {
			return int32(l)
		}
		return -1
	}
	leaves := make([][]int32, len(trees)) // per QI, per dictionary code
	for i, col := range o.QIs {
		leaves[i] = make([]int32, len(col.Dict))
		for c := range col.Dict {
			leaves[i][c] = -2 // not looked up yet
		}
	}
	bySACode := map[uint32]*combos{}
	nodes := make([]int32, len(trees))
rows:
	for _, row := range eligible {
		for i, col := range o.QIs {
			code := col.Codes[row]
			l := int32(-1)
			switch {
			case code == model.Missing:
				l = leafOf(i, row)
			case leaves[i][code] == -2:
				leaves[i][code] = leafOf(i, row)
				l = leaves[i][code]
			default:
				l = leaves[i][code]
			}
			if l < 0 {
				continue rows
			}
			nodes[i] = l
		}
		c := bySACode[o.SA.Codes[row]]
		if c == nil {
			c = newCombos()
			bySACode[o.SA.Codes[row]] = c
		}
		c.addRow(nodes, row)
	}
	out := bySA{}
	for code, c := range bySACode {
		text := "?"
		if code != model.Missing {
			text = o.SA.Dict[code]
		}
		out[text] = c
	}
	return out
}

// trie indexes published tuples by node, QI after QI: child[node id at
// this level | parent trie node] is the next trie node; at the last level
// it is the published tuple's index.
type trie struct {
	child map[uint64]int32
	next  int32
}

func newTrie(c *combos) *trie {
	t := &trie{child: map[uint64]int32{}, next: 1}
	for p, nodes := range c.nodes {
		at := int32(0)
		for q, x := range nodes {
			key := uint64(at)<<32 | uint64(uint32(x))
			if q == len(nodes)-1 {
				t.child[key] = int32(p)
				break
			}
			n, ok := t.child[key]
			if !ok {
				n = t.next
				t.next++
				t.child[key] = n
			}
			at = n
		}
	}
	return t
}

// covering calls fn with every published tuple that covers the leaves:
// per QI an ancestor-or-self of the leaf, at least mg[q] levels above it
// unless it is the root (strict), or any (loose).
func (t *trie) covering(trees []*tree, mg []int, leaves []int32, fn func(p int32)) {
	var walk func(q int, at int32)
	walk = func(q int, at int32) {
		tr := trees[q]
		l := int(leaves[q])
		for x := l; x >= 0; x = tr.nodes[x].Parent {
			if mg != nil && x != 0 && tr.depth[l]-tr.depth[x] < mg[q] {
				continue
			}
			n, ok := t.child[uint64(at)<<32|uint64(uint32(x))]
			if !ok {
				continue
			}
			if q == len(leaves)-1 {
				fn(n)
			} else {
				walk(q+1, n)
			}
		}
	}
	if len(leaves) > 0 {
		walk(0, 0)
	}
}

// matched is the largest number of published rows of one sensitive value
// that distinct original rows of that value can take.
func matched(pub, orig *combos, trees []*tree, mg []int) int {
	if orig == nil {
		return 0
	}
	tr := newTrie(pub)
	f := verify.NewFlow()
	src, sink := f.Node(), f.Node()
	pn := make([]int, len(pub.nodes))
	for p := range pub.nodes {
		pn[p] = f.Node()
		f.Edge(pn[p], sink, pub.count[p])
	}
	for o, leaves := range orig.nodes {
		on := -1
		tr.covering(trees, mg, leaves, func(p int32) {
			if on < 0 {
				on = f.Node()
				f.Edge(src, on, orig.count[o])
			}
			f.Edge(on, pn[p], min(orig.count[o], pub.count[p]))
		})
	}
	return f.MaxFlow(src, sink)
}

// flowOver sums matched over the sensitive values.
func flowOver(pub, orig bySA, trees []*tree, mg []int) int {
	total := 0
	for sa, p := range pub {
		total += matched(p, orig[sa], trees, mg)
	}
	return total
}

// combos counts the distinct value combinations of every sensitive
// value.
func (b bySA) combos() int {
	n := 0
	for _, c := range b {
		n += len(c.nodes)
	}
	return n
}

// contentKeys gives each published row the mean input row of the
// original rows its values cover with its sensitive value: a function of
// the row's content alone, so under a uniform shuffle of the file the
// keys fall in a uniformly random order, while a file in the input's
// order puts them close to it (verify.OrderLinked). at is each row's
// combination (published).
func contentKeys(t *model.Table, pub bySA, at []int32, orig bySA, trees []*tree) []float64 {
	mean := map[string][]float64{}
	for sa, p := range pub {
		sum, count := make([]float64, len(p.nodes)), make([]int, len(p.nodes))
		if o := orig[sa]; o != nil {
			tr := newTrie(p)
			for oi, leaves := range o.nodes {
				tr.covering(trees, nil, leaves, func(pi int32) {
					sum[pi] += o.rowSum[oi]
					count[pi] += o.count[oi]
				})
			}
		}
		for i := range sum {
			if count[i] > 0 {
				sum[i] /= float64(count[i])
			}
		}
		mean[sa] = sum
	}
	keys := make([]float64, t.Rows)
	saCol := t.Columns[len(trees)]
	for row := range keys {
		keys[row] = mean[saCol.Value(row)][at[row]]
	}
	return keys
}
