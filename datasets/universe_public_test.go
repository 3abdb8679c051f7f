package datasets

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// dataset:universe-public with N rows is the pd.csv WriteUniverse writes
// for M rows and ratio N/M, and it contains the people of dataset:universe.
func TestUniversePublicIsPD(t *testing.T) {
	const mt, ratio, seed = 400, 2.5, 9
	dir := t.TempDir()
	if err := WriteUniverse(dir, mt, ratio, seed); err != nil {
		t.Fatal(err)
	}
	pd, _ := os.ReadFile(filepath.Join(dir, "pd.csv"))
	if got := writeBytes(t, mustLookup(t, "universe-public"), mt*ratio, seed); !bytes.Equal(got, pd) {
		t.Fatal("universe-public(rows*ratio) differs from WriteUniverse's pd.csv")
	}
	m := mustLoad(t, mustLookup(t, "universe"), 300, seed)
	p := mustLoad(t, mustLookup(t, "universe-public"), 3000, seed)
	ids := map[string]string{}
	for r := 0; r < p.Rows; r++ {
		key := ""
		for _, c := range p.Columns[1:] {
			key += c.Value(r) + ","
		}
		ids[p.Columns[0].Value(r)] = key
	}
	for r := 0; r < m.Rows; r++ {
		key := ""
		for _, q := range universeQIs {
			key += m.Column(q).Value(r) + ","
		}
		if ids[m.Column("id").Value(r)] != key {
			t.Fatalf("MT person %s is not in PD with the same QIs", m.Column("id").Value(r))
		}
	}
}
