package csvfile

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// benchColumns is an Adult-like 15-column schema with realistic
// cardinalities: small categorical domains, mid-size numeric ones and one
// high-cardinality numeric column (fnlwgt).
var benchColumns = []string{"age", "workclass", "fnlwgt", "education", "education-num",
	"marital-status", "occupation", "relationship", "race", "sex",
	"capital-gain", "capital-loss", "hours-per-week", "native-country", "salary-class"}

var (
	benchWorkclass  = []string{"Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov", "Local-gov", "State-gov", "Without-pay", "Never-worked", "?"}
	benchEducation  = []string{"Bachelors", "Some-college", "11th", "HS-grad", "Prof-school", "Assoc-acdm", "Assoc-voc", "9th", "7th-8th", "12th", "Masters", "1st-4th", "10th", "Doctorate", "5th-6th", "Preschool"}
	benchMarital    = []string{"Married-civ-spouse", "Divorced", "Never-married", "Separated", "Widowed", "Married-spouse-absent", "Married-AF-spouse"}
	benchOccupation = []string{"Tech-support", "Craft-repair", "Other-service", "Sales", "Exec-managerial", "Prof-specialty", "Handlers-cleaners", "Machine-op-inspct", "Adm-clerical", "Farming-fishing", "Transport-moving", "Priv-house-serv", "Protective-serv", "Armed-Forces", "?"}
	benchRelation   = []string{"Wife", "Own-child", "Husband", "Not-in-family", "Other-relative", "Unmarried"}
	benchRace       = []string{"White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"}
	benchSex        = []string{"Female", "Male"}
	benchSalary     = []string{"<=50K", ">50K"}
)

// writeBenchCSV writes an n-row Adult-like CSV file and returns its size.
func writeBenchCSV(tb testing.TB, path string, n int) int64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	countries := make([]string, 42)
	countries[0] = "United-States"
	for i := 1; i < len(countries); i++ {
		countries[i] = fmt.Sprintf("Country-%02d", i)
	}
	pick := func(vals []string) string {
		return vals[int(math.Min(float64(len(vals)-1), r.ExpFloat64()*float64(len(vals))/4))]
	}
	for i, c := range benchColumns {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString(c)
	}
	w.WriteByte('\n')
	var buf []byte
	for i := 0; i < n; i++ {
		buf = buf[:0]
		buf = strconv.AppendInt(buf, int64(17+r.IntN(74)), 10)
		buf = append(buf, ',')
		buf = append(buf, pick(benchWorkclass)...)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(math.Exp(12+0.6*r.NormFloat64())), 10)
		buf = append(buf, ',')
		ed := r.IntN(len(benchEducation))
		buf = append(buf, benchEducation[ed]...)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(ed+1), 10)
		buf = append(buf, ',')
		buf = append(buf, pick(benchMarital)...)
		buf = append(buf, ',')
		buf = append(buf, pick(benchOccupation)...)
		buf = append(buf, ',')
		buf = append(buf, pick(benchRelation)...)
		buf = append(buf, ',')
		buf = append(buf, pick(benchRace)...)
		buf = append(buf, ',')
		buf = append(buf, benchSex[r.IntN(2)]...)
		buf = append(buf, ',')
		if r.IntN(12) == 0 {
			buf = strconv.AppendInt(buf, int64(100*(1+r.IntN(120))), 10)
		} else {
			buf = append(buf, '0')
		}
		buf = append(buf, ',')
		if r.IntN(20) == 0 {
			buf = strconv.AppendInt(buf, int64(1024+24*r.IntN(90)), 10)
		} else {
			buf = append(buf, '0')
		}
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(1+r.IntN(99)), 10)
		buf = append(buf, ',')
		buf = append(buf, pick(countries)...)
		buf = append(buf, ',')
		buf = append(buf, pick(benchSalary)...)
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return st.Size()
}

func benchLoad(b *testing.B, n int) {
	path := filepath.Join(b.TempDir(), "bench.csv")
	size := writeBenchCSV(b, path, n)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := LoadFile(path, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if t.Rows != n || len(t.Columns) != 15 {
			b.Fatalf("loaded %d rows x %d columns, want %d x 15", t.Rows, len(t.Columns), n)
		}
	}
}

func BenchmarkLoad100k(b *testing.B) { benchLoad(b, 100_000) }
func BenchmarkLoad1M(b *testing.B)   { benchLoad(b, 1_000_000) }
