package check

import (
	"fmt"
	"strconv"

	"privlab/algorithms/verify"
	"privlab/model"
)

// groupKeys finds a group by its GroupID text without a map of strings
// when the text is a whole number written plainly (as releases write
// it): such texts, less base, index byID; any other text is looked up in
// byText.
// Every file of a release has its own dictionary of GroupIDs, so a group
// is known across files by its text.
type groupKeys struct {
	byID   []int32 // group+1 by plain whole number less base (0: none)
	base   int
	byText map[string]int32
}

// newGroupKeys makes room for about n plain GroupIDs after base.
func newGroupKeys(n, base int) *groupKeys {
	return &groupKeys{byID: make([]int32, 2*n+16), base: base, byText: map[string]int32{}}
}

// plainID reads a whole number written plainly ("0" or digits without a
// leading zero): the texts t with strconv.Itoa(n) == t for a whole
// number n.
func plainID(s string) (int, bool) {
	if len(s) > 18 {
		n, err := strconv.Atoi(s)
		return n, err == nil && n >= 0 && strconv.Itoa(n) == s
	}
	if len(s) == 0 || s[0] == '0' && len(s) > 1 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = 10*n + int(d)
	}
	return n, true
}

// add makes text group g.
func (k *groupKeys) add(text string, g int32) {
	if id, ok := plainID(text); ok && id >= k.base && id-k.base < len(k.byID) {
		k.byID[id-k.base] = g + 1
		return
	}
	k.byText[text] = g
}

// find is the group of text.
func (k *groupKeys) find(text string) (int32, bool) {
	if id, ok := plainID(text); ok && id >= k.base && id-k.base < len(k.byID) {
		return k.byID[id-k.base] - 1, k.byID[id-k.base] != 0
	}
	g, ok := k.byText[text]
	return g, ok
}

// stGroups numbers the groups of the sensitive table (its first column)
// in order of first appearance: the group of every GroupID code (the
// missing value's last, -1 for a code no row uses), the number of groups,
// and the keys that find a group by its text in other files (GroupIDs
// from base+1, format.Details.GroupIDBase, in their array).
func stGroups(st *model.Table, base int) (of []int32, n int, keys *groupKeys) {
	ids := st.Columns[0]
	of = make([]int32, len(ids.Dict)+1)
	for i := range of {
		of[i] = -1
	}
	for row := 0; row < st.Rows; row++ {
		if code := verify.Code(ids, row); of[code] < 0 {
			of[code] = int32(n)
			n++
		}
	}
	keys = newGroupKeys(n, base)
	for code, g := range of {
		if g >= 0 {
			keys.add(labelOf(ids, code), g)
		}
	}
	return of, n, keys
}

// stGrouping is stGroups' result, and plainGroupIDs'.
type stGrouping struct {
	of         []int32
	n          int
	keys       *groupKeys
	byID, ofID []int32
	base       int
}

// sharedSTGroups is stGroups of the release's sensitive table (file
// name), computed once for every reader of the same files (the viewer
// and the attack's exposure: verify.Release.FileFact). It is read only.
func sharedSTGroups(rel *verify.Release, name string, st *model.Table, base int) *stGrouping {
	v, _ := rel.FileFact(fmt.Sprintf("ambiguity/st-groups/%s/%d", name, base), func() (any, error) {
		of, n, keys := stGroups(st, base)
		g := &stGrouping{of: of, n: n, keys: keys, base: base}
		g.byID, g.ofID = plainGroupIDs(st.Columns[0], of, n, base)
		return g, nil
	})
	return v.(*stGrouping)
}

// plainGroupIDs is the GroupID less base+1 of every group stGroups
// numbers (of, n), when the GroupIDs are the whole numbers base+1..base+n
// written plainly, as releases write them: the group of the same number
// in the checks' numbering (sharedATGroups of n groups); ofID is the
// other way round (group g has GroupID base+id+1 when byID[g] = id and
// ofID[id] = g). Both are nil otherwise.
func plainGroupIDs(ids *model.Column, of []int32, n, base int) (byID, ofID []int32) {
	byID, ofID = make([]int32, n), make([]int32, n)
	for i := range ofID {
		ofID[i] = -1
	}
	for code, g := range of {
		if g < 0 {
			continue
		}
		id, ok := plainID(labelOf(ids, code))
		id -= base
		if !ok || id < 1 || id > n || ofID[id-1] >= 0 {
			return nil, nil
		}
		byID[g], ofID[id-1] = int32(id-1), g
	}
	return byID, ofID
}

// sharedGroupsOf is groupsOf of the auxiliary table file's GroupIDs with
// the keys of sharedSTGroups (of the sensitive table stName), computed
// once for every reader of the same files. It is read only.
func sharedGroupsOf(rel *verify.Release, stName, file string, ids *model.Column, keys *groupKeys) []int32 {
	v, _ := rel.FileFact("ambiguity/groups-of/"+stName+"/"+file, func() (any, error) { return groupsOf(ids, keys), nil })
	return v.([]int32)
}

// groupsOf maps the GroupID codes of another file's column to the
// sensitive table's groups (-1: a GroupID it does not have).
func groupsOf(ids *model.Column, keys *groupKeys) []int32 {
	of := make([]int32, len(ids.Dict)+1)
	for code := range of {
		g, ok := keys.find(labelOf(ids, code))
		if !ok {
			g = -1
		}
		of[code] = g
	}
	return of
}

// stFrequencies reads the Frequency column (the sensitive table's third)
// once per distinct text: a count >= 0 per row, or the error naming the
// first row that holds none.
func stFrequencies(st *model.Table, file string) ([]int, error) {
	col := st.Columns[2]
	byCode := make([]int, len(col.Dict)+1)
	for code := range byCode {
		f, err := strconv.Atoi(labelOf(col, code))
		if err != nil || f < 0 {
			f = -1
		}
		byCode[code] = f
	}
	out := make([]int, st.Rows)
	for row := range out {
		out[row] = byCode[verify.Code(col, row)]
		if out[row] < 0 {
			return nil, &model.InputError{File: file, Line: row + 2, Msg: fmt.Sprintf("Frequency %q is not a count", col.Value(row))}
		}
	}
	return out, nil
}

// repeated counts the rows of tb whose (group, value code) an earlier
// row already has: rows of no group are not counted; codes are below
// nCodes, the missing value (model.Missing) the last. Rows are visited
// group by group, their codes as listed (tb.codes), so each group's
// values are marked in one array rather than a map of pairs.
func repeated(tb *table, nCodes int) int {
	mark := make([]int32, nCodes) // group+1 that last held the code
	last := uint32(nCodes - 1)
	dups := 0
	for g := 0; g+1 < len(tb.start); g++ {
		for _, c := range tb.codes[tb.start[g]:tb.start[g+1]] {
			c = min(c, last)
			if mark[c] == int32(g+1) {
				dups++
			}
			mark[c] = int32(g + 1)
		}
	}
	return dups
}
