// Package partitioned runs a method partition by partition (SPEC 3.9,
// issue 36): a plan cuts the quasi-identifier space on a sample as
// Mondrian cuts it (algorithms/partitionplan), every partition is
// anonymized, checked and attacked on its own as a release of its own
// (a sub-directory part-NNNNN), and one manifest at the top states the
// plan, the partitions' digests and the figures combined from them.
//
// Why the union keeps each method's definition: every definition the
// five methods certify is a condition on each group (k records or boxes
// of k, alpha and beta per group, a distance to a target per group, a
// presence bound per group, a per-record cap of Eq. 3) and a group never
// spans two partitions, so the union's groups are the partitions'
// groups. What a paper defines over the whole table is computed over
// the whole input first and handed to every partition (method.Whole):
// sampling's marginals (Sattar et al., Eq. 3) and distribution's
// table target (Koudas et al. 2009, Section 3). The plan is published,
// and a person's quasi-identifiers place them in exactly one partition,
// so an attacker loses nothing by attacking partition by partition: the
// attacks run so, each against the people of the population the plan
// places in that partition.
package partitioned

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"privlab/algorithms/partitionplan"
	"privlab/algorithms/pipeline"
	"privlab/model"
	"privlab/model/releasedir"
)

// DefaultPartitionRows is the largest partition a partitioned run makes
// when neither --partition-rows nor --partitions is given: at about
// 650 bytes a row for the heaviest method (SPEC 8's 6.5 GB at 10M rows),
// a million rows keep a partition's run under 1 GB.
const DefaultPartitionRows = 1_000_000

// planSample is the most rows the plan's cuts are chosen on.
const planSample = 200_000

// Options say how a run is partitioned and exported.
type Options struct {
	// PartitionRows is the most rows a partition holds (0: from
	// Partitions, else DefaultPartitionRows).
	PartitionRows int
	// Partitions asks for exactly this many partitions, the largest cut
	// first (fewer only when no partition can be cut further);
	// PartitionRows wins when both are given.
	Partitions int
	// Export is how each partition's release is written and checked.
	Export pipeline.ExportOptions
	// Progress, when set, is told when partition i of n starts.
	Progress func(i, n int)
}

// Result is a finished partitioned run.
type Result struct {
	Plan     *partitionplan.Plan
	Manifest *releasedir.Manifest
	// Parts are the partitions' own manifests, in partition order.
	Parts []*releasedir.Manifest
}

// MaxRows is the partition size the options ask of a table of rows.
func (o Options) MaxRows(rows int) (int, error) {
	switch {
	case o.PartitionRows < 0:
		return 0, &model.ParamError{Param: "partition-rows", Value: strconv.Itoa(o.PartitionRows), Reason: "must be at least 1"}
	case o.Partitions < 0:
		return 0, &model.ParamError{Param: "partitions", Value: strconv.Itoa(o.Partitions), Reason: "must be at least 1"}
	case o.PartitionRows > 0:
		return o.PartitionRows, nil
	case o.Partitions > 0:
		return max(1, int(math.Ceil(float64(rows)/float64(o.Partitions)))), nil
	}
	return DefaultPartitionRows, nil
}

// PartDir names partition i's directory in a partitioned release.
func PartDir(i int) string { return fmt.Sprintf("part-%05d", i) }

// ViolationError is a partition whose groups violate the method's privacy
// requirement, violations not accepted: the run writes nothing and ends
// as a single run that does (exit 1, a privacy requirement not met).
type ViolationError struct{ Groups int }

func (e *ViolationError) Error() string {
	groups := fmt.Sprintf("%d groups of this partition violate", e.Groups)
	if e.Groups == 1 {
		groups = "1 group of this partition violates"
	}
	return groups + " the privacy requirement; no release written"
}

// runPart runs and exports one partition into the job's staging
// directory, and moves its audit record out of what will be published.
func runPart(ctx context.Context, sub *pipeline.Prepared, j *Job, i int, exp pipeline.ExportOptions) (*releasedir.Manifest, error) {
	res, err := pipeline.Run(ctx, sub, pipeline.RunOptions{})
	if err != nil {
		return nil, err
	}
	if !res.Satisfied() && !exp.AcceptViolations {
		return nil, &ViolationError{Groups: res.Violations()}
	}
	exp.LetGo = true
	exp.Force = false
	partDir := filepath.Join(j.Release, PartDir(i))
	ex, err := pipeline.Export(sub, res, partDir, exp)
	if err != nil {
		return nil, err
	}
	if err := os.Rename(releasedir.AuditPath(partDir), filepath.Join(j.Audits, PartDir(i)+".audit.json")); err != nil {
		return nil, err
	}
	return ex.Manifest, nil
}

// encodePlan is the plan as the manifest states it.
func encodePlan(plan *partitionplan.Plan) (json.RawMessage, error) {
	return json.Marshal(plan)
}
