package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"privlab/algorithms/catalog"
	"privlab/algorithms/method"
	"privlab/algorithms/partitioned"
	"privlab/algorithms/pipeline"
	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
	"privlab/model/source"
)

// releaseDir is the release a command reads: check's argument or
// --release.
func releaseDir(a *Args) string {
	if a.Release != "" {
		return a.Release
	}
	if len(a.Positional) == 1 {
		return a.Positional[0]
	}
	return ""
}

func cmdCheck(a *Args, w, ew io.Writer) error {
	if len(a.Positional) != 1 {
		return &model.ParamError{Param: "check", Reason: "expected one release directory", Hint: "privlab check DIR [--original FILE] [--public FILE]"}
	}
	var orig *model.Table
	if a.Original != "" {
		// The file is hashed (against the audit record) while it loads;
		// a file that does not load says so first.
		audited := make(chan error, 1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					audited <- model.Recovered(r, "comparing the original with the audit record")
				}
			}()
			audited <- sameAsAudited(a, releaseDir(a))
		}()
		var err error
		orig, err = loadOriginal(a, a.Original, releaseDir(a))
		if aerr := <-audited; err == nil {
			err = aerr
		}
		if err != nil {
			return err
		}
	}
	var pub *model.Table
	if a.Project.Public != "" {
		var err error
		if pub, err = loadPublicFor(a, releaseDir(a), orig); err != nil {
			return err
		}
	}
	k := &risk.Knowledge{Original: orig, Public: pub}
	if err := attackExtras(a, k); err != nil {
		return err
	}
	check := env.CheckWith
	if partitioned.Is(a.Positional[0]) {
		check = func(dir string, k *risk.Knowledge) (*verify.Report, error) { return partitioned.Check(env, dir, k) }
	}
	rep, err := check(a.Positional[0], k)
	if err != nil {
		return err
	}
	for _, l := range rep.Strings() {
		fmt.Fprintln(w, l)
	}
	for _, u := range rep.Unproven {
		fmt.Fprintf(w, "UNCONFIRMED %s\n", u)
	}
	if !rep.OK() {
		return privacyFailure("check failed: " + rep.Err().Error())
	}
	if len(rep.Unproven) > 0 {
		return exitError{exitUnconfirmed, fmt.Sprintf("no check failed, but %d privacy guarantee(s) could not be confirmed from the inputs given (exit 3; each UNCONFIRMED line names the file that confirms it)", len(rep.Unproven))}
	}
	fmt.Fprintf(w, "release %s passes every check\n", a.Positional[0])
	return nil
}

// notAPattern refuses a glob where one table is read (--original of a
// release made from a glob of shards): run alone reads a glob.
func notAPattern(param, spec string) error {
	if !strings.ContainsAny(spec, "*?[") {
		return nil
	}
	if _, err := os.Lstat(spec); err == nil {
		return nil // a file named so
	}
	return &model.ParamError{Param: param, Value: spec, Reason: "a pattern of files: check, attack, eval and query read the original as one file (run alone reads a glob of shards)",
		Hint: "join the shards into one file (one header row) and give it; check DIR without --original checks the release's files alone"}
}

// notAPatternIn refuses a glob as the input of a command that reads one
// table: only a partitioned run reads a glob of shards.
func notAPatternIn(spec string) error {
	if !strings.ContainsAny(spec, "*?[") {
		return nil
	}
	if _, err := os.Lstat(spec); err == nil {
		return nil // a file named so
	}
	return &model.ParamError{Param: "in", Value: spec, Reason: "a pattern of files: only a partitioned run reads a glob of shards, this command reads one table",
		Hint: "privlab run --partitions N (or --partition-rows N) runs the shards partition by partition; otherwise join them into one file (one header row)"}
}

// loadOriginal loads --original or --public (a file or dataset:NAME) for
// the release in dir. Settings the command line leaves open (--columns of
// a header-less file, --kind, --rows and --data-seed of a generator,
// --max-cell, --header, --missing-values) come from the release's audit
// record when it was made from the same input, so the user does not
// repeat them.
func loadOriginal(a *Args, spec, dir string) (*model.Table, error) {
	if err := notAPattern("original", spec); err != nil {
		return nil, err
	}
	p := pipeline.Project{Input: spec, Rows: a.Rows, DataSeed: a.Project.DataSeed, Columns: a.Project.Columns,
		Kinds: a.Project.Kinds, MaxCell: a.Project.MaxCell, Delimiter: a.Project.Delimiter,
		Header: a.Project.Header, MissingValues: a.Project.MissingValues}
	if made, ok := env.Cache.AuditProject(dir); ok && (sameInput(made.Input, spec) || sameInput(made.Public, spec)) {
		if len(p.Columns) == 0 && sameInput(made.Input, spec) {
			p.Columns = made.Columns
		}
		if p.Header == "" && sameInput(made.Input, spec) {
			p.Header = made.Header
		}
		if p.MissingValues == nil {
			p.MissingValues = made.MissingValues
		}
		if p.Kinds == nil {
			p.Kinds = made.Kinds
		}
		if p.Rows == 0 {
			p.Rows = made.Rows
		}
		if p.DataSeed == 0 {
			p.DataSeed = made.DataSeed
		}
		if p.MaxCell == 0 {
			p.MaxCell = made.MaxCell
		}
		if p.Delimiter == "" && sameInput(made.Input, spec) {
			p.Delimiter = made.Delimiter
		}
	}
	return env.LoadTableContext(interruptCtx(), p)
}

// loadPublicFor loads check's --public for the release in dir as run
// loads it (pipeline.Env.LoadPublic: every QI present, the original's
// column kinds, the release's missing-value policy). The public table
// proves faithfulness together with the original, so it needs --original,
// and a release whose method reads no public table refuses one.
func loadPublicFor(a *Args, dir string, orig *model.Table) (*model.Table, error) {
	spec := a.Project.Public
	man, err := releasedir.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if m, err := catalog.Lookup(man.Method); err == nil && m.Spec().Public == method.NoPublic {
		return nil, &model.ParamError{Param: "public", Value: spec, Reason: "the release's method " + man.Method + " reads no public table",
			Hint: "leave out --public"}
	}
	if orig == nil {
		return nil, &model.ParamError{Param: "public", Value: spec, Reason: "check reads the public table together with the original",
			Hint: "privlab check DIR --original FILE --public FILE"}
	}
	p := pipeline.Project{Public: spec, PublicRows: a.Project.PublicRows, DataSeed: a.Project.DataSeed, MaxCell: a.Project.MaxCell,
		Roles: model.Roles{QIs: man.QIs, IDs: a.Project.Roles.IDs}, MissingValues: a.Project.MissingValues}
	if made, ok := env.Cache.AuditProject(dir); ok && sameInput(made.Public, spec) {
		if p.MissingValues == nil {
			p.MissingValues = made.MissingValues
		}
		if p.PublicRows == 0 {
			p.PublicRows = made.PublicRows
		}
		if p.DataSeed == 0 {
			p.DataSeed = made.DataSeed
		}
		if p.MaxCell == 0 {
			p.MaxCell = made.MaxCell
		}
		if len(p.Roles.IDs) == 0 {
			p.Roles.IDs = made.Roles.IDs
		}
	}
	policy, err := model.ParseMissingPolicy(man.MissingValues)
	if err != nil {
		policy = model.DropMissing
	}
	return env.LoadPublic(p, orig, policy)
}

// sameAsAudited refuses an --original that the audit record beside the
// release says is not its input: a file whose SHA-256 differs from the
// input's, or a generated dataset asked for with other rows or seed. It
// is an input error (exit 2), not a failed check: the release is not at
// fault. Without an audit record nothing is compared.
func sameAsAudited(a *Args, dir string) error {
	audit, err := env.Cache.ReadAudit(dir)
	if err != nil {
		return nil
	}
	if name, ok := strings.CutPrefix(a.Original, "dataset:"); ok {
		made, ok := env.Cache.AuditProject(dir)
		if !ok || made.Input != a.Original {
			return nil // another dataset: its columns decide
		}
		rows := made.Rows
		if d, err := datasets.Lookup(name); err == nil && rows == 0 {
			rows = d.DefaultRows
		}
		if a.Rows != 0 && a.Rows != rows || a.Project.DataSeed != 0 && a.Project.DataSeed != made.DataSeed {
			return &model.ParamError{Param: "original", Value: a.Original,
				Reason: fmt.Sprintf("the audit record says the release was made from %s with %d rows and data seed %d", made.Input, rows, made.DataSeed),
				Hint:   "leave out --rows and --data-seed: check takes them from the audit record"}
		}
		return nil
	}
	if audit.InputSHA256 == "" {
		return nil
	}
	if sum, err := releasedir.FileSHA256(source.Path(a.Original)); err == nil && sum != audit.InputSHA256 {
		return &model.InputError{File: a.Original, Msg: "not the input of this release: its SHA-256 differs from the one the audit record beside the release holds",
			Hint: "give the file the release was made from (check reads " + releasedir.AuditPath(dir) + ")"}
	}
	return nil
}

// sameInput reports whether two input specs name the same file (and the
// same sheet or table of it), or the same dataset:NAME.
func sameInput(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	pa, parta := source.Split(a)
	pb, partb := source.Split(b)
	sa, err1 := os.Stat(pa)
	sb, err2 := os.Stat(pb)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb) && strings.EqualFold(parta, partb)
}
