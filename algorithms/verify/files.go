package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"runtime"
	"sync"

	"privlab/model"
	"privlab/model/csvfile"
	"privlab/model/releasedir"
)

// files reads each file of a release once: the bytes checkFiles hashes
// are the bytes Table parses (what is hashed is what is checked), and
// each table is parsed once for every check and the viewer, however many
// ask for it at once.
type files struct {
	mu  sync.Mutex
	all map[string]*file
	// mem holds the files of a release built in memory (OpenMemory).
	mem map[string][]byte
	// facts are what checkers read from the files alone (FileFact).
	facts sync.Map
	// data are what checkers read from the files' bytes alone
	// (DataFact): carried over to the written files (NewSharedBuilt).
	data sync.Map
}

// FileFact is a fact a checker reads from the release's files and its
// manifest alone, never from a check's options (the original, the audit
// record): the checks that share the files (Shared: an export's full
// check and its check from the files alone) compute it once. key names
// the fact, prefixed by the checker's method. What it returns is read
// only.
func (rel *Release) FileFact(key string, compute func() (any, error)) (any, error) {
	if rel == nil || rel.files == nil {
		return compute() // no files to share it with (a checker's test)
	}
	f, _ := rel.files.facts.LoadOrStore(key, &Fact[any]{})
	return f.(*Fact[any]).Get(compute)
}

// DataFact is a FileFact read from the bytes of the release's files
// alone: from the columns of the tables they parse to (their codes and
// dictionaries), never from the manifest, the release's Dir, a table's
// Name or notes (which name the file by its path), nor a check's
// options. Such a fact is the same for every release of the same bytes,
// so the checks of a release written from one built in memory take the
// facts its viewer read of the built files (NewSharedBuilt: the writer
// found the written bytes the built ones) rather than compute them
// again. A fact whose text or verdict names a file's path, or reads the
// manifest, is a FileFact: it is read again from the written release.
// key names the fact (the checker's method first) and every file it
// reads by name; what it returns is read only.
func (rel *Release) DataFact(key string, compute func() (any, error)) (any, error) {
	if rel == nil || rel.files == nil {
		return compute()
	}
	f, _ := rel.files.data.LoadOrStore(key, &Fact[any]{})
	return f.(*Fact[any]).Get(compute)
}

type file struct {
	read  sync.Once
	data  []byte
	err   error
	hash  sync.Once
	sum   string
	parse sync.Once
	table *model.Table
	terr  error
}

func (fs *files) get(name string) *file {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.all == nil {
		fs.all = map[string]*file{}
	}
	f := fs.all[name]
	if f == nil {
		f = &file{}
		fs.all[name] = f
	}
	return f
}

// content reads a listed file once, a regular file of a size that can be
// held beside its table (heldBytes; a larger one is an error here, and is
// hashed as a stream and loaded by the loader, within its own bounds).
func (rel *Release) content(name string) (*file, error) {
	f := rel.files.get(name)
	f.read.Do(func() {
		if data, ok := rel.files.mem[name]; ok {
			f.data = data
		} else {
			f.data, f.err = releasedir.ReadFile(filepath.Join(rel.Dir, name), heldBytes(), "a release file held in memory")
		}
	})
	return f, f.err
}

// heldBytes is the largest file read whole: a quarter of the memory
// privlab may use.
func heldBytes() int64 { return int64(model.Memory() / 4) }

// sha256 is a listed file's SHA-256, from the bytes read once ("" when
// it cannot be read).
func (rel *Release) sha256(name string) string {
	f := rel.files.get(name)
	f.hash.Do(func() {
		data, err := rel.bytesOf(name)
		if err == nil {
			sum := sha256.Sum256(data)
			f.sum = hex.EncodeToString(sum[:])
		} else if _, mem := rel.files.mem[name]; !mem {
			f.sum, _ = releasedir.ReleaseSHA256(filepath.Join(rel.Dir, name)) // too large to hold: a stream
		}
	})
	return f.sum
}

// hashAll hashes every listed file, on every core.
func (rel *Release) hashAll() []string {
	sums := make([]string, len(rel.Manifest.Files))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, e := range rel.Manifest.Files {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			sums[i] = rel.sha256(e.Name)
		}()
	}
	wg.Wait()
	return sums
}

// table parses a listed file once, from the bytes read for its hash, and
// lets the bytes go.
func (rel *Release) table(name string) (*model.Table, error) {
	f := rel.files.get(name)
	f.parse.Do(func() {
		// A release may publish no record (every one suppressed): a file
		// of its header alone is a table without rows.
		opt := csvfile.LoadOptions{Delimiter: ',', MissingTokens: []string{}, NoRows: true}
		path := filepath.Join(rel.Dir, name)
		_, mem := rel.files.mem[name]
		if mem {
			opt.Name = name
		} else {
			opt.Name = path
		}
		data, err := rel.bytesOf(name)
		if err != nil {
			// Not readable: the loader says why, as it always has.
			f.table, f.terr = releasedir.LoadTable(path, opt)
			return
		}
		f.table, f.terr = csvfile.Load(bytes.NewReader(data), opt)
		if !mem {
			rel.files.mu.Lock()
			f.data = nil
			rel.files.mu.Unlock()
		}
	})
	return f.table, f.terr
}

// bytesOf is a listed file's bytes (read again if a table took them).
func (rel *Release) bytesOf(name string) ([]byte, error) {
	f, err := rel.content(name)
	if err != nil {
		return nil, err
	}
	rel.files.mu.Lock()
	data := f.data
	rel.files.mu.Unlock()
	if data != nil {
		return data, nil
	}
	return releasedir.ReadFile(filepath.Join(rel.Dir, name), heldBytes(), "a release file held in memory")
}

// forget lets go of the bytes read for hashes that no table took.
func (rel *Release) forget() {
	rel.files.mu.Lock()
	defer rel.files.mu.Unlock()
	for name, f := range rel.files.all {
		if _, mem := rel.files.mem[name]; !mem {
			f.data = nil
		}
	}
}

// Tables reads listed files as tables (Table), at once on every core;
// the error is the first in the order given.
func (rel *Release) Tables(names ...string) ([]*model.Table, error) {
	out := make([]*model.Table, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = rel.Table(name)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
