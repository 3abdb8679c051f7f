package csvfile

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"privlab/model"
)

// TestDictIndexDenseIntegers: integer keys, first hashed then covered by
// the dense index as it grows, keep the code of their first insertion;
// other spellings of a number ("007", "+7", "7.0", 9 digits) stay
// distinct keys; a missing token that is a number keeps Missing. Checked
// against a map on 60,000 lookups.
func TestDictIndexDenseIntegers(t *testing.T) {
	x := newDictIndex()
	want := map[string]uint32{"0": model.Missing}
	if _, found := x.lookup([]byte("0"), 0, 1); found {
		t.Fatal(`"0" found in an empty index`)
	}
	x.insert("0", model.Missing)
	rng := rand.New(rand.NewPCG(1, 2))
	spell := []string{"%d", "%03d", "+%d", "%d.0", "1%08d", "x%d"}
	for i := 0; i < 60000; i++ {
		v := rng.IntN(100_000) // hashed at first, dense later
		if i%1000 == 0 {
			v = 50_000_000 + i // far beyond the dense range
		}
		key := fmt.Sprintf(spell[rng.IntN(len(spell))], v)
		if i%2 == 0 {
			key = fmt.Sprint(v)
		}
		buf := []byte("," + key + ",")
		code, found := x.lookup(buf, 1, 1+len(key))
		w, ok := want[key]
		if found != ok || (ok && code != w) {
			t.Fatalf("lookup %q (step %d): %d, %v; want %d, %v", key, i, code, found, w, ok)
		}
		if !found {
			want[key] = uint32(len(want))
			x.insert(key, want[key])
		}
	}
	if len(x.dense) == 0 || x.denseCount == 0 {
		t.Fatalf("dense index unused (%d entries, %d codes)", len(x.dense), x.denseCount)
	}
	if code, found := x.lookup([]byte("0"), 0, 1); !found || code != model.Missing {
		t.Fatalf(`"0": %d, %v; want Missing`, code, found)
	}
}

// TestParseNumberPlainIntegers: integers of up to 15 digits (read without
// strconv) give exactly ParseFloat's value, the sign of "-0" included; 16
// digits and more still go through ParseFloat.
func TestParseNumberPlainIntegers(t *testing.T) {
	for _, s := range []string{"0", "-0", "+0", "000", "7", "-007", "+42", "999999999999999", "-123456789012345",
		"9007199254740993", "12345678901234567890", "100000000000000000000001"} {
		want, _ := strconv.ParseFloat(s, 64)
		v, ok := model.ParseNumber(s)
		if !ok || v != want || math.Signbit(v) != math.Signbit(want) {
			t.Errorf("ParseNumber(%q) = %v, %v; want %v", s, v, ok, want)
		}
	}
	if v, _ := model.ParseNumber("-0"); !math.Signbit(v) {
		t.Error(`ParseNumber("-0") lost its sign`)
	}
}
