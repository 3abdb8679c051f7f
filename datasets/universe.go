package datasets

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"privlab/model"
	"privlab/model/releasedir"
)

// The universe generator makes IPUMS-like people for k-join-anonymity
// experiments (Sacharidis, Mouratidis, Papadias, Section 5 and Table 2): six
// numeric QIs (age 0-93, income 0-1000000, family-size 1-21,
// education-years 0-17, rent 0-2500, sex 1-2) and a categorical SA,
// occupation, with ten values. Marginals are skewed as in census data:
// income log-normal (0 for children and about 12% of adults, rounded to
// 100), rent 0 for about 62% (owners) and log-normal otherwise, family
// sizes mostly 1-5. Each person i is drawn from its own generator seeded by
// (seed, i) and gets an id from a seeded bijection of i, so ids carry no
// order and a person is the same whether it is drawn for MT or for PD.

var universeColumns = []string{"id", "age", "income", "family-size", "education-years", "rent", "sex", "occupation"}

// universeQIs are the six numeric QIs of Table 2.
var universeQIs = []string{"age", "income", "family-size", "education-years", "rent", "sex"}

// occupationClasses are the values of the universe's SA.
var occupationClasses = []string{"management", "professional", "office", "sales", "service",
	"construction", "production", "transport", "farming", "not-in-labor-force"}

func universe() Dataset {
	return Dataset{
		Name:        "universe",
		Title:       "IPUMS-like people (MT of a k-join-anonymity universe; privlab gen universe sets its |PD|/|MT| ratio)",
		Source:      "Sacharidis, Mouratidis, Papadias, k-join-anonymity, Section 5, Table 2",
		DefaultRows: 10000,
		Columns:     universeColumns,
		Roles:       model.Roles{IDs: []string{"id"}, QIs: universeQIs, SA: "occupation"},
		Hierarchies: map[string]string{
			"id":              "flat",
			"age":             "intervals:5,10,20",
			"income":          "intervals:10000,50000,100000,500000",
			"family-size":     "intervals:2,4,8",
			"education-years": "intervals:2,4,8",
			"rent":            "intervals:100,500,1000",
			"sex":             "flat",
			"occupation":      "flat",
		},
		gen: writeMT,
	}
}

// person is one individual of the universe.
type person struct {
	id                                  uint64
	age, income, family, edu, rent, sex int
	occupation                          int
}

// maxUniverse bounds |PD|: ids come from a bijection on 30 bits.
const maxUniverse = 1 << 30

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// personID maps index i < 2^30 to a distinct id in 1..2^30 with a bijection
// keyed by the seed (add, multiply by odd numbers and xor-shift, all mod 2^30).
func personID(seed uint64, i int) uint64 {
	const mask = maxUniverse - 1
	k1, k2 := splitmix(seed^0x1d), splitmix(seed^0x2e)
	x := (uint64(i) + k1) & mask
	x = (x * 0x2545f491) & mask
	x ^= x >> 15
	x = (x + k2) & mask
	x = (x * 0x5851f42d) & mask
	x ^= x >> 13
	x = (x * 0x6c8e9cf5) & mask
	x ^= x >> 16
	return x + 1
}

// Weights of the universe's marginals (integers so draws are exact).
var (
	uAgeBands   = [][2]int{{0, 9}, {10, 19}, {20, 29}, {30, 39}, {40, 49}, {50, 59}, {60, 69}, {70, 79}, {80, 93}}
	uAgeWeights = []int{13, 13, 14, 14, 15, 12, 9, 6, 4}
	// education-years 0..17 of people aged 19 and over.
	uEduWeights = []int{10, 3, 4, 6, 8, 10, 15, 10, 30, 20, 30, 40, 300, 80, 110, 40, 160, 90}
	// family-size 1..21.
	uFamilyWeights = []int{14000, 30000, 19000, 17000, 10000, 5000, 2500, 1200, 600, 300, 150, 80, 40, 20, 10, 6, 4, 3, 2, 1, 1}
	// occupation by schooling: <12 years, 12-13, 14-15, 16+.
	uOccWeights = [][]int{
		{3, 2, 6, 7, 24, 14, 16, 12, 6, 40},
		{8, 6, 14, 11, 17, 10, 10, 8, 2, 24},
		{13, 17, 16, 11, 11, 5, 5, 4, 1, 17},
		{22, 38, 9, 9, 4, 1, 1, 1, 1, 14},
	}
)

type universeModel struct {
	age, edu, family sampler
	occ              []sampler
}

var universeModelOnce = sync.OnceValue(func() *universeModel {
	m := &universeModel{
		age:    newSampler(uAgeWeights, nil),
		edu:    newSampler(uEduWeights, nil),
		family: newSampler(uFamilyWeights, nil),
	}
	for _, w := range uOccWeights {
		m.occ = append(m.occ, newSampler(w, nil))
	}
	return m
})

// drawPerson returns person i of the universe of this seed.
func drawPerson(m *universeModel, seed uint64, i int) person {
	r := model.NewRand(splitmix(seed ^ splitmix(uint64(i))))
	p := person{id: personID(seed, i)}
	band := uAgeBands[m.age.draw(r)]
	p.age = band[0] + r.Intn(band[1]-band[0]+1)
	p.sex = 2 // 51% 2, 49% 1
	if r.Intn(100) < 49 {
		p.sex = 1
	}
	switch {
	case p.age < 6:
		p.edu = 0
	case p.age <= 18:
		p.edu = p.age - 6 - r.Intn(2)
		p.edu = max(0, min(p.edu, 12))
	default:
		p.edu = m.edu.draw(r)
	}
	p.family = 1 + m.family.draw(r)
	for p.age < 18 && p.family == 1 {
		p.family = 1 + m.family.draw(r)
	}
	if p.age >= 15 && r.Intn(100) >= 12 {
		d := float64(p.age - 48)
		mu := math.Log(28000) + float64(0.09*float64(p.edu-12)) - float64(0.0006*d*d)
		v := math.Exp(mu + float64(0.85*r.NormFloat64()))
		p.income = int(math.Round(v/100)) * 100
		p.income = max(100, min(p.income, 1000000))
	}
	if p.age >= 18 && r.Intn(100) >= 62 {
		v := math.Exp(math.Log(550) + float64(0.5*r.NormFloat64()))
		p.rent = max(1, min(int(math.Round(v)), 2500))
	}
	school := 0
	switch {
	case p.edu >= 16:
		school = 3
	case p.edu >= 14:
		school = 2
	case p.edu >= 12:
		school = 1
	}
	switch {
	case p.age < 16:
		p.occupation = len(occupationClasses) - 1
	case p.age >= 65 && r.Intn(100) < 75:
		p.occupation = len(occupationClasses) - 1
	default:
		p.occupation = m.occ[school].draw(r)
	}
	return p
}

func (p person) append(buf []byte, withSA bool) []byte {
	buf = strconv.AppendUint(buf, p.id, 10)
	for _, v := range [...]int{p.age, p.income, p.family, p.edu, p.rent, p.sex} {
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(v), 10)
	}
	if withSA {
		buf = append(buf, ',')
		buf = append(buf, occupationClasses[p.occupation]...)
	}
	return append(buf, '\n')
}

// writePeople writes persons order[0], order[1], ... of the universe.
func writePeople(w *bufio.Writer, order []int, seed uint64, withSA bool) error {
	m := universeModelOnce()
	var buf []byte
	for _, i := range order {
		buf = drawPerson(m, seed, i).append(buf[:0], withSA)
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// writeMT writes persons 0..rows-1 in an order shuffled with the seed.
func writeMT(w *bufio.Writer, rows int, seed uint64) error {
	if rows > maxUniverse {
		return fmt.Errorf("universe: at most %d rows", maxUniverse)
	}
	return writePeople(w, model.NewRand(seed).Perm(rows), seed, true)
}

// WriteUniverse writes DIR/mt.csv (id, the six numeric QIs, occupation) and
// DIR/pd.csv (id and the same six QIs, no SA) for k-join-anonymity
// experiments (Sacharidis et al., Section 5 and Table 2). mt.csv is what the
// universe dataset's Write gives for (rows, seed); pd.csv holds every MT
// individual (same id and QI values) plus others, round(rows*ratio) rows in
// all (ratio >= 1). Both files are shuffled with the seed.
func WriteUniverse(dir string, rows int, ratio float64, seed uint64) error {
	if rows <= 0 {
		return &model.ParamError{Param: "rows", Value: strconv.Itoa(rows), Reason: "must be at least 1"}
	}
	if math.IsNaN(ratio) || ratio < 1 {
		return &model.ParamError{Param: "ratio", Value: strconv.FormatFloat(ratio, 'g', -1, 64),
			Reason: "must be >= 1: PD holds every MT individual", Hint: "|PD|/|MT|, e.g. 2"}
	}
	total := math.Round(float64(rows) * ratio)
	if total > maxUniverse {
		return &model.ParamError{Param: "ratio", Value: strconv.FormatFloat(ratio, 'g', -1, 64),
			Reason: fmt.Sprintf("rows*ratio must be at most %d", maxUniverse)}
	}
	// PD's order is a permutation of its people (8 bytes each), and the
	// public table is loaded as a table to be used (CheckRows' estimate).
	if err := universePublic().CheckRows(int(total)); err != nil {
		return &model.ParamError{Param: "ratio", Value: strconv.FormatFloat(ratio, 'g', -1, 64),
			Reason: fmt.Sprintf("a public table of %.0f rows: %s", total, err.(*model.ParamError).Reason), Hint: "use fewer rows or a smaller ratio"}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	d := universe()
	if err := writeFileAtomic(filepath.Join(dir, "mt.csv"), func(w *bufio.Writer) error {
		return d.Write(w, rows, seed)
	}); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "pd.csv"), func(w *bufio.Writer) error {
		w.WriteString("id")
		for _, q := range universeQIs {
			w.WriteString("," + q)
		}
		w.WriteByte('\n')
		order := model.NewRand(splitmix(seed ^ 0x7064)).Perm(int(total))
		return writePeople(w, order, seed, false)
	})
}

// writeFileAtomic writes a file through releasedir.WriteAtomic (a temporary
// sibling and a rename), buffered for the generators.
func writeFileAtomic(path string, write func(w *bufio.Writer) error) error {
	err := releasedir.WriteAtomic(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
