package csvfile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"privlab/model"
)

// specialBytes flags exactly the bytes of a word that are a line feed,
// a quote or the delimiter, as a byte loop does, on random words of
// bytes near those (one above and below each: a borrow's false flag),
// 0x80 and above, and zero.
func TestSpecialBytesIsByteLoop(t *testing.T) {
	rng := model.NewRand(11)
	alphabet := []byte{'\n', '"', ',', ';', '\t', '|', '\r', 0, 1, '!', '#', '+', '-', ':', '<', '\v', '\b', 0x80, 0x81, 0xFF, 0xAC, 0x8A, 'a', '0'}
	for round := 0; round < 300000; round++ {
		var w [8]byte
		for i := range w {
			if rng.Intn(4) == 0 {
				w[i] = byte(rng.Intn(256))
			} else {
				w[i] = alphabet[rng.Intn(len(alphabet))]
			}
		}
		d := []byte{',', ';', '\t', '|'}[rng.Intn(4)]
		var want uint64
		for i, b := range w {
			if b == '\n' || b == '"' || b == d {
				want |= 0x80 << (8 * i)
			}
		}
		if got := specialBytes(binary.LittleEndian.Uint64(w[:]), uint64(d)*swarOnes); got != want {
			t.Fatalf("%q, delimiter %q: %#x, want %#x", w, d, got, want)
		}
	}
}

// nextSpecial finds the first line feed, quote or delimiter as a byte
// loop does, on random buffers of bytes near those (0x80 and above,
// one below and above each, zero) at every start position.
func TestNextSpecialIsByteLoop(t *testing.T) {
	rng := model.NewRand(11)
	alphabet := []byte{'\n', '"', ',', ';', '\t', '|', '\r', 0, 1, '!', '#', '+', '-', '\v', 0x80, 0x81, 0xFF, 0xAC, 0x8A, 'a', '0'}
	for round := 0; round < 3000; round++ {
		buf := make([]byte, rng.Intn(40))
		for i := range buf {
			if rng.Intn(4) == 0 {
				buf[i] = alphabet[rng.Intn(len(alphabet))]
			} else {
				buf[i] = byte(rng.Intn(256))
			}
		}
		d := []byte{',', ';', '\t', '|', 0x80}[rng.Intn(5)]
		for i := 0; i <= len(buf); i++ {
			want := len(buf)
			for j := i; j < len(buf); j++ {
				if b := buf[j]; b == '\n' || b == '"' || b == d {
					want = j
					break
				}
			}
			if got := nextSpecial(buf, i, d, uint64(d)*swarOnes); got != want {
				t.Fatalf("%q from %d, delimiter %q: %d, want %d", buf, i, d, got, want)
			}
		}
	}
}

// Load reads random files of short lines (fields of 0 to 20 bytes, so
// that delimiters and line ends fall at every place of an eight-byte
// word) as encoding/csv does: quoted fields, CRLF, blank lines, a
// missing last line end, ragged rows, bare quotes, bytes that are not
// UTF-8.
func TestLoadShortLinesIsEncodingCSV(t *testing.T) {
	rng := model.NewRand(12)
	pieces := []string{"", "a", "12", "x y", "\r", " ", "é", "\xff", `"q,"`, `"a""b"`, "b\"c", "NA", "123456789", "0"}
	for round := 0; round < 1500; round++ {
		var b strings.Builder
		cols := 1 + rng.Intn(4)
		b.WriteString("h1")
		for c := 1; c < cols; c++ {
			b.WriteString(",h" + string(rune('1'+c)))
		}
		b.WriteString("\n")
		rows := 1 + rng.Intn(30)
		for r := 0; r < rows; r++ {
			n := cols
			if rng.Intn(40) == 0 {
				n = cols + rng.Intn(3) - 1 // ragged (or not)
			}
			for c := 0; c < n; c++ {
				if c > 0 {
					b.WriteByte(',')
				}
				if rng.Intn(3) == 0 {
					b.WriteString(pieces[rng.Intn(len(pieces))])
				} else {
					b.WriteString(strings.Repeat("v", rng.Intn(21)))
				}
			}
			switch rng.Intn(10) {
			case 0:
				b.WriteString("\r\n")
			case 1:
				b.WriteString("\n\n")
			default:
				b.WriteString("\n")
			}
		}
		data := []byte(b.String())
		if rng.Intn(3) == 0 {
			data = bytes.TrimRight(data, "\n")
		}
		tb, err := Load(bytes.NewReader(data), LoadOptions{Name: "f.csv", Delimiter: ',', HeaderRow: HeaderYes})
		if err == nil {
			checkFirstLines(t, tb)
		}
		compareWithEncodingCSV(t, data, tb, err)
	}
}

// canonicalIntAt reads a field as canonicalInt does, on random fields of
// digits, near digits ('/', ':', 0x30+0x80), leading zeros and every
// length from 0 to 10, with and without eight bytes after the start.
func TestCanonicalIntAtIsCanonicalInt(t *testing.T) {
	rng := model.NewRand(13)
	alphabet := []byte("0123456789012345678900/:?\xb0\xb9 a")
	for round := 0; round < 200000; round++ {
		buf := make([]byte, rng.Intn(20))
		for i := range buf {
			buf[i] = alphabet[rng.Intn(len(alphabet))]
		}
		start := rng.Intn(len(buf) + 1)
		end := start + rng.Intn(min(11, len(buf)-start+1))
		wv, wok := canonicalInt(buf[start:end])
		if v, ok := canonicalIntAt(buf, start, end); v != wv || ok != wok {
			t.Fatalf("%q: %d %v, want %d %v", buf[start:end], v, ok, wv, wok)
		}
	}
}

// A loaded column's kind and numbers are inferKind's, read from every
// value's text, on random columns of whole numbers in and beyond the
// dense range, with leading zeros, signs, decimals, words, and whole
// numbers that are missing tokens.
func TestInferKindIndexedIsInferKind(t *testing.T) {
	rng := model.NewRand(14)
	for round := 0; round < 60; round++ {
		var b strings.Builder
		b.WriteString("a,b,c\n")
		rows := 1 + rng.Intn(3000)
		for r := 0; r < rows; r++ {
			for c := 0; c < 3; c++ {
				if c > 0 {
					b.WriteByte(',')
				}
				switch k := rng.Intn(40 + 40*c); {
				case k == 0 && round%3 == 0:
					b.WriteString("x")
				case k == 1:
					fmt.Fprintf(&b, "0%d", rng.Intn(100))
				case k == 2:
					fmt.Fprintf(&b, "-%d", rng.Intn(100))
				case k == 3:
					fmt.Fprintf(&b, "%d.5", rng.Intn(100))
				case k == 4:
					fmt.Fprintf(&b, "%d", 50_000_000+rng.Intn(1000))
				case k == 5:
					b.WriteString("7") // a missing token
				default:
					fmt.Fprintf(&b, "%d", rng.Intn(rows*2))
				}
			}
			b.WriteByte('\n')
		}
		tb, err := Load(strings.NewReader(b.String()), LoadOptions{Name: "k.csv", MissingTokens: []string{"", "7"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range tb.Columns {
			want := &model.Column{Dict: c.Dict}
			inferKind(want)
			if c.Kind != want.Kind || len(c.Nums) != len(want.Nums) {
				t.Fatalf("round %d %s: kind %v with %d numbers, inferKind %v with %d", round, c.Name, c.Kind, len(c.Nums), want.Kind, len(want.Nums))
			}
			for i := range c.Nums {
				if math.Float64bits(c.Nums[i]) != math.Float64bits(want.Nums[i]) {
					t.Fatalf("round %d %s: %q read as %v, inferKind %v", round, c.Name, c.Dict[i], c.Nums[i], want.Nums[i])
				}
			}
		}
	}
}
