package check

import (
	"encoding/binary"

	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// Faithfulness of generalized.csv without the audit record: its rows
// must go to distinct original records whose values their labels cover,
// with their sensitive value. A maximum flow decides it over distinct
// combinations, not rows: published (label tuple, sensitive value) and
// original (value tuple, sensitive value) with their counts, an edge
// where the labels cover the values. The edges are found through a trie
// of the published label tuples walked along the labels that hold each
// original value (a value's labels nest, so they are few), one network
// per sensitive value.

// labelCombos counts distinct tuples of label (or value) ids.
type labelCombos struct {
	index map[string]int32
	ids   [][]int32
	count []int
	key   []byte
}

func (c *labelCombos) add(ids []int32) {
	c.key = c.key[:0]
	for _, x := range ids {
		c.key = binary.LittleEndian.AppendUint32(c.key, uint32(x))
	}
	i, ok := c.index[string(c.key)]
	if !ok {
		i = int32(len(c.ids))
		c.index[string(c.key)] = i
		c.ids = append(c.ids, append([]int32(nil), ids...))
		c.count = append(c.count, 0)
	}
	c.count[i]++
}

type combosBySA map[string]*labelCombos

func (b combosBySA) add(sa string, ids []int32) {
	if b[sa] == nil {
		b[sa] = &labelCombos{index: map[string]int32{}}
	}
	b[sa].add(ids)
}

// labelIndex numbers one quasi-identifier's labels and finds the labels
// holding a value (by text, or by number in a numeric domain).
type labelIndex struct {
	id    map[string]int32
	byVal map[string][]int32
	byNum map[float64][]int32
}

func newLabelIndex(d *domain) *labelIndex {
	ix := &labelIndex{id: map[string]int32{}, byVal: map[string][]int32{}, byNum: map[float64][]int32{}}
	for l, vs := range d.values {
		id := int32(len(ix.id))
		ix.id[l] = id
		for _, v := range vs {
			ix.byVal[v] = append(ix.byVal[v], id)
			if x, ok := model.ParseNumber(v); ok && d.numeric {
				ix.byNum[x] = append(ix.byNum[x], id)
			}
		}
	}
	return ix
}

// holders are the labels that cover value v (domain.covers).
func (ix *labelIndex) holders(v string) []int32 {
	if ls, ok := ix.byVal[v]; ok {
		return ls
	}
	if x, ok := model.ParseNumber(v); ok {
		return ix.byNum[x]
	}
	return nil
}

// genMatched is the largest number of generalized.csv rows that distinct
// original records can take, and the combinations on either side.
func genMatched(m *releasedir.Manifest, gen *model.Table, doms map[string]*domain, o *verify.Original) (matched, pubN, origN int) {
	nq := len(m.QIs)
	ixs := make([]*labelIndex, nq)
	for q, name := range m.QIs {
		ixs[q] = newLabelIndex(doms[name])
	}
	pub := combosBySA{}
	ids := make([]int32, nq)
	for row := 0; row < gen.Rows; row++ {
		for q := range ids {
			id, ok := ixs[q].id[gen.Columns[q].Value(row)]
			if !ok {
				id = -1 // no such label: it covers nothing
			}
			ids[q] = id
		}
		pub.add(gen.Columns[nq].Value(row), ids)
	}
	// Original records: per QI the index of their value's labels, looked
	// up once per value.
	holders := make([][][]int32, nq)
	idOf := make([][]int32, nq)
	for q, col := range o.QIs {
		texts := o.Texts(col)
		idOf[q] = make([]int32, len(texts))
		seen := map[string]int32{}
		for code, v := range texts {
			id, ok := seen[v]
			if !ok {
				id = int32(len(holders[q]))
				seen[v] = id
				holders[q] = append(holders[q], ixs[q].holders(v))
			}
			idOf[q][code] = id
		}
	}
	orig := combosBySA{}
	for row, kept := range o.Kept {
		if !kept {
			continue
		}
		for q, col := range o.QIs {
			ids[q] = idOf[q][verify.Code(col, row)]
		}
		sa, _ := o.Text(o.SA, row)
		orig.add(sa, ids)
	}
	for sa, p := range pub {
		pubN += len(p.ids)
		if c := orig[sa]; c != nil {
			matched += matchLabels(p, c, holders)
		}
	}
	for _, c := range orig {
		origN += len(c.ids)
	}
	return matched, pubN, origN
}

// matchLabels is the maximum flow of one sensitive value: source ->
// original combination (its records) -> published combination covering
// it -> sink (its rows).
func matchLabels(pub, orig *labelCombos, holders [][][]int32) int {
	trie := map[uint64]int32{} // parent trie node << 32 | label id -> node (at the last QI: the published combination)
	next := int32(1)
	for p, ids := range pub.ids {
		at := int32(0)
		for q, id := range ids {
			key := uint64(at)<<32 | uint64(uint32(id))
			if q == len(ids)-1 {
				trie[key] = int32(p)
				break
			}
			n, ok := trie[key]
			if !ok {
				n, next = next, next+1
				trie[key] = n
			}
			at = n
		}
	}
	f := verify.NewFlow()
	src, sink := f.Node(), f.Node()
	pn := make([]int, len(pub.ids))
	for p := range pub.ids {
		pn[p] = f.Node()
		f.Edge(pn[p], sink, pub.count[p])
	}
	var walk func(o int, q int, at int32, on *int)
	walk = func(o int, q int, at int32, on *int) {
		ids := orig.ids[o]
		for _, l := range holders[q][ids[q]] {
			n, ok := trie[uint64(at)<<32|uint64(uint32(l))]
			switch {
			case !ok:
			case q < len(ids)-1:
				walk(o, q+1, n, on)
			default:
				if *on < 0 {
					*on = f.Node()
					f.Edge(src, *on, orig.count[o])
				}
				f.Edge(*on, pn[n], min(orig.count[o], pub.count[n]))
			}
		}
	}
	for o := range orig.ids {
		on := -1
		if len(orig.ids[o]) > 0 {
			walk(o, 0, 0, &on)
		}
	}
	return f.MaxFlow(src, sink)
}
