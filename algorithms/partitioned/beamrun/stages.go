//go:build beam

package beamrun

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"privlab/model/source"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// Beam calls DoFns by their registered types, in this process and in a
// remote worker alike.
func init() {
	register.DoFn3x1[context.Context, string, func(int, []byte), error](&readFn{})
	register.Emitter2[int, []byte]()
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&partitionFn{})
	register.Iter1[[]byte]()
	register.DoFn2x1[int, func(*[]byte) bool, error](&summaryFn{})
}

// The files a job's stages write into its directory: one summary per
// partition, and a failure note per failed input or partition, whose
// text is the error Run returns.
const (
	summaryPattern = "partition-%08d.summary"
	failurePrefix  = "failed-"
)

func isFailureNote(name string) bool {
	return strings.HasPrefix(name, failurePrefix) && strings.HasSuffix(name, ".txt")
}

// readFn reads one input file with privlab's reader (model/source) and
// emits its rows keyed by the partition Work.Assign gives each, packed in
// batches (rowbatch.go). Its fields are what Beam serializes to the
// workers.
type readFn struct {
	Work   string
	Config []byte
	// Header is the first input's columns: every input must have them.
	Header []string
	// Dir is the job's directory, for failure notes (and the batches'
	// files, with ThroughFiles).
	Dir          string
	ThroughFiles bool

	work Work
}

// Setup rebuilds the job's Work in this worker.
func (f *readFn) Setup() error {
	w, err := newWork(f.Work, f.Config)
	f.work = w
	return err
}

// reading holds the inputs a process reads at once to its cores (at
// most two): a runner may run every read bundle together (Prism does),
// and each holds its input file whole while it reads it.
var reading = make(chan struct{}, max(1, min(2, runtime.GOMAXPROCS(0))))

// partitioning holds the partitions a process gathers and runs at once
// to its cores (at most two), for the same reason.
var partitioning = make(chan struct{}, max(1, min(2, runtime.GOMAXPROCS(0))))

// ProcessElement reads the input at path and emits its rows.
func (f *readFn) ProcessElement(ctx context.Context, path string, emit func(int, []byte)) error {
	select {
	case reading <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-reading }()
	err := f.read(ctx, path, emit)
	if err != nil {
		h := fnv.New64a()
		h.Write([]byte(path))
		noteFailure(f.Dir, fmt.Sprintf("%sinput-%016x.txt", failurePrefix, h.Sum64()), err)
	}
	return err
}

func (f *readFn) read(ctx context.Context, path string, emit func(int, []byte)) error {
	t, err := source.LoadContext(ctx, path, loadOptions)
	if err != nil {
		return fmt.Errorf("beamrun: input %s: %w", path, err)
	}
	if names := t.Names(); !slices.Equal(names, f.Header) {
		return fmt.Errorf("beamrun: input %s has columns %q, but the first input has %q: every input must have the same columns", path, names, f.Header)
	}
	out, failed := f.emitter(path, emit)
	batches := newRowBatches(out)
	for r := 0; r < t.Rows; r++ {
		row := make([]string, len(t.Columns)) // Assign may keep it
		for i, c := range t.Columns {
			row[i] = c.Value(r)
		}
		part, err := f.work.Assign(row)
		if err != nil {
			return fmt.Errorf("beamrun: input %s, row %d: %w", path, r+1, err)
		}
		if part < 0 {
			return fmt.Errorf("beamrun: input %s, row %d: Assign gave partition %d", path, r+1, part)
		}
		batches.add(part, row)
	}
	batches.flush()
	return failed()
}

// Elements of the shuffle start with a byte that says what follows: a
// batch of rows, or the name of a file holding one (Job.RowsThroughFiles).
const (
	inlineBatch = 0
	batchFile   = 1
)

// emitter is how the read stage emits a batch of input path's rows:
// inline, or written to a file whose name is emitted; failed is the
// first file that could not be written.
func (f *readFn) emitter(path string, emit func(int, []byte)) (out func(int, []byte), failed func() error) {
	if !f.ThroughFiles {
		return func(part int, batch []byte) { emit(part, append([]byte{inlineBatch}, batch...)) }, func() error { return nil }
	}
	h := fnv.New64a()
	h.Write([]byte(path))
	n := 0
	var werr error
	return func(part int, batch []byte) {
			if werr != nil {
				return
			}
			n++
			name := filepath.Join(f.Dir, fmt.Sprintf("rows-%08d-%016x-%06d.bin", part, h.Sum64(), n))
			if werr = writeAtomic(name, batch); werr != nil {
				werr = fmt.Errorf("beamrun: input %s: writing rows: %w", path, werr)
				return
			}
			emit(part, append([]byte{batchFile}, name...))
		}, func() error {
			return werr
		}
}

// batchOf is the batch of rows a shuffle element carries or names.
func batchOf(elem []byte) ([]byte, error) {
	if len(elem) == 0 {
		return nil, errBadBatch
	}
	switch elem[0] {
	case inlineBatch:
		return elem[1:], nil
	case batchFile:
		return os.ReadFile(string(elem[1:]))
	}
	return nil, errBadBatch
}

// partitionFn runs Work.Partition on one partition's rows and writes its
// summary into the job's directory.
type partitionFn struct {
	Work   string
	Config []byte
	Dir    string

	work Work
}

// Setup rebuilds the job's Work in this worker.
func (f *partitionFn) Setup() error {
	w, err := newWork(f.Work, f.Config)
	f.work = w
	return err
}

// ProcessElement gathers a partition's rows, summarises them and emits
// the summary. (It emits, and the summaries are grouped before they are
// written, so that this stage has an output Prism does not fuse away:
// Prism v2.78.0 waits for a bundle of a stage without outputs in a loop
// on a closed channel, a core spinning for as long as the partition runs.)
func (f *partitionFn) ProcessElement(ctx context.Context, part int, next func(*[]byte) bool, emit func(int, []byte)) error {
	// A partition's rows are gathered only once its turn comes: a runner
	// may start every partition's bundle together (Prism does).
	select {
	case partitioning <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-partitioning }()
	var rows [][]string
	var batch []byte
	var err error
	var files []string
	for err == nil && next(&batch) {
		var b []byte
		if b, err = batchOf(batch); err == nil {
			rows, err = appendBatch(rows, b)
		}
		if len(batch) > 0 && batch[0] == batchFile {
			files = append(files, string(batch[1:]))
		}
	}
	var summary []byte
	if err == nil {
		summary, err = f.summarise(ctx, part, rows)
	} else {
		err = fmt.Errorf("beamrun: partition %d: %w", part, err)
	}
	if err != nil {
		noteFailure(f.Dir, fmt.Sprintf("%spartition-%08d.txt", failurePrefix, part), err)
		return err
	}
	// The partition is summarised: its rows' files go now, so disk holds
	// the rows once while the job runs, not twice (a runner that ran this
	// bundle again would find them gone and fail the job, never a
	// partition half read).
	for _, name := range files {
		os.Remove(name)
	}
	emit(part, summary)
	return nil
}

func (f *partitionFn) summarise(ctx context.Context, part int, rows [][]string) ([]byte, error) {
	summary, err := f.work.Partition(ctx, part, rows)
	if err != nil {
		return nil, fmt.Errorf("beamrun: partition %d: %w", part, err)
	}
	return summary, nil
}

// summaryFn writes a partition's summary into the job's directory.
type summaryFn struct {
	Dir string
}

// ProcessElement writes a partition's summary, whole and renamed into
// place, so a retried or duplicated bundle (runners may run one twice)
// leaves one complete summary.
func (f *summaryFn) ProcessElement(part int, next func(*[]byte) bool) error {
	var summary []byte
	for next(&summary) {
	}
	if err := writeAtomic(filepath.Join(f.Dir, fmt.Sprintf(summaryPattern, part)), summary); err != nil {
		err = fmt.Errorf("beamrun: partition %d: summary: %w", part, err)
		noteFailure(f.Dir, fmt.Sprintf("%spartition-%08d.txt", failurePrefix, part), err)
		return err
	}
	return nil
}

// noteFailure records err in the job's directory, so Run can return it
// as it is rather than inside the runner's report. A note that cannot be
// written leaves Run with the runner's report, which also holds err.
func noteFailure(dir, name string, err error) {
	_ = writeAtomic(filepath.Join(dir, name), []byte(err.Error()))
}

func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
