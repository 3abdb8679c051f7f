package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"privlab/algorithms/pipeline"
	"privlab/datasets"
	"privlab/model"
	"privlab/model/releasedir"
	"privlab/model/source"
	"privlab/ui/cli/clitext"
)

func cmdDatasets(a *Args, w, ew io.Writer) error {
	if err := noPositional(a, "datasets"); err != nil {
		return err
	}
	fmt.Fprintf(w, "%-20s %8s %5s  %s\n", "name", "rows", "cols", "description")
	for _, d := range datasets.All() {
		rows := fmt.Sprintf("%d", d.DefaultRows)
		if !d.Fixed {
			rows += "*"
		}
		fmt.Fprintf(w, "%-20s %8s %5d  %s (%s)\n", d.Name, rows, len(d.Columns), d.Title, d.Source)
	}
	fmt.Fprintln(w, "\n* generated: any --rows, deterministic by --seed. Use as --in dataset:NAME.")
	return nil
}

func cmdGen(a *Args, w, ew io.Writer) error {
	if len(a.Positional) != 1 {
		return &model.ParamError{Param: "gen", Reason: "expected one dataset name", Hint: "privlab gen NAME [--rows N] [--seed S] [--out FILE]; privlab datasets lists them"}
	}
	name := a.Positional[0]
	if a.Rows < 0 {
		return &model.ParamError{Param: "rows", Value: fmt.Sprint(a.Rows), Reason: "must be >= 0"}
	}
	if a.flagsSet["shards"] {
		return genShards(a, w, name)
	}
	if name == "universe" && a.Out != "" {
		for _, f := range []string{"mt.csv", "pd.csv"} {
			if err := releasedir.RefuseExisting("out", filepath.Join(a.Out, f), a.Force); err != nil {
				return err
			}
		}
		if err := datasets.WriteUniverse(a.Out, a.Rows, a.Ratio, a.Seed); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s and %s\n", filepath.Join(a.Out, "mt.csv"), filepath.Join(a.Out, "pd.csv"))
		return nil
	}
	d, err := datasets.Lookup(name)
	if err != nil {
		return err
	}
	if err := genTargets(a, d); err != nil {
		return err
	}
	if err := genFormat(a.Out); err != nil {
		return err
	}
	if a.Out == "" {
		if err := d.Write(raw(w), a.Rows, a.Seed); err != nil {
			return err
		}
	} else {
		if err := releasedir.WriteAtomic(a.Out, genWriter(a, d)); err != nil {
			return err
		}
		fmt.Fprintf(w, "wrote %s\n", a.Out)
	}
	if a.HierDir != "" {
		t, err := d.Load(a.Rows, a.Seed)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(a.HierDir, 0o755); err != nil {
			return err
		}
		for _, c := range t.Columns {
			h, err := d.Hierarchy(c)
			if err != nil {
				return err
			}
			path := filepath.Join(a.HierDir, c.Name+".csv")
			var b strings.Builder
			for _, row := range h.Rows() {
				b.WriteString(strings.Join(row, ";"))
				b.WriteByte('\n')
			}
			if err := releasedir.WriteFileAtomic(path, []byte(b.String())); err != nil {
				return err
			}
		}
		fmt.Fprintf(w, "wrote %d hierarchies to %s\n", len(t.Columns), a.HierDir)
	}
	return nil
}

// shardPath is shard i's file in dir.
func shardPath(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("part-%05d.parquet", i))
}

// genShards writes the dataset's rows, in order, as a.Shards Parquet files
// in the directory a.Out, one shard in memory at a time; every shard has
// the first one's layout (source.ParquetColumnsOf).
func genShards(a *Args, w io.Writer, name string) error {
	if a.Shards < 1 {
		return &model.ParamError{Param: "shards", Value: fmt.Sprint(a.Shards), Reason: "must be at least 1"}
	}
	if a.Out == "" || name == "universe" || a.HierDir != "" {
		return &model.ParamError{Param: "shards", Value: fmt.Sprint(a.Shards), Reason: "writes a dataset's rows to --out DIR, without --hierarchies",
			Hint: "privlab gen NAME [--rows N] [--seed S] --out DIR --shards S"}
	}
	d, err := datasets.Lookup(name)
	if err != nil {
		return err
	}
	if err := refuseExistingShards(a.Out, a.Shards, a.Force); err != nil {
		return err
	}
	var layout []source.ParquetColumn
	err = d.Shards(a.Rows, a.Seed, a.Shards, func(i int, t *model.Table) error {
		if layout == nil { // the first shard: the arguments are good
			layout = source.ParquetColumnsOf(t)
			if err := os.MkdirAll(a.Out, 0o755); err != nil {
				return err
			}
		}
		return releasedir.WriteAtomic(shardPath(a.Out, i), func(f io.Writer) error { return source.WriteParquet(f, t, layout) })
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s .. %s\n", shardPath(a.Out, 0), filepath.Base(shardPath(a.Out, a.Shards-1)))
	return nil
}

// refuseExistingShards refuses the first of dir's shard files below
// shards that exists (unless force): it reads the directory once, not a
// path per shard, so --shards 1000000000 is refused (too many for the
// rows) at once rather than after a billion looks.
func refuseExistingShards(dir string, shards int, force bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // no directory, no shard to replace (writing it says why it cannot be made)
	}
	for _, e := range entries {
		var i int
		if n, _ := fmt.Sscanf(e.Name(), "part-%d.parquet", &i); n == 1 && i >= 0 && i < shards && e.Name() == filepath.Base(shardPath(dir, i)) {
			if err := releasedir.RefuseExisting("out", shardPath(dir, i), force); err != nil {
				return err
			}
		}
	}
	return nil
}

// genFormat refuses an --out file gen cannot write in the format its name
// says (gen writes CSV, or Parquet to a .parquet file).
func genFormat(out string) error {
	switch strings.ToLower(filepath.Ext(out)) {
	case ".xlsx", ".db", ".sqlite", ".sqlite3":
		return &model.ParamError{Param: "out", Value: out, Reason: "gen writes CSV, or Parquet to a .parquet file, not " + filepath.Ext(out),
			Hint: "name the file .csv or .parquet"}
	}
	return nil
}

// genWriter writes the dataset's rows as --out's name says: Parquet to a
// .parquet file (the table the CSV loads as, columns typed as
// source.ParquetColumnsOf gives them), CSV otherwise.
func genWriter(a *Args, d datasets.Dataset) func(io.Writer) error {
	if strings.ToLower(filepath.Ext(a.Out)) != ".parquet" {
		return func(f io.Writer) error { return d.Write(f, a.Rows, a.Seed) }
	}
	return func(f io.Writer) error {
		t, err := d.Load(a.Rows, a.Seed)
		if err != nil {
			return err
		}
		return source.WriteParquet(f, t, source.ParquetColumnsOf(t))
	}
}

// genTargets refuses, before anything is written, every file gen would
// replace (--out FILE and DIR/COLUMN.csv of --hierarchies) unless --force
// is given.
func genTargets(a *Args, d datasets.Dataset) error {
	if a.Out != "" {
		if err := releasedir.RefuseExisting("out", a.Out, a.Force); err != nil {
			return err
		}
	}
	if a.HierDir == "" {
		return nil
	}
	for _, c := range d.Columns {
		if err := releasedir.RefuseExisting("hierarchies", filepath.Join(a.HierDir, c+".csv"), a.Force); err != nil {
			return err
		}
	}
	return nil
}

func cmdInspect(a *Args, w, ew io.Writer) error {
	if len(a.Positional) != 1 {
		return &model.ParamError{Param: "inspect", Reason: "expected one input", Hint: "privlab inspect FILE|dataset:NAME"}
	}
	p := a.Project
	p.Input = a.Positional[0]
	if a.SeedSet && p.DataSeed == 0 {
		p.DataSeed = a.Seed // inspect has no release: --seed seeds the dataset, as in gen
	}
	t, err := env.LoadTableContext(interruptCtx(), p)
	if err != nil {
		return err
	}
	printInspect(w, t)
	return nil
}

// printInspect writes the profile as a table, names and values escaped
// (model.TermText).
func printInspect(w io.Writer, t *model.Table) {
	fmt.Fprintf(w, "%s: %d rows, %d columns\n\n", t.Name, t.Rows, len(t.Columns))
	fmt.Fprintf(w, "%-20s %-12s %9s %8s  %s\n", "column", "kind", "distinct", "missing", "range / top values")
	for _, p := range pipeline.Inspect(t) {
		desc := strings.Join(p.Top, ", ")
		if p.Kind == model.Numeric {
			desc = fmt.Sprintf("%s .. %s", model.FormatNumber(p.Min), model.FormatNumber(p.Max))
		}
		// Escaped here, not only by the stream, so the columns line up.
		fmt.Fprintf(w, "%-20s %-12s %9d %8d  %s\n", model.TermText(p.Name), p.Kind, p.Distinct, p.Missing, model.TermText(desc))
	}
	if len(t.Notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, n := range t.Notes {
		fmt.Fprintf(w, "warning: %s\n", n.Say(clitext.FixText))
	}
}
