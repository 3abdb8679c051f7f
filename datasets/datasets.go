// Package datasets provides privlab's embedded example datasets: the worked
// examples of the papers the methods come from, and deterministic synthetic
// generators (an Adult-like census, the capital-loss sets of Koudas et al.
// 2009, Section 6, and an IPUMS-like universe for k-join-anonymity). Output
// depends only on (rows, seed): randomness comes from model.NewRand and draws
// use integer weights. Normal and log-normal draws are rounded to integers,
// so a float difference between CPUs (math.Log and math.Exp have assembly on
// some) could only change a value that lies exactly on a rounding boundary.
package datasets

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/hierarchy"
)

//go:embed tables/*.csv hierarchies/*.csv
var files embed.FS

// Dataset describes one embedded dataset or generator.
type Dataset struct {
	Name        string      // e.g. "employees", "census"
	Title       string      // one line
	Source      string      // paper citation by authors and section/figure
	Fixed       bool        // a worked-example table: rows/seed are ignored
	DefaultRows int         // rows when the caller passes 0 (fixed tables: their row count)
	Columns     []string    // column names in order
	Roles       model.Roles // sensible default roles (IDs, QIs, SA)
	// Hierarchies maps column -> default hierarchy spec: a hierarchy.Build
	// builder spec ("flat", "masking", "binary", "ternary", "intervals:5,10,20")
	// or "embedded:FILE" naming a file under datasets/hierarchies/ in the
	// leaf-first layout hierarchy.Parse reads. Every column has one.
	Hierarchies map[string]string

	// table is the embedded CSV file of a fixed table.
	table string
	// gen writes rows generated data rows (header excluded) for a generator.
	gen func(w *bufio.Writer, rows int, seed uint64) error
}

// All returns every dataset: fixed tables first, then generators.
func All() []Dataset {
	return []Dataset{
		employees(), patients(), jobs(),
		kjaFig3(), kjaFig8(), kjaFig1(), kjaFig1PD(), clinic(), clinicPopulation(),
		census(),
		capitalLoss("capitalloss"), capitalLoss("capitalloss-normal"),
		capitalLoss("capitalloss-zipf"), capitalLoss("capitalloss-corr"),
		universe(), universePublic(),
	}
}

// Names lists the dataset names in the order of All.
func Names() []string {
	var out []string
	for _, d := range All() {
		out = append(out, d.Name)
	}
	return out
}

// Lookup finds a dataset by name (a "dataset:" prefix is accepted).
func Lookup(name string) (Dataset, error) {
	n := strings.TrimPrefix(strings.TrimSpace(name), "dataset:")
	for _, d := range All() {
		if d.Name == n {
			return d, nil
		}
	}
	return Dataset{}, fmt.Errorf("unknown dataset %q: known datasets are %s", name, strings.Join(Names(), ", "))
}

// Write writes the dataset as CSV (comma separated, header row, LF) to w.
// rows <= 0 means DefaultRows. Output is byte-identical for the same (rows,
// seed); fixed tables ignore rows and seed.
func (d Dataset) Write(w io.Writer, rows int, seed uint64) error {
	if d.Fixed {
		b, err := files.ReadFile("tables/" + d.table)
		if err != nil {
			return fmt.Errorf("dataset %s: %v", d.Name, err)
		}
		_, err = w.Write(b)
		return err
	}
	if d.gen == nil {
		return fmt.Errorf("dataset %s has no generator", d.Name)
	}
	if err := d.CheckRows(rows); err != nil {
		return err
	}
	if rows <= 0 {
		rows = d.DefaultRows
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.WriteString(strings.Join(d.Columns, ","))
	bw.WriteByte('\n')
	if err := d.gen(bw, rows, seed); err != nil {
		return err
	}
	return bw.Flush()
}

// Load returns the dataset as a table named "dataset:NAME". The CSV text is
// streamed from Write into csvfile.Load through a pipe, so it never exists in
// full.
func (d Dataset) Load(rows int, seed uint64) (*model.Table, error) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := d.Write(pw, rows, seed)
		pw.CloseWithError(err)
		done <- err
	}()
	t, err := csvfile.Load(pr, csvfile.LoadOptions{Name: "dataset:" + d.Name, Delimiter: ','})
	// Unblock the writer if the loader stopped early.
	pr.CloseWithError(io.ErrClosedPipe)
	werr := <-done
	if werr != nil && werr != io.ErrClosedPipe {
		return nil, werr
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// HierarchySpec returns the default hierarchy spec of a column.
func (d Dataset) HierarchySpec(col string) (string, error) {
	spec, ok := d.Hierarchies[col]
	if !ok {
		return "", fmt.Errorf("dataset %s has no default hierarchy for column %q", d.Name, col)
	}
	return spec, nil
}

// Hierarchy builds the default hierarchy of column col (a column of a table
// loaded from this dataset).
func (d Dataset) Hierarchy(col *model.Column) (*hierarchy.Hierarchy, error) {
	spec, err := d.HierarchySpec(col.Name)
	if err != nil {
		return nil, err
	}
	if file, ok := strings.CutPrefix(spec, "embedded:"); ok {
		f, err := files.Open("hierarchies/" + file)
		if err != nil {
			return nil, fmt.Errorf("dataset %s: no embedded hierarchy %q", d.Name, file)
		}
		defer f.Close()
		return hierarchy.Parse(col.Name, "datasets/hierarchies/"+file, f)
	}
	name, _, _ := strings.Cut(spec, ":")
	switch name {
	case "flat", "masking", "binary", "ternary", "intervals":
	default:
		// Never let a spec fall through to BuildHierarchy's file lookup.
		return nil, fmt.Errorf("dataset %s: column %q: unknown hierarchy spec %q", d.Name, col.Name, spec)
	}
	return hierarchy.Build(spec, col)
}

// CheckRows refuses a row count a generator cannot honour: negative, more
// rows than a table can index (2^31-1), or a table that would not fit in
// this machine's memory once loaded (the estimate is in the message).
func (d Dataset) CheckRows(rows int) error {
	if rows < 0 {
		return &model.ParamError{Param: "rows", Value: fmt.Sprint(rows), Reason: "must be >= 0", Hint: "the number of rows to generate (0: the default)"}
	}
	if d.Fixed || rows == 0 {
		return nil
	}
	if rows > 1<<31-1 {
		return &model.ParamError{Param: "rows", Value: fmt.Sprint(rows), Reason: "more rows than a table can hold (2147483647)"}
	}
	// A loaded row takes a 4-byte code per column, and a run a few times
	// that (groups, row maps, sort scratch).
	need := float64(rows) * float64(len(d.Columns)) * 4 * 4
	if have := memTotal(); need > have {
		return &model.ParamError{Param: "rows", Value: fmt.Sprint(rows),
			Reason: fmt.Sprintf("%s rows of %s would need about %s of memory to load and anonymize; this machine has %s", humanCount(float64(rows)), d.Name, model.HumanBytes(need), model.HumanBytes(have)),
			Hint:   "use fewer rows"}
	}
	return nil
}

// memTotal is the machine's memory in bytes (/proc/meminfo; 16 GiB when
// it cannot be read).
func memTotal() float64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseFloat(f[1], 64); err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 16 << 30
}

func humanCount(n float64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f billion", n/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f million", n/1e6)
	}
	return fmt.Sprintf("%.0f", n)
}
