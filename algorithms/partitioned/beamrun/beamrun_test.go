//go:build beam

package beamrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"privlab/model/csvfile"
	"privlab/model/source"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

// thresholdWork is the tests' Work: a row's partition is the number of
// thresholds its column x reaches, and a partition's summary counts its
// rows, sums x and lists the ids, so a test can see where each row went.
type thresholdWork struct {
	Thresholds []float64 `json:"thresholds"`
	// FailPart makes Partition fail on that partition (-1: never).
	FailPart int `json:"fail_part"`
}

type thresholdSummary struct {
	Part int      `json:"part"`
	Rows int      `json:"rows"`
	SumX float64  `json:"sum_x"`
	IDs  []string `json:"ids"`
}

// Columns of the test inputs: id, x, city.
const idCol, xCol = 0, 1

func init() {
	Register("test-threshold", func(config []byte) (Work, error) {
		var w thresholdWork
		if err := json.Unmarshal(config, &w); err != nil {
			return nil, err
		}
		return &w, nil
	})
}

func (w *thresholdWork) Assign(row []string) (int, error) {
	x, err := strconv.ParseFloat(row[xCol], 64)
	if err != nil {
		return 0, fmt.Errorf("x %q: %w", row[xCol], err)
	}
	part := 0
	for _, t := range w.Thresholds {
		if x >= t {
			part++
		}
	}
	return part, nil
}

func (w *thresholdWork) Partition(_ context.Context, part int, rows [][]string) ([]byte, error) {
	if part == w.FailPart {
		return nil, errors.New("refused by the test")
	}
	s := thresholdSummary{Part: part, Rows: len(rows)}
	for _, row := range rows {
		x, _ := strconv.ParseFloat(row[xCol], 64)
		s.SumX += x
		s.IDs = append(s.IDs, row[idCol])
	}
	slices.Sort(s.IDs)
	return json.Marshal(s)
}

// writeInputs writes three CSV files and one Parquet file (rows of id, x,
// city; x from 0 to 29) and returns their paths and every row.
func writeInputs(t *testing.T, dir string) (paths []string, rows [][]string) {
	t.Helper()
	cities := []string{"Oslo", "Lima", "Pune"}
	id := 0
	for f := range 4 {
		var b strings.Builder
		b.WriteString("id,x,city\n")
		for r := range 7 + 3*f {
			id++
			row := []string{fmt.Sprintf("p%03d", id), strconv.Itoa((id * 7) % 30), cities[(id+r)%3]}
			rows = append(rows, row)
			b.WriteString(strings.Join(row, ",") + "\n")
		}
		path := filepath.Join(dir, fmt.Sprintf("in%d.csv", f))
		if f == 3 {
			path = writeParquet(t, dir, b.String())
		} else if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths, rows
}

// writeParquet writes the CSV text as a Parquet file with privlab's
// writer, so the job reads both formats.
func writeParquet(t *testing.T, dir, csvText string) string {
	t.Helper()
	table, err := csvfile.Load(strings.NewReader(csvText), csvfile.LoadOptions{Name: "in3"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "in3.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := source.WriteParquet(f, table, source.ParquetColumnsOf(table)); err != nil {
		t.Fatal(err)
	}
	return path
}

// expectedSummaries computes the job's result in memory.
func expectedSummaries(t *testing.T, w *thresholdWork, rows [][]string) map[int]thresholdSummary {
	t.Helper()
	byPart := map[int][][]string{}
	for _, row := range rows {
		part, err := w.Assign(row)
		if err != nil {
			t.Fatal(err)
		}
		byPart[part] = append(byPart[part], row)
	}
	want := map[int]thresholdSummary{}
	for part, prows := range byPart {
		b, err := w.Partition(context.Background(), part, prows)
		if err != nil {
			t.Fatal(err)
		}
		var s thresholdSummary
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		want[part] = s
	}
	return want
}

func thresholdJob(t *testing.T, w thresholdWork, inputs []string) Job {
	t.Helper()
	config, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	return Job{Inputs: inputs, Work: "test-threshold", Config: config, ScratchDir: t.TempDir()}
}

// TestRun runs the jobs on one in-process Prism (started by the first
// Run and reused by the others).
func TestRun(t *testing.T) {
	dir := t.TempDir()
	inputs, rows := writeInputs(t, dir)
	work := thresholdWork{Thresholds: []float64{10, 20}, FailPart: -1}

	t.Run("every row in exactly one partition", func(t *testing.T) {
		got, err := Run(context.Background(), thresholdJob(t, work, inputs))
		if err != nil {
			t.Fatal(err)
		}
		want := expectedSummaries(t, &work, rows)
		if len(got) != len(want) {
			t.Fatalf("got %d partitions, want %d", len(got), len(want))
		}
		seen := map[string]int{}
		for part, b := range got {
			var s thresholdSummary
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatalf("partition %d: %v", part, err)
			}
			if !reflect.DeepEqual(s, want[part]) {
				t.Errorf("partition %d: got %+v, want %+v", part, s, want[part])
			}
			for _, id := range s.IDs {
				seen[id]++
			}
		}
		for _, row := range rows {
			if seen[row[idCol]] != 1 {
				t.Errorf("row %s is in %d partitions", row[idCol], seen[row[idCol]])
			}
		}
	})

	t.Run("rows through files: the same summaries", func(t *testing.T) {
		job := thresholdJob(t, work, inputs)
		job.RowsThroughFiles = true
		got, err := Run(context.Background(), job)
		if err != nil {
			t.Fatal(err)
		}
		want := expectedSummaries(t, &work, rows)
		if len(got) != len(want) {
			t.Fatalf("got %d partitions, want %d", len(got), len(want))
		}
		for part, b := range got {
			var s thresholdSummary
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatalf("partition %d: %v", part, err)
			}
			if !reflect.DeepEqual(s, want[part]) {
				t.Errorf("partition %d: got %+v, want %+v", part, s, want[part])
			}
		}
	})

	t.Run("a failing partition is named", func(t *testing.T) {
		failing := work
		failing.FailPart = 1
		_, err := Run(context.Background(), thresholdJob(t, failing, inputs))
		// The error is the work's, named, not the runner's report of it.
		if err == nil || err.Error() != "beamrun: partition 1: refused by the test" {
			t.Fatalf("got %v, want an error naming partition 1", err)
		}
	})

	t.Run("inputs with different columns", func(t *testing.T) {
		other := filepath.Join(dir, "other.csv")
		if err := os.WriteFile(other, []byte("id,x,town\np900,3,Rome\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Run(context.Background(), thresholdJob(t, work, append(slices.Clone(inputs), other)))
		if err == nil || !strings.HasPrefix(err.Error(), "beamrun: input "+other+" has columns") {
			t.Fatalf("got %v, want an error naming other.csv's columns", err)
		}
	})
}

// TestRunRefusesBeforeThePipeline covers what Run checks without
// starting a pipeline.
func TestRunRefusesBeforeThePipeline(t *testing.T) {
	for name, c := range map[string]struct {
		job  Job
		want string
	}{
		"no inputs":    {Job{Work: "test-threshold", Config: []byte(`{}`)}, "no inputs"},
		"unknown work": {Job{Inputs: []string{"a.csv"}, Work: "nope"}, `no work registered as "nope"`},
		"bad config":   {Job{Inputs: []string{"a.csv"}, Work: "test-threshold", Config: []byte(`{`)}, "work test-threshold:"},
		"missing file": {Job{Inputs: []string{filepath.Join(t.TempDir(), "a.csv")}, Work: "test-threshold", Config: []byte(`{}`)}, "a.csv"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Run(context.Background(), c.job)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// TestRunOnAJobService submits through Job.Endpoint, the path a Flink or
// Spark job server takes, to a Prism job service of its own (on a port
// of the loopback interface), with the workers looped back into this
// process (-environment_type=LOOPBACK) since there is no Docker here.
func TestRunOnAJobService(t *testing.T) {
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := prism.CreateJobServer(ctx, prism.Options{Port: port}); err != nil {
		t.Fatal(err)
	}
	saved := *jobopts.EnvironmentType
	*jobopts.EnvironmentType = "loopback"
	defer func() { *jobopts.EnvironmentType = saved }()

	inputs, rows := writeInputs(t, t.TempDir())
	work := thresholdWork{Thresholds: []float64{15}, FailPart: -1}
	job := thresholdJob(t, work, inputs)
	job.Endpoint = fmt.Sprintf("localhost:%d", port)
	got, err := Run(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	want := expectedSummaries(t, &work, rows)
	if len(got) != len(want) {
		t.Fatalf("got %d partitions, want %d", len(got), len(want))
	}
	for part, b := range got {
		var s thresholdSummary
		if err := json.Unmarshal(b, &s); err != nil || !reflect.DeepEqual(s, want[part]) {
			t.Errorf("partition %d: got %s (%v), want %+v", part, b, err, want[part])
		}
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// BenchmarkRun measures a job over 4 CSV files of benchRows rows in all
// (id, x, city), cut into 8 partitions, on the in-process Prism: what a
// row costs through read, Assign, GroupByKey and Partition.
// go test -tags beam -run '^$' -bench Run -benchtime 1x ./algorithms/partitioned/beamrun/
func BenchmarkRun(b *testing.B) {
	const benchRows = 200_000
	dir := b.TempDir()
	var inputs []string
	cities := []string{"Oslo", "Lima", "Pune", "Kobe"}
	for f := range 4 {
		var sb strings.Builder
		sb.WriteString("id,x,city\n")
		for r := f; r < benchRows; r += 4 {
			fmt.Fprintf(&sb, "p%07d,%d,%s\n", r, (r*7919)%1000, cities[r%4])
		}
		path := filepath.Join(dir, fmt.Sprintf("in%d.csv", f))
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, path)
	}
	config, err := json.Marshal(thresholdWork{Thresholds: []float64{125, 250, 375, 500, 625, 750, 875}, FailPart: -1})
	if err != nil {
		b.Fatal(err)
	}
	job := Job{Inputs: inputs, Work: "test-threshold", Config: config, ScratchDir: dir}
	b.ResetTimer()
	for b.Loop() {
		got, err := Run(context.Background(), job)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != 8 {
			b.Fatalf("got %d partitions, want 8", len(got))
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestRunCancelled: a cancelled context stops Run with the context's
// error, and the in-process Prism still serves the next Run.
func TestRunCancelled(t *testing.T) {
	inputs, rows := writeInputs(t, t.TempDir())
	work := thresholdWork{Thresholds: []float64{10}, FailPart: -1}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, thresholdJob(t, work, inputs)); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	got, err := Run(context.Background(), thresholdJob(t, work, inputs))
	if err != nil || len(got) != len(expectedSummaries(t, &work, rows)) {
		t.Fatalf("the next run: %d partitions, %v", len(got), err)
	}
}
