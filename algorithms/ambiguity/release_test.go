package ambiguity

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"privlab/algorithms/method"
	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// TestGroupKeys: openScheme finds a group by its exact GroupID text, plain
// whole numbers through the array, any other text through the map.
func TestGroupKeys(t *testing.T) {
	s := &scheme{}
	ids := &model.Column{Name: "GroupID", Dict: []string{"2", "01", "x", "1", "1000000000"}, Codes: []uint32{3, 0, 0, 1, 2, 4, model.Missing}}
	of, keys := s.firstAppearance(ids, 0)
	// Groups in order of first appearance: "1", "2", "01", "x", "1000000000", "" (missing).
	if got := []int32{of[0], of[1], of[2], of[3], of[4], of[5]}; !slices.Equal(got, []int32{1, 2, 3, 0, 4, 5}) {
		t.Fatalf("groups by code %v", got)
	}
	for g, id := range s.ids {
		if got := keys.find(id); got != int32(g) {
			t.Errorf("find(%q) = %d, want %d", id, got, g)
		}
	}
	for _, id := range []string{"3", "001", "1 ", "0", strconv.Itoa(1 << 20)} {
		if got := keys.find(id); got != -1 {
			t.Errorf("find(%q) = %d, want -1", id, got)
		}
	}
}

// TestGroupKeysAfterBase: a partition's GroupIDs, numbered after a base
// (format.Details.GroupIDBase), are found through the array less the
// base; numbers below the base, and other texts, through the map.
func TestGroupKeysAfterBase(t *testing.T) {
	s := &scheme{}
	ids := &model.Column{Name: "GroupID", Dict: []string{"30000000002", "30000000001", "7", "30000000000", "300000000010"}, Codes: []uint32{0, 1, 2, 3, 4}}
	_, keys := s.firstAppearance(ids, 30_000_000_000)
	for g, id := range s.ids {
		if got := keys.find(id); got != int32(g) {
			t.Errorf("find(%q) = %d, want %d", id, got, g)
		}
	}
	if keys.byNumber[2] != 1 || keys.byNumber[1] != 2 || keys.byNumber[0] != 4 || len(keys.byText) != 2 {
		t.Errorf("array %v, map %v: want the GroupIDs from the base on in the array", keys.byNumber[:4], keys.byText)
	}
	for _, id := range []string{"2", "1", "30000000003", "030000000001"} {
		if got := keys.find(id); got != -1 {
			t.Errorf("find(%q) = %d, want -1", id, got)
		}
	}
}

// TestAppendIsFillRendered: every file's Append writes, row for row, the
// bytes AppendCSVRecord gives of the record Fill fills, with values that
// need quotes (a comma, a quote, a line break, a leading space, `\.`),
// multi-byte text and numbers, and a seed whose GroupIDs take several
// widths (fails when a value is written unquoted or a frequency dropped).
func TestAppendIsFillRendered(t *testing.T) {
	texts := []string{"plain", "a,b", `say "hi"`, "two\nlines", " lead", `\.`, "é-ü", "7", "x"}
	rng := model.NewRand(8)
	var b strings.Builder
	b.WriteString("q,n,s\n")
	for r := 0; r < 400; r++ {
		q := texts[rng.Intn(len(texts))]
		sv := texts[rng.Intn(len(texts))]
		fmt.Fprintf(&b, "%s,%d,%s\n", csvQuote(q), rng.Intn(30), csvQuote(sv))
	}
	tb, err := csvfile.Load(strings.NewReader(b.String()), csvfile.LoadOptions{Name: "quotes", MissingTokens: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	quoted, counted := 0, 0
	// Algorithm 2's groups hold each sensitive value once; groups of a
	// column's value hold some several times (Frequency > 1).
	for _, grouping := range []string{GroupingAlgorithm, "column:n"} {
		in := &method.Input{Table: tb, Roles: model.Roles{QIs: []string{"q", "n"}, SA: "s"},
			Values: model.Values{"alpha": "0.5", "beta": "0.5", "seed": "4", paramGrouping: grouping}}
		res, err := (Method{}).Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		rel, _, err := res.Release(4)
		if err != nil {
			t.Fatal(err)
		}
		q, c := appendsAsFills(t, rel)
		quoted, counted = quoted+q, counted+c
	}
	if quoted == 0 || counted == 0 {
		t.Fatalf("%d rows needed quotes, %d had a frequency over 1", quoted, counted)
	}
}

// appendsAsFills holds every file's Append to AppendCSVRecord of Fill's
// record, and counts the rows that needed quotes and those of st.csv
// with a frequency over 1.
func appendsAsFills(t *testing.T, rel *releasedir.Release) (quoted, counted int) {
	for _, f := range rel.Files {
		if f.Append == nil {
			t.Fatalf("%s: no Append", f.Name)
		}
		rec := make([]string, len(f.Header))
		for x := 0; x < f.Rows; x++ {
			f.Fill(x, rec)
			want := releasedir.AppendCSVRecord(nil, rec)
			if got := f.Append([]byte("prefix"), x); string(got) != "prefix"+string(want) {
				t.Fatalf("%s row %d: Append gives %q, want %q", f.Name, x, got[len("prefix"):], want)
			}
			if strings.Contains(string(want), `"`) {
				quoted++
			}
			if f.Name == "st.csv" && rec[2] != "1" {
				counted++
			}
		}
	}
	return quoted, counted
}

// csvQuote quotes a field for a CSV input.
func csvQuote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
