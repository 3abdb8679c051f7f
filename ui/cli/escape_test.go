package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// hostileHeader and hostileCells hold what a file may bring to a
// terminal: an OSC title ended by BEL, CSI sequences (clear the screen,
// a colour), C1 CSI, a tab, a backslash, a bidi override (issue 32,
// items 6 and 7).
var (
	hostileHeader = []string{"id", "age", "a\x1b]0;PWNED\x07", `zi\p`, "ge\tnder", "dis\u202eease"}
	hostileCats   = []string{"x\x1b[2Jy", "p\x07q", `r\s`, "t\tu", "v\u202ew"}
	hostileZips   = []string{`1\0`, "2\t0", "30"}
	hostileSexes  = []string{"M", "F\x1b[31m"}
	hostileSAs    = []string{"flu\x1b]0;X\x07", "hiv", "c\u009bold", "d\u202eq"}
)

// writeHostile writes mt.csv (80 records) and pd.csv (a public table of
// the same people and 40 others, for kja) into dir.
func writeHostile(t *testing.T, dir string) {
	t.Helper()
	row := func(id, i int) []string {
		return []string{strconv.Itoa(id), strconv.Itoa(20 + (i*7)%40), hostileCats[i%5], hostileZips[i%3], hostileSexes[i%2]}
	}
	mt, pd := [][]string{hostileHeader}, [][]string{hostileHeader[:5]}
	for i := 0; i < 80; i++ {
		mt = append(mt, append(row(1000+i, i), hostileSAs[(i*3)%4]))
		pd = append(pd, row(1000+i, i))
	}
	for i := 0; i < 40; i++ {
		pd = append(pd, row(2000+i, i+3))
	}
	for name, rows := range map[string][][]string{"mt.csv": mt, "pd.csv": pd} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		w := csv.NewWriter(f)
		if err := w.WriteAll(rows); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// rawControl returns the first character of out a terminal would act on
// or reorder text by (a control other than newline, a format character,
// a byte that is not UTF-8), or "".
func rawControl(out string) string {
	for i, r := range out {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u202e' || r == '\ufffd' && strings.HasPrefix(out[i:], "\xff") {
			return strconv.QuoteRune(r) + " in " + strconv.Quote(out[max(0, i-40):min(len(out), i+40)])
		}
	}
	return ""
}

// A table whose header and cells hold escape sequences, tabs,
// backslashes and bidi overrides is inspected, run with each of the five
// methods, checked (with its original), queried, evaluated and attacked:
// every run works (names with a backslash or a tab included) and no
// output holds a raw control character; the names and values are shown
// escaped. JSON stays exact.
func TestHostileNamesAndCells(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeHostile(t, dir)
	qi, sa := strings.Join(hostileHeader[1:5], ","), hostileHeader[5]
	clean := func(args []string, out, errOut string) {
		t.Helper()
		for _, s := range []string{out, errOut} {
			if c := rawControl(s); c != "" {
				t.Errorf("privlab %q printed a raw %s", args, c)
			}
		}
	}
	run := func(want int, args ...string) string {
		t.Helper()
		out, errOut, code := privlab(t, dir, args...)
		if code != want {
			t.Fatalf("privlab %q: exit %d, want %d\n%s%s", args, code, want, out, errOut)
		}
		clean(args, out, errOut)
		return out + errOut
	}
	out := run(0, "inspect", "mt.csv")
	for _, want := range []string{`a\x1b]0;PWNED\x07    categorical`, `p\x07q (16)`, `ge\tnder             categorical`,
		`F\x1b[31m (40)`, `dis\u202eease        categorical`, `c\x9bold (20)`, `zi\p                 categorical`} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect does not show %s:\n%s", want, out)
		}
	}
	common := []string{"--in", "mt.csv", "--id", "id", "--qi", qi, "--sa", sa, "--seed", "1", "--force"}
	for _, m := range [][]string{
		{"distribution"}, {"lossyjoin"}, {"ambiguity"}, {"sampling", "--max-distortion", "1"},
		{"kja", "--variant", "mondrian", "--k", "4"}, {"kja", "--public", "pd.csv", "--k", "4"},
	} {
		out := filepath.Join("out", m[0]+strconv.Itoa(len(m)))
		args := append(append([]string{"run", "--method", m[0], "--out", out}, m[1:]...), common...)
		if s := run(0, args...); !strings.Contains(s, `roles      QI age,a\x1b]0;PWNED\x07,zi\p,ge\tnder; SA dis\u202eease`) {
			t.Errorf("run %s does not show the roles escaped:\n%s", m[0], s)
		}
		check := []string{"check", out, "--original", "mt.csv"}
		if m[0] == "kja" && len(m) == 5 {
			check = append(check, "--public", "pd.csv")
		}
		if s := run(0, check...); !strings.Contains(s, "passes every check") {
			t.Errorf("check %s:\n%s", out, s)
		}
		run(0, "query", "--release", out, "--original", "mt.csv", `COUNT(*) WHERE "zi\p" = '2`+"\t"+`0' AND "ge`+"\t"+`nder" = 'M'`)
		run(0, "attack", out, "--original", "mt.csv")
		js, _, code := privlab(t, dir, "attack", out, "--original", "mt.csv", "--json")
		if list := []map[string]any{}; code != 0 || json.Unmarshal([]byte(js), &list) != nil {
			t.Errorf("attack --json on %s: exit %d, not a JSON list:\n%s", out, code, js)
		}
	}
	s := run(2, "query", "--method", "lossyjoin", "--in", "mt.csv", "--qi", qi, "--sa", sa, "COUNT(*) WHERE nope = 1")
	if !strings.Contains(s, `columns are: id, age, a\x1b]0;PWNED\x07, zi\p, ge\tnder, dis\u202eease`) {
		t.Errorf("the query's hint does not list the columns escaped:\n%s", s)
	}
	run(0, "eval", "--method", "ambiguity", "--in", "mt.csv", "--qi", qi, "--sa", sa, "--seed", "1", "--queries", "20")
	run(0, "eval", "--compare", "--in", "mt.csv", "--qi", qi, "--sa", sa, "--seed", "1", "--queries", "20")
}

// A character split between two writes is escaped as one (a bidi
// override written in two halves is no two stray bytes), and a half left
// at the end is shown as its bytes.
func TestTermWriterJoinsSplitCharacters(t *testing.T) {
	var b strings.Builder
	w := &termWriter{w: &b}
	for _, p := range []string{"a\xe2\x80", "\xaeb\x1b", "[2J\n\xe2"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	w.flush()
	if got := b.String(); got != `a\u202eb\x1b[2J`+"\n"+`\xe2` {
		t.Errorf("wrote %q", got)
	}
}
