package lossyjoin

import (
	"container/heap"
	"context"
	"fmt"

	"privlab/algorithms/lossyjoin/format"
	"privlab/model"
)

// anatomize forms the QI-groups of Anatomy (Xiao and Tao, VLDB 2006,
// Section 5, Figure 3), the baseline Wong et al. compare with in Section 7:
// the tuples are hashed into buckets by sensitive value; while at least l
// buckets are non-empty, a group takes one tuple from each of the l
// largest; each of the at most l-1 residual tuples joins a group that
// lacks its value. Groups are formed with no regard to the QI values (the
// tuple taken from a bucket is a random one), which is what Section 7
// contrasts with the top-down specialization.
//
// With l = ceil(1/alpha) every group holds l (or l+1) distinct values, so
// no value exceeds 1/l <= alpha of a group. When l < k, consecutive groups
// are merged until each holds at least k tuples; a merge of groups whose
// values are all distinct keeps every value's share at most 1/l. So the
// groups satisfy the same (alpha,k) as the other variants.
func anatomize(ctx context.Context, p *problem, rows []int32, l int, rng *model.Rand, values []string) ([][]int32, error) {
	buckets := make([][]int32, p.m)
	for _, r := range rows {
		buckets[p.sa[r]] = append(buckets[p.sa[r]], r)
	}
	if err := p.anatomyEligible(buckets, len(rows), l, values); err != nil {
		return nil, err
	}
	for _, b := range buckets {
		rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	}
	groups, residues, err := takeLargest(ctx, buckets, l)
	if err != nil {
		return nil, err
	}
	if err := p.placeResidues(groups, residues, buckets, rng); err != nil {
		return nil, err
	}
	if l >= p.k {
		return groups, nil
	}
	return mergeToK(groups, p.k), nil
}

// anatomyEligible is Xiao and Tao's eligibility condition (Section 5): at
// most n/l tuples share a sensitive value, else no l-diverse partition
// exists.
func (p *problem) anatomyEligible(buckets [][]int32, n, l int, values []string) error {
	for v, b := range buckets {
		if len(b)*l > n {
			name := "(missing)"
			if v < len(values) {
				name = values[v]
			}
			return &model.ParamError{Param: format.ParamAlpha.Name(), Value: p.alphaText,
				Reason: fmt.Sprintf("Anatomy needs l = ceil(1/alpha) = %d distinct values per group, so no value may hold more than 1/%d of the rows; %q holds %d of %d (%.1f%%)",
					l, l, name, len(b), n, 100*float64(len(b))/float64(n)),
				Hint: fmt.Sprintf("raise alpha to at least %.3f (Xiao and Tao's eligibility condition)", float64(len(b))/float64(n))}
		}
	}
	if n < l {
		return &model.ParamError{Param: format.ParamAlpha.Name(), Value: p.alphaText,
			Reason: fmt.Sprintf("Anatomy needs l = %d distinct values per group but the table has %d rows", l, n)}
	}
	return nil
}

// takeLargest is the group-creation step of Anatomy (Xiao and Tao,
// Section 5, Figure 3): while at least l buckets are non-empty, a group
// takes the last tuple of each of the l largest. It returns the groups and
// the buckets left non-empty (fewer than l), whose tuples are the residues.
func takeLargest(ctx context.Context, buckets [][]int32, l int) ([][]int32, []bucketItem, error) {
	h := &bucketHeap{}
	for v, b := range buckets {
		if len(b) > 0 {
			h.items = append(h.items, bucketItem{v: int32(v), left: int32(len(b))})
		}
	}
	heap.Init(h)
	var groups [][]int32
	take := make([]bucketItem, 0, l)
	for h.Len() >= l {
		if len(groups)%4096 == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		take = take[:0]
		g := make([]int32, 0, l)
		for i := 0; i < l; i++ {
			it := heap.Pop(h).(bucketItem)
			b := buckets[it.v]
			g = append(g, b[len(b)-1])
			buckets[it.v] = b[:len(b)-1]
			it.left--
			take = append(take, it)
		}
		for _, it := range take {
			if it.left > 0 {
				heap.Push(h, it)
			}
		}
		groups = append(groups, g)
	}
	return groups, h.items, nil
}

// placeResidues is Anatomy's residue-assignment step (Xiao and Tao,
// Section 5): each residual tuple joins a group without its value (they
// show one exists for an eligible table); the search starts at a random
// group.
func (p *problem) placeResidues(groups [][]int32, residues []bucketItem, buckets [][]int32, rng *model.Rand) error {
	for _, it := range residues {
		for _, r := range buckets[it.v] {
			start := rng.Intn(len(groups))
			placed := false
			for i := 0; i < len(groups) && !placed; i++ {
				g := (start + i) % len(groups)
				if !p.groupHolds(groups[g], p.sa[r]) {
					groups[g] = append(groups[g], r)
					placed = true
				}
			}
			if !placed {
				return fmt.Errorf("anatomy: no group lacks a residual value (the table is not eligible)")
			}
		}
	}
	return nil
}

// groupHolds reports whether a row of group g has sensitive value v.
func (p *problem) groupHolds(g []int32, v int32) bool {
	for _, x := range g {
		if p.sa[x] == v {
			return true
		}
	}
	return false
}

// mergeToK merges consecutive groups up to k tuples; a short tail joins
// the last.
func mergeToK(groups [][]int32, k int) [][]int32 {
	var out [][]int32
	var cur []int32
	for _, g := range groups {
		cur = append(cur, g...)
		if len(cur) >= k {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		if len(out) == 0 {
			out = append(out, cur)
		} else {
			out[len(out)-1] = append(out[len(out)-1], cur...)
		}
	}
	return out
}

// anatomyL is Anatomy's l for a given alpha: the smallest l with
// 1/l <= alpha, exactly (alpha = 0.3333333333333333 needs l = 4: a
// third is above it).
func anatomyL(alpha model.Bound) int {
	return alpha.MinSize(1)
}

type bucketItem struct {
	v    int32
	left int32
}

// bucketHeap pops the largest bucket first (ties: the smaller value index,
// so the groups are deterministic).
type bucketHeap struct{ items []bucketItem }

func (h *bucketHeap) Len() int { return len(h.items) }
func (h *bucketHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	return a.left > b.left || (a.left == b.left && a.v < b.v)
}
func (h *bucketHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *bucketHeap) Push(x any)    { h.items = append(h.items, x.(bucketItem)) }
func (h *bucketHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
