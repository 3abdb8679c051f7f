package hierarchy

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"privlab/model"
)

// FuzzParseHierarchy: Parse never panics, and a hierarchy it
// returns is a proper tree whose leaf-first rows read back the same.
func FuzzParseHierarchy(f *testing.F) {
	for _, s := range []string{
		"a;x;*\nb;x;*\nc;y;*\n",
		"1;1-2;*\n2;1-2;*\n3;3-4;*\n",
		"a;*\na;*\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Parse("attr", "h.csv", bytes.NewReader(data))
		if err != nil {
			var ie *model.InputError
			if !errors.As(err, &ie) || ie.File != "h.csv" {
				t.Fatalf("error %T: %v", err, err)
			}
			return
		}
		checkTree(t, h)
		// The leaf-first rows parse back into the same leaves and subdomains.
		text := writeRowsQuoted(h.Rows())
		h2, err := Parse("attr", "rows.csv", strings.NewReader(text))
		if err != nil {
			t.Fatalf("rows of a parsed hierarchy do not parse: %v\n%s", err, text)
		}
		checkTree(t, h2)
		if !reflect.DeepEqual(leafLabels(h), leafLabels(h2)) || !reflect.DeepEqual(subdomains(h), subdomains(h2)) {
			t.Fatalf("round trip changed the tree:\n%s\n%s", h, h2)
		}
	})
}

// checkTree asserts the tree invariants of a Hierarchy: node 0 is the only
// root, parents and children agree, depths count from the root, the
// children of a node partition its leaves in order, Leaves lists exactly
// the childless nodes, leaves are distinct values, and for numeric trees
// Low/High are the smallest and largest leaf value under each node.
func checkTree(t testing.TB, h *Hierarchy) {
	t.Helper()
	if len(h.Nodes) == 0 || h.Nodes[0].Parent != -1 {
		t.Fatalf("no root at node 0")
	}
	leafAt := map[int]int{}
	for pos, l := range h.Leaves {
		leafAt[l] = pos
	}
	if len(leafAt) != len(h.Leaves) {
		t.Fatalf("a leaf is listed twice")
	}
	for n, nd := range h.Nodes {
		if n > 0 {
			if nd.Parent < 0 || nd.Parent >= len(h.Nodes) {
				t.Fatalf("node %d (%q) has parent %d: not a single root", n, nd.Label, nd.Parent)
			}
			p := h.Nodes[nd.Parent]
			if nd.Depth != p.Depth+1 {
				t.Fatalf("node %q at depth %d under %q at depth %d", nd.Label, nd.Depth, p.Label, p.Depth)
			}
			found := 0
			for _, c := range p.Children {
				if c == n {
					found++
				}
			}
			if found != 1 {
				t.Fatalf("node %q appears %d times among its parent's children", nd.Label, found)
			}
		} else if nd.Depth != 0 {
			t.Fatalf("root at depth %d", nd.Depth)
		}
		if len(nd.Children) == 0 {
			pos, ok := leafAt[n]
			if !ok || nd.First != pos || nd.Last != pos {
				t.Fatalf("leaf %q: First %d Last %d, position %d (listed %v)", nd.Label, nd.First, nd.Last, pos, ok)
			}
			if h.Numeric && (nd.Low != nd.Value || nd.High != nd.Value) {
				t.Fatalf("leaf %q: Low %v High %v Value %v", nd.Label, nd.Low, nd.High, nd.Value)
			}
			continue
		}
		if _, ok := leafAt[n]; ok {
			t.Fatalf("inner node %q is listed as a leaf", nd.Label)
		}
		next := nd.First
		lo, hi := h.Nodes[nd.Children[0]].Low, h.Nodes[nd.Children[0]].High
		for _, c := range nd.Children {
			cn := h.Nodes[c]
			if cn.Parent != n {
				t.Fatalf("child %q of %q has parent %d", cn.Label, nd.Label, cn.Parent)
			}
			if cn.First != next || cn.Last < cn.First {
				t.Fatalf("children of %q do not partition its leaves: %q covers %d..%d, expected to start at %d", nd.Label, cn.Label, cn.First, cn.Last, next)
			}
			next = cn.Last + 1
			if cn.Low < lo {
				lo = cn.Low
			}
			if cn.High > hi {
				hi = cn.High
			}
		}
		if next != nd.Last+1 {
			t.Fatalf("children of %q cover up to %d, node ends at %d", nd.Label, next-1, nd.Last)
		}
		if h.Numeric && (nd.Low != lo || nd.High != hi) {
			t.Fatalf("node %q: Low/High %v/%v, children span %v/%v", nd.Label, nd.Low, nd.High, lo, hi)
		}
	}
	if h.Nodes[0].First != 0 || h.Nodes[0].Last != len(h.Leaves)-1 {
		t.Fatalf("root covers %d..%d of %d leaves", h.Nodes[0].First, h.Nodes[0].Last, len(h.Leaves))
	}
	labels := map[string]bool{}
	for _, l := range h.Leaves {
		lbl := h.Nodes[l].Label
		if labels[lbl] {
			t.Fatalf("leaf value %q twice", lbl)
		}
		labels[lbl] = true
		if n, ok := h.Leaf(lbl); !ok || n != l {
			t.Fatalf("Leaf(%q) = %d, %v; want %d", lbl, n, ok, l)
		}
	}
}

func leafLabels(h *Hierarchy) []string {
	out := make([]string, len(h.Leaves))
	for i, l := range h.Leaves {
		out[i] = h.Nodes[l].Label
	}
	return out
}

// subdomains lists the distinct subdomains of a tree as leaf ranges (and
// value ranges for numeric trees), in depth-first order.
func subdomains(h *Hierarchy) []string {
	var out []string
	seen := map[string]bool{}
	for _, nd := range h.Nodes {
		s := fmt.Sprintf("%d-%d", nd.First, nd.Last)
		if h.Numeric {
			s += fmt.Sprintf("[%v,%v]", nd.Low, nd.High)
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return sortedCopy(out)
}

// writeRowsQuoted writes hierarchy rows separated by ; with every field
// quoted. (Unquoted, a one-level file holding the label "," would read as
// two empty labels: without a ; the delimiter is detected.)
func writeRowsQuoted(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		for i, f := range r {
			if i > 0 {
				b.WriteByte(';')
			}
			b.WriteString(`"` + strings.ReplaceAll(f, `"`, `""`) + `"`)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
