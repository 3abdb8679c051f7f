// Package check is the independent checker of ambiguity releases (Hui
// Wang, Ambiguity): from at_<qi>.csv and st.csv alone it recomputes every
// group's presence probability |G| / prod_i |G_ATi| (Theorem 5.1) and
// association probability c / |G| (Theorem 5.2), holds them against alpha
// and beta, checks the structure Algorithm 2 guarantees (duplicate-free
// auxiliary tables, one occurrence of each sensitive value per group and
// at least ceil(1/beta) of them: Theorems 7.1-7.2) and every figure the
// manifest states. With the original table it proves the release is
// faithful: each published record is covered by exactly the group that
// holds it (Lemma 5.1), each group's tables hold its members' values and
// nothing else, and the frequencies are its members' sensitive values;
// and it recomputes the figures across groups the manifest states
// (records covered by more than one group, the largest combined presence
// 1 - prod_G (1 - p_G); outside Wang's model), which count the input's
// records. It imports model, algorithms/verify, algorithms/risk and the
// release's format package only, never the method.
//
// The checker is the list of lines it can print (checks): one small
// function per line name, each reading the facts of the release (its
// tables, every group's figures, the original's members) that are
// computed once.
package check

import (
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"strings"

	"privlab/algorithms/ambiguity/format"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

// The names the manifest gives its figures (the method's contract).
const (
	worstPresence    = "max presence probability"
	worstAssociation = "max association probability"
	utilityName      = "average group size"
	auditGroups      = format.AuditGroups
	// Informational figures across groups (outside Wang's model), which
	// only the original confirms: they count the input's records.
	coveredByMany    = "records covered by >1 group (input records, published or not)"
	combinedPresence = "outside Wang's model: max combined presence 1-prod(1-p_G) over the groups covering a record"
)

// figureLabels are the per-group figures, in the method's order.
var figureLabels = []string{"Pr(t in T)", "Pr(t,s|t)", "join", "SA values"}

// checks are the lines an ambiguity check prints, in order.
var checks = []verify.Check[ctx]{
	{Name: "parameters", Gate: true, Run: parameters},
	{Name: "auxiliary tables", Gate: true, Run: auxiliaryTables},
	{Name: "kinds", Run: kinds},
	{Name: "release files", Run: releaseFiles},
	{Name: "tables", Gate: true, Run: readTables},
	{Name: "alpha-presence", Run: alphaPresence},
	{Name: "beta-association", Run: betaAssociation},
	{Name: "diversity", Run: diversity},
	{Name: "claims", Run: claims},
	{Name: "details", Run: detailClaims},
	{Name: "group figures", Run: groupFiguresClaims},
	{Name: "rows suppressed", Needs: verify.NeedOriginal, Run: rowsSuppressed},
	{Name: "audit", Needs: verify.NeedOriginal, Run: auditMembers},
	{Name: "faithful", Needs: verify.NeedOriginal, Run: faithful},
	{Name: "shuffled", Needs: verify.NeedOriginal, Run: shuffled},
	{Name: "coverage", Needs: verify.NeedOriginal, Run: coverage},
	{Name: "values", Needs: verify.NeedOriginal, Run: values},
	{Name: "frequencies", Needs: verify.NeedOriginal, Run: frequencies},
}

// ctx is an ambiguity release as its checks read it: the details, the
// tables (read by the gates, before the checks that use them start), and
// the facts several checks share, computed once.
type ctx struct {
	rel         *verify.Release
	m           *releasedir.Manifest
	opt         verify.Options
	man         string
	det         format.Details
	alpha, beta model.Bound
	rl          *release

	figures  verify.Fact[*groupFigures]
	orig     verify.Fact[*verify.Original]
	original verify.Fact[*original]
}

// Check verifies an ambiguity release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	c := &ctx{rel: rel, m: rel.Manifest, opt: opt, man: filepath.Join(rel.Dir, "manifest.json")}
	var err error
	if c.det, err = format.Read(c.m); err != nil {
		return &model.InputError{File: c.man, Msg: "details are not those of an ambiguity release: " + strings.TrimPrefix(err.Error(), "details: ")}
	}
	return verify.RunChecks(c, opt, checks, r)
}

// parameters: alpha and beta are probabilities in (0,1], read exactly
// (the decimals the manifest states). Nothing more is read when not.
func parameters(c *ctx, r *verify.Report) error {
	var aok, bok bool
	c.alpha, aok = param(c.m, "alpha")
	c.beta, bok = param(c.m, "beta")
	r.Add(aok && bok, "parameters", "alpha = %s and beta = %s are probabilities in (0,1]", format.ParamAlpha.Text(c.m.Parameters), format.ParamBeta.Text(c.m.Parameters))
	if !aok || !bok {
		return verify.ErrStop
	}
	return nil
}

// auxiliaryTables: the details name one auxiliary table per QI, in QI
// order, and no file twice.
func auxiliaryTables(c *ctx, r *verify.Report) error {
	m, det := c.m, c.det
	if len(det.AuxiliaryTables) != len(m.QIs) || len(m.QIs) == 0 || m.SA == "" {
		return &model.InputError{File: c.man, Msg: fmt.Sprintf("details name %d auxiliary tables for %d quasi-identifiers", len(det.AuxiliaryTables), len(m.QIs)),
			Hint: "an ambiguity release has one at_<qi>.csv per quasi-identifier, and a sensitive attribute"}
	}
	names := map[string]bool{det.SensitiveTable: true}
	for i, a := range det.AuxiliaryTables {
		r.ClaimText(fmt.Sprintf("details.auxiliary_tables[%d].qi", i), a.QI, m.QIs[i])
		if names[a.File] {
			return &model.InputError{File: c.man, Msg: fmt.Sprintf("details name %s twice", a.File)}
		}
		names[a.File] = true
	}
	return nil
}

// kinds: every published column is numeric or categorical.
func kinds(c *ctx, r *verify.Report) error {
	for _, col := range append(append([]string(nil), c.m.QIs...), c.m.SA) {
		if k := c.det.Kinds[col]; k != format.Numeric && k != format.Categorical {
			r.Add(false, "claim details.kinds", "the kind of %s is %q; want numeric or categorical", col, k)
		}
	}
	return nil
}

// releaseFiles: the release lists the tables the details name and its
// report only.
func releaseFiles(c *ctx, r *verify.Report) error {
	names := map[string]bool{c.det.SensitiveTable: true, "report.md": true}
	for _, a := range c.det.AuxiliaryTables {
		names[a.File] = true
	}
	var extra []string
	for _, f := range c.rel.Files() {
		if !names[f] {
			extra = append(extra, f)
		}
	}
	r.Add(len(extra) == 0, "release files", "the release lists the %d auxiliary tables, the sensitive table and the report only%s", len(c.m.QIs), listIf(" ; also: ", extra))
	return nil
}

// param reads a probability bound of the manifest exactly (the decimal
// it states, not the float64 nearest it): it must lie in (0,1].
func param(m *releasedir.Manifest, name string) (model.Bound, bool) {
	x, ok := model.ParseBound(m.Parameters[name])
	r := x.Rat()
	return x, ok && r.Sign() > 0 && r.Cmp(big.NewRat(1, 1)) <= 0
}

// ceilInv is the least g with 1/g <= beta, exactly.
func ceilInv(beta model.Bound) int {
	return max(beta.MinSize(1), 1)
}

func summary(x []float64) (lo, mean, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
		mean += v / float64(len(x))
	}
	return lo, mean, hi
}

func listIf(prefix string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	return prefix + strings.Join(items, ", ")
}
