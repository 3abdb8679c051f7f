package sampling

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/sampling/format"
	"privlab/model"
	"privlab/model/csvfile"
)

// Parameter names (the seed is every method's, model.SeedParam).
const (
	paramRate     = string(format.ParamRate)
	paramMaxDist  = string(format.ParamMaxDistortion)
	paramMinGen   = string(format.ParamMinGeneralization)
	paramMarginal = string(format.ParamMarginals)
)

var (
	// rateParam and maxDistParam are the sampling rate beta and the
	// acceptable distortion delta' (SPEC 2.5) with the paper's defaults:
	// "sampling beta = 90% and acceptable distortion threshold delta' =
	// 0.6" (Sattar et al., Section 6).
	rateParam = model.ParamSpec{Name: paramRate, Kind: model.ParamFloat, Min: 0, Max: 1, MinOpen: true, Default: "0.9", Step: 0.05, Header: true, Common: true,
		Help: "fraction of records sampled into the release",
		Why:  "it is a probability (Sattar et al., Definition 7, called beta there)"}
	maxDistParam = model.ParamSpec{Name: paramMaxDist, Kind: model.ParamFloat, Min: 0, Max: 1, Default: "0.6", Step: 0.05, Header: true, Common: true,
		Help: "largest allowed distortion of the generalization",
		Why:  "distortion is a fraction of the hierarchy height (Sattar et al., Definition 10, delta')"}
	minGenParam = model.ParamSpec{Name: paramMinGen, Kind: model.ParamText, Default: "auto", Header: true,
		Help:    "minimum generalization per QI, in levels above the value: auto (numeric QIs 1 level, e.g. 5-year age intervals), none, or ATTR=L,ATTR=L",
		Why:     "legislation may forbid publishing exact values, e.g. age at least in 5-year intervals (Sattar et al., Section 4)",
		Allowed: "auto, none or ATTR=L[,ATTR=L...] with L >= 0 levels above the value",
		Check:   func(s string) error { _, err := parseMinGen(s); return err },
		Presets: func(r model.Roles) []string {
			out := []string{"auto", "none"}
			if len(r.QIs) > 0 {
				q := r.QIs[0]
				out = append(out, q+"=1", q+"=2", q+"=3")
			}
			return out
		},
		Sweep: "none,auto"}
	marginalsParam = model.ParamSpec{Name: paramMarginal, Kind: model.ParamText, Default: format.MarginalsTable, File: true,
		Help:    "public marginals Pr(q) and Pr(s): table (the table's own, as the paper's experiments) or a CSV attribute,value,probability",
		Why:     "the adversary's public knowledge (Sattar et al., Definition 5 and Section 6)",
		Allowed: "table or a CSV file with columns attribute,value,probability",
		Check: func(s string) error {
			if strings.TrimSpace(s) == "" {
				return errors.New("give table or a CSV file")
			}
			return nil
		},
		Presets: func(model.Roles) []string { return []string{format.MarginalsTable} }}
)

// Config is sampling's parameters, decoded once from their text
// (Decode).
type Config struct {
	Rate          model.Bound // the sampling rate beta, held exactly
	MaxDistortion model.Bound // delta', held exactly
	Seed          uint64      // the sample's draw; crypto-random unless fixed
	// Values are the validated texts, defaults filled in (the manifest
	// and the figures' limits state them as given; prepare reads the
	// minimum generalization and the marginals from them).
	Values model.Values
}

// Decode validates values against sampling's declaration for a table of
// rows rows and reads them.
func Decode(values model.Values, rows int) (Config, error) {
	v, err := Method{}.Spec().Validate(values, rows)
	if err != nil {
		return Config{}, err
	}
	seed, fixed, _ := model.ParseSeed(v[model.SeedParam.Name])
	if !fixed {
		seed = model.CryptoSeed()
	}
	return Config{Rate: format.ParamRate.Of(v), MaxDistortion: format.ParamMaxDistortion.Of(v), Seed: seed, Values: v}, nil
}

// minGen is the minimum generalization rule: levels above the value per
// attribute. auto means 1 level for numeric QIs, 0 for the others.
type minGen struct {
	auto   bool
	levels map[string]int
}

func parseMinGen(s string) (minGen, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "auto", "":
		return minGen{auto: true}, nil
	case "none":
		return minGen{levels: map[string]int{}}, nil
	}
	out := minGen{levels: map[string]int{}}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		n, err := strconv.Atoi(v)
		if !ok || k == "" || err != nil || n < 0 || n > 1000 {
			return minGen{}, fmt.Errorf("%q is not ATTR=L with L a whole number of levels >= 0", strings.TrimSpace(part))
		}
		if _, dup := out.levels[k]; dup {
			return minGen{}, fmt.Errorf("%s is given twice", k)
		}
		out.levels[k] = n
	}
	return out, nil
}

// resolve gives the levels of every QI; an attribute that is not a QI is
// an error.
func (g minGen) resolve(qis []string, tax []*taxonomy) (map[string]int, error) {
	out := map[string]int{}
	for i, q := range qis {
		switch {
		case g.auto && tax[i].numeric:
			out[q] = 1
		case g.auto:
			out[q] = 0
		default:
			out[q] = g.levels[q]
		}
	}
	var unknown []string
	for k := range g.levels {
		if _, ok := out[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, &model.ParamError{Param: paramMinGen, Value: strings.Join(unknown, ","), Reason: "not a quasi-identifier",
			Hint: "the quasi-identifiers are " + strings.Join(qis, ", ")}
	}
	return out, nil
}

// marginals holds the public probability of each value, per attribute.
type marginals struct {
	source string // "table" or "file"
	p      map[string]map[string]float64
	notes  []string
}

// tableMarginals counts every used column's values in the table: the
// paper's experiments assume the data's distribution is the population's
// (Section 6).
func tableMarginals(t *model.Table, cols []string) marginals {
	m := marginals{source: "table", p: map[string]map[string]float64{}}
	for _, name := range cols {
		c := t.Column(name)
		counts := c.Counts()
		total := 0
		for _, n := range counts {
			total += n
		}
		vals := map[string]float64{}
		for code, n := range counts {
			if n > 0 {
				vals[c.Dict[code]] = float64(n) / float64(total)
			}
		}
		m.p[name] = vals
	}
	return m
}

// readMarginals reads a CSV attribute,value,probability (a header row with
// those names). Attributes the file leaves out take the table's own
// marginals; values it names that the data and hierarchy do not hold are
// ignored (their mass is not in any subdomain, which only lowers expected
// confidences: stricter, never looser).
func readMarginals(path string, t *model.Table, cols []string) (marginals, error) {
	f, err := model.OpenText(path) // records bounded (SPEC 2.1 limits)
	if err != nil {
		return marginals{}, &model.ParamError{Param: paramMarginal, Value: path, Reason: csvfile.OpenReason(err),
			Hint: "give table or a CSV file with columns attribute,value,probability"}
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = 3
	header, err := r.Read()
	bad := func(line int, msg, hint string) error {
		return &model.InputError{File: path, Line: line, Msg: msg, Hint: hint}
	}
	if err == io.EOF {
		return marginals{}, bad(1, "empty file", "the first row is attribute,value,probability")
	}
	if err != nil {
		return marginals{}, csvError(path, err)
	}
	for i := range header {
		header[i] = strings.TrimSpace(strings.TrimPrefix(header[i], "\ufeff"))
	}
	if strings.Join(header, ",") != "attribute,value,probability" {
		return marginals{}, bad(1, "expected the header attribute,value,probability", "one row per value: attribute,value,probability")
	}
	used := map[string]bool{}
	for _, c := range cols {
		used[c] = true
	}
	m := marginals{source: "file", p: map[string]map[string]float64{}}
	skipped := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return marginals{}, csvError(path, err)
		}
		line, _ := r.FieldPos(0)
		attr, val := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		p, perr := strconv.ParseFloat(strings.TrimSpace(rec[2]), 64)
		if perr != nil || math.IsNaN(p) || p < 0 || p > 1 {
			return marginals{}, bad(line, fmt.Sprintf("probability %q is not a number in [0,1]", rec[2]), "a probability is a number from 0 to 1, e.g. 0.25")
		}
		if !used[attr] {
			skipped++
			continue
		}
		if m.p[attr] == nil {
			m.p[attr] = map[string]float64{}
		}
		if _, dup := m.p[attr][val]; dup {
			return marginals{}, bad(line, fmt.Sprintf("%s = %s is given twice", attr, val), "list each value of an attribute once")
		}
		m.p[attr][val] = p
	}
	if skipped > 0 {
		m.notes = append(m.notes, fmt.Sprintf("marginals: %d rows name attributes the run does not use (ignored)", skipped))
	}
	m.fillFromTable(t, cols)
	if err := m.check(path, t, cols); err != nil {
		return marginals{}, err
	}
	return m, nil
}

// fillFromTable gives the attributes among cols that m leaves out the
// table's own marginals, and says so in m's notes.
func (m *marginals) fillFromTable(t *model.Table, cols []string) {
	var missing []string
	for _, c := range cols {
		if m.p[c] == nil {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		tm := tableMarginals(t, missing)
		for k, v := range tm.p {
			m.p[k] = v
		}
		m.notes = append(m.notes, "marginals of "+strings.Join(missing, ", ")+" are the table's own (the file gives none)")
	}
}

// check refuses marginals (read from path) whose probabilities of an
// attribute sum to more than 1, or that give no positive probability to
// a value the table holds.
func (m marginals) check(path string, t *model.Table, cols []string) error {
	for _, c := range cols {
		sum := 0.0
		for _, p := range m.p[c] {
			sum += p
		}
		if sum > 1+1e-6 {
			return &model.InputError{File: path, Msg: fmt.Sprintf("the probabilities of %s sum to %v, more than 1", c, sum), Hint: "each attribute's values are a distribution"}
		}
		col, prob := t.Column(c), m.lookup(c)
		for code, n := range col.Counts() {
			if n > 0 && prob(col.Dict[code]) == 0 {
				return &model.InputError{File: path, Msg: fmt.Sprintf("%s = %s occurs in the table but has no positive probability", c, col.Dict[code]),
					Hint: "list every value of the attribute that occurs in the data"}
			}
		}
	}
	return nil
}

func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &model.InputError{File: path, Line: pe.Line, Msg: pe.Err.Error(), Hint: "three fields per row: attribute,value,probability"}
	}
	var ie *model.InputError
	if errors.As(err, &ie) {
		return ie
	}
	return &model.InputError{File: path, Msg: err.Error()}
}

// lookup returns the public probability of a value of attr: by its
// text, or, for numbers, by value (so "30" in the file matches a leaf
// "30.0").
func (m marginals) lookup(attr string) func(label string) float64 {
	vals := m.p[attr]
	var byNum map[float64]float64
	return func(label string) float64 {
		if p, ok := vals[label]; ok {
			return p
		}
		v, ok := model.ParseNumber(label)
		if !ok {
			return 0
		}
		if byNum == nil {
			byNum = map[float64]float64{}
			for k, p := range vals {
				if w, ok := model.ParseNumber(k); ok {
					byNum[w] = p
				}
			}
		}
		return byNum[v]
	}
}

// wholeMarginals are tableMarginals over the whole input when the table
// is one partition of it (method.Input.Whole): Eq. 3's Pr(q) and Pr(s)
// are the population's, so every partition reads the same (Sattar et
// al. 2013, Section 6).
func wholeMarginals(w *model.Whole, cols []string) marginals {
	m := marginals{source: "table", p: map[string]map[string]float64{}}
	for _, name := range cols {
		m.p[name] = w.Frequency(name)
	}
	return m
}
