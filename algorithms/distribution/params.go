package distribution

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"privlab/algorithms/distribution/format"
	"privlab/model"
)

// Fakes is the fake-value budget per group (Koudas et al. 2009, Section 5):
// an absolute count, or a percentage of each group's size (Section 6.2).
type Fakes struct {
	Count     int
	Percent   float64
	IsPercent bool
}

// ParseFakes reads "N" or "P%".
func ParseFakes(s string) (Fakes, error) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "%") {
		p, ok := model.ParseNumber(strings.TrimSpace(strings.TrimSuffix(s, "%")))
		if !ok || p < 0 || p > 1000 || math.IsNaN(p) {
			return Fakes{}, fmt.Errorf("a percentage must be between 0%% and 1000%%")
		}
		return Fakes{Percent: p, IsPercent: true}, nil
	}
	n, err := strconv.Atoi(s)
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && !strings.HasPrefix(s, "-") {
		return Fakes{}, fmt.Errorf("too large: at most 1000000 fake values per group")
	}
	if err != nil || n < 0 {
		return Fakes{}, fmt.Errorf("must be an integer >= 0 or a percentage like 5%%")
	}
	if n > 1_000_000 {
		return Fakes{}, fmt.Errorf("at most 1000000 fake values per group")
	}
	return Fakes{Count: n}, nil
}

// For returns the budget for a group of n values: the count, or
// floor(P% of n).
func (f Fakes) For(n int) int {
	if f.IsPercent {
		return int(math.Floor(f.Percent*float64(n)/100 + 1e-9))
	}
	return f.Count
}

func (f Fakes) String() string {
	if f.IsPercent {
		return model.FormatNumber(f.Percent) + "%"
	}
	return strconv.Itoa(f.Count)
}

// Any reports whether the budget allows a fake value in some group.
func (f Fakes) Any() bool { return f.Count > 0 || (f.IsPercent && f.Percent > 0) }

// stepFakes moves a budget one step, keeping its form (N or P%).
func stepFakes(cur string, dir int) string {
	f, err := ParseFakes(cur)
	if err != nil {
		f = Fakes{}
	}
	if f.IsPercent {
		f.Percent = math.Max(0, f.Percent+float64(dir))
	} else {
		f.Count = max(0, f.Count+dir)
	}
	return f.String()
}

// Parameter names.
const (
	paramTarget   = string(format.ParamTarget)
	paramMaxDen   = string(format.ParamMaxDenominator)
	paramGrouping = string(format.ParamGrouping)
	paramFakes    = string(format.ParamFakes)
)

// describeTarget says in one line what a target source does.
func describeTarget(v string) string {
	kind, _, _ := strings.Cut(v, ":")
	switch kind {
	case "uniform":
		return "the whole domain"
	case "table":
		return "the table's own"
	case "group":
		return "each group's own"
	case "group-uniform":
		return "per group's range"
	case "normal":
		return "normal(mu, sigma)"
	case "zipf":
		return "zipf(s) by rank"
	}
	return "value,weight CSV"
}

// defaultMaxDenominator bounds the per-node weight ratios of a target
// (SPEC 2.4): small ratios keep allocations feasible for small groups.
const defaultMaxDenominator = 8

var (
	targetParam = model.ParamSpec{Name: paramTarget, Kind: model.ParamText, Default: "table", Header: true, File: true,
		Help:    "the target distribution every tuple's sensitive value must appear to follow",
		Why:     "the distribution every tuple's SA must appear to follow (Section 3.1)",
		Allowed: "uniform, table, group, group-uniform, normal:MU,SIGMA, zipf:S or a value,weight CSV file",
		Check:   func(s string) error { _, err := ParseTarget(s); return err },
		Presets: func(model.Roles) []string {
			return []string{"uniform", "table", "group", "zipf:0.5", "group-uniform"}
		},
		Sweep:    "uniform;table;group;zipf:0.5;zipf:1;group-uniform",
		Describe: describeTarget,
		Explain: "Definition 3.2. normal:MU,SIGMA and zipf:S are discretised over the domain (Section 6.3), " +
			"table is t-closeness style, group only permutes, group-uniform is Section 6.4's; a CSV file gives value,weight pairs (type its path as the value)."}
	maxDenParam = model.ParamSpec{Name: paramMaxDen, Kind: model.ParamInt, Min: 0, Max: 1 << 20,
		Default: strconv.Itoa(defaultMaxDenominator), Step: 1,
		Help:  "largest integer weight in the target's per-node ratios, e.g. 0.7:0.3 -> 7:3 (0 = exact)",
		Why:   "weights are small integer ratios so that small groups stay feasible (SPEC 2.4)",
		Sweep: "0,1,2,4,8,16,32",
		Explain: "Real masses become per-node ratios of integers no larger than this bound: small ratios keep small groups " +
			"feasible, at a distance from the requested target (the effective target P' is shown with its EMD and max difference)."}
	// The default is the paper's SA-only grouping, the whole table as
	// one group (Koudas et al., Section 4.2); the embedded census demo
	// opens on groups of about 50 records (Spec.ForDataset), so that a
	// newcomer sees groups at once.
	groupingParam = model.ParamSpec{Name: paramGrouping, Kind: model.ParamText, Default: "sa-only", Header: true,
		Help:    "how records are grouped before their sensitive values are generalized",
		Why:     "grouping is decoupled from privacy (Sections 1 and 4.2)",
		Allowed: "sa-only, qi-sa, column:NAME, level:ATTR=L or mondrian:SIZE",
		Check:   checkGrouping,
		Presets: func(r model.Roles) []string {
			out := []string{"sa-only", "qi-sa", "mondrian:10", "mondrian:25", "mondrian:50", "mondrian:100", "mondrian:200", "mondrian:500"}
			if len(r.QIs) > 0 {
				q := r.QIs[0]
				out = append(out, "level:"+q+"=1", "level:"+q+"=2", "level:"+q+"=3", "column:"+q)
			}
			return out
		},
		Sweep: "sa-only,qi-sa,mondrian:10,mondrian:25,mondrian:50,mondrian:100,mondrian:200",
		Explain: "Groups decide which tuples share a generalization; privacy comes from the target, not from the grouping " +
			"(Sections 1 and 4.2): sa-only is one group, qi-sa one per QI combination, mondrian:SIZE median splits down to SIZE."}
	fakesParam = model.ParamSpec{Name: paramFakes, Kind: model.ParamText, Default: "0", Header: true,
		Help:     "at most this many fake sensitive values per group (Section 5)",
		Why:      "a count of values added to a group (Koudas et al. 2009, Section 5; percentages as in Section 6.2)",
		Allowed:  "an integer >= 0 or a percentage like 5%",
		Check:    func(s string) error { _, err := ParseFakes(s); return err },
		StepText: stepFakes,
		Sweep:    "0,1,2,5%,10%,20%"}
)

// Config is distribution's parameters, decoded once from their text
// (Decode).
type Config struct {
	Target         Target   // the target distribution (Section 3)
	MaxDenominator int      // the largest denominator of a target's probabilities
	Grouping       Grouping // how the QI-groups are formed
	Fakes          Fakes    // the fake-value budget per group (Section 5)
	// Values are the validated texts, defaults filled in (the manifest
	// and the notes state them as given).
	Values model.Values
}

// Decode validates values against distribution's declaration for a table
// of rows rows and reads them.
func Decode(values model.Values, rows int) (Config, error) {
	v, err := Method{}.Spec().Validate(values, rows)
	if err != nil {
		return Config{}, err
	}
	c := Config{MaxDenominator: format.ParamMaxDenominator.Of(v), Values: v}
	if c.Target, err = ParseTarget(format.ParamTarget.Of(v)); err != nil {
		return Config{}, err
	}
	if c.Grouping, err = ParseGrouping(format.ParamGrouping.Of(v)); err != nil {
		return Config{}, err
	}
	if c.Fakes, err = ParseFakes(format.ParamFakes.Of(v)); err != nil {
		return Config{}, err
	}
	return c, nil
}
