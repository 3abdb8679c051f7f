// Package check is the independent checker of sampling releases (Sattar,
// Li, Ding, Liu, Vincent): from published.csv and the public knowledge the
// manifest lists (taxonomies with the public probability of every value,
// the sensitive values' probabilities) it recomputes every record's
// observed confidence beta·#s/|E| (Eq. 2), expected confidence
// 1-(1-Pr(t))^n (Eq. 1) and distortion (Definition 10), and fails when a
// record breaks Eq. 3 or the distortion limit. It imports model,
// algorithms/verify, algorithms/risk and the release's format package
// only, never the method.
//
// The checker is the list of lines it can print (checks): one small
// function per line name, each reading the facts of the release (its
// equivalence groups, their confidences, the original's records) that
// are computed once.
package check

import (
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"privlab/algorithms/sampling/format"
	"privlab/algorithms/verify"
	"privlab/model"
	"privlab/model/releasedir"
)

const file = format.FilePublished

// belowMinText is the minimum generalization line of every sampling
// release.
const belowMinText = "every published value has at least the rule's levels of taxonomy below it (%d values do not); the record's own value is measured with the original and the audit record"

// checks are the lines a sampling check prints, in order.
var checks = []verify.Check[release]{
	{Name: "names", Gate: true, Run: names},
	{Name: "public knowledge", Gate: true, Run: publicKnowledge},
	{Name: "parameters", Run: parameters},
	{Name: "min-generalization", Run: minGeneralizationRule},
	{Name: "marginals", Run: marginalsSource},
	{Name: "minimum generalization", Run: minimumGeneralization},
	{Name: "sensitive values", Run: sensitiveValues},
	{Name: "Eq. 3", Run: eq3},
	{Name: "distortion", Run: distortion},
	{Name: "counts", Run: counts},
	{Name: "figures", Run: figureClaims},
	{Name: "rows considered", Needs: verify.NeedOriginal, Run: rowsConsidered},
	{Name: "marginals", Needs: verify.NeedOriginal, Run: tableMarginals},
	{Name: "faithful", Needs: verify.NeedOriginal, Run: faithful},
	{Name: "minimum generalization of each record", Needs: verify.NeedOriginal, Run: recordGeneralization},
	{Name: "shuffled", Needs: verify.NeedOriginal, Run: shuffled},
	{Name: "claims", Run: claims},
}

// release is a sampling release as its checks read it: the file, the
// details, the public knowledge (read by the gates, before any other
// check starts), and the facts several checks share, computed once.
type release struct {
	rel *verify.Release
	m   *releasedir.Manifest
	opt verify.Options
	man string
	det format.Details
	t   *model.Table

	// The public knowledge: the QIs' taxonomies, the sensitive values'
	// probabilities, the minimum generalization's levels (mgErr: the rule
	// does not read).
	trees []*tree
	saP   map[string]float64
	mg    map[string]int
	mgErr error

	groups   verify.Fact[*groups]
	conf     verify.Fact[*confidences]
	original verify.Fact[*original]
}

// Check verifies a sampling release.
func Check(rel *verify.Release, opt verify.Options, r *verify.Report) error {
	c, err := open(rel, opt)
	if err != nil {
		return err
	}
	return verify.RunChecks(c, opt, checks, r)
}

// open reads the details and published.csv.
func open(rel *verify.Release, opt verify.Options) (*release, error) {
	c := &release{rel: rel, m: rel.Manifest, opt: opt, man: filepath.Join(rel.Dir, "manifest.json")}
	var err error
	if c.det, err = format.Read(c.m); err != nil {
		return nil, &model.InputError{File: c.man, Msg: "details: not the details of a sampling release: " + strings.TrimPrefix(err.Error(), "details: "),
			Hint: "the manifest's details carry the public knowledge"}
	}
	if c.t, err = rel.Table(file); err != nil {
		// A release may publish no record at all: a header alone.
		if c.t = headerOnly(filepath.Join(rel.Dir, file)); c.t == nil {
			return nil, err
		}
	}
	return c, nil
}

// headerOnly reads a CSV file that holds its header row and nothing else
// as a table without rows (nil for any other file).
func headerOnly(path string) *model.Table {
	f, err := model.OpenText(path) // records bounded
	if err != nil {
		return nil
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) != 1 {
		return nil
	}
	t := &model.Table{Name: path}
	for _, name := range recs[0] {
		t.Columns = append(t.Columns, &model.Column{Name: name})
	}
	return t
}

// names binds the manifest's names to published.csv's header: the QIs,
// then the sensitive attribute. Nothing more is read when they do not.
func names(c *release, r *verify.Report) error {
	if !r.BindNames(file, c.t, format.Header(c.m.QIs, c.m.SA)) {
		return verify.ErrStop
	}
	return nil
}

// publicKnowledge reads the taxonomy of every QI, in order, and the
// sensitive values' probabilities (in [0,1], each once, summing to at
// most 1): a release whose public knowledge does not read is unreadable.
func publicKnowledge(c *release, r *verify.Report) error {
	m, d := c.m, c.det
	if len(d.Attributes) != len(m.QIs) {
		return &model.InputError{File: c.man, Msg: fmt.Sprintf("public_knowledge describes %d attributes for %d quasi-identifiers", len(d.Attributes), len(m.QIs))}
	}
	c.trees = make([]*tree, len(m.QIs))
	for i, a := range d.Attributes {
		if a.Name != m.QIs[i] {
			return &model.InputError{File: c.man, Msg: fmt.Sprintf("public_knowledge describes %s where the quasi-identifier %s is expected", a.Name, m.QIs[i])}
		}
		var err error
		if c.trees[i], err = readTree(a); err != nil {
			return &model.InputError{File: c.man, Msg: err.Error()}
		}
	}
	c.saP = map[string]float64{}
	sum := 0.0
	for _, v := range d.Sensitive {
		if _, dup := c.saP[v.Value]; dup || math.IsNaN(v.P) || v.P < 0 || v.P > 1 {
			return &model.InputError{File: c.man, Msg: fmt.Sprintf("sensitive_marginals: %q is listed twice or has a probability outside [0,1]", v.Value)}
		}
		c.saP[v.Value] = v.P
		sum += v.P
	}
	if sum > 1+1e-9 {
		return &model.InputError{File: c.man, Msg: fmt.Sprintf("sensitive_marginals sum to %v > 1", sum)}
	}
	c.mg, c.mgErr = minGeneralization(format.ParamMinGeneralization.Of(m.Parameters), m.QIs, c.trees)
	return nil
}
