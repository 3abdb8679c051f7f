package verify

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"privlab/model"
	"privlab/model/releasedir"
)

// Shared reads one release directory for several checks and the viewer
// at once (an export's full check, its check from the files alone and
// its risk figures): each file is hashed once and parsed once for all of
// them, and each check still opens the release, reads its manifest and
// binds its files by itself. The files must not change meanwhile (an
// export's temporary directory, which nothing else writes).
//
// The tables are shared read-only, as the checks of one checker share
// them; a check never writes to a table it reads.
type Shared struct {
	dir   string
	files *files
}

// NewShared reads the release in dir for checks run at once.
func NewShared(dir string) *Shared {
	return &Shared{dir: dir, files: &files{}}
}

// NewSharedBuilt is NewShared for a release written from built (OpenBuilt)
// with its rendered bytes (Rendered): each file is read from those bytes
// and its table is the one built parsed from them, as the name of the
// file in dir. The writer re-read every file and found it the same
// (its SHA-256), so the bytes are the files' bytes: what the checks hash
// and parse is what dir holds, read once by the writer rather than again.
// Only bytes and tables parsed from them are shared, nothing of the
// method that made them. sums, when it holds a file's name, is the
// SHA-256 the writer took of that file as it read it back (and found it
// the same bytes): the checks take it rather than hash the bytes again.
// The facts read of the built files' bytes alone (DataFact) are the
// written files' facts too; those that may read their paths or the
// manifest (FileFact) are read again.
func NewSharedBuilt(dir string, built *Release, sums map[string]string) *Shared {
	fs := &files{all: map[string]*file{}}
	built.files.data.Range(func(key, fact any) bool {
		fs.data.Store(key, fact)
		return true
	})
	for name, data := range built.files.mem {
		f := &file{data: data}
		f.read.Do(func() {})
		if sum, ok := sums[name]; ok {
			f.sum = sum
			f.hash.Do(func() {})
		}
		if t, err := built.Table(name); err == nil {
			f.table = renamed(t, name, filepath.Join(dir, name))
			f.parse.Do(func() {})
		}
		fs.all[name] = f
	}
	return &Shared{dir: dir, files: fs}
}

// renamed is t, parsed as the file name, as the loader reads it from
// path: the same columns (read only), named by the path.
func renamed(t *model.Table, name, path string) *model.Table {
	c := *t
	c.Name = path
	c.Notes = make([]model.Note, len(t.Notes))
	for i, n := range t.Notes {
		if rest, ok := strings.CutPrefix(n.Text, name+":"); ok {
			n.Text = path + ":" + rest
		}
		c.Notes[i] = n
	}
	if t.Notes == nil {
		c.Notes = nil
	}
	return &c
}

// Rendered is the CSV text of a file of a release built in memory (nil
// for a release read from a directory, or a file it does not hold).
func (rel *Release) Rendered(name string) []byte {
	return rel.files.mem[name]
}

// Check verifies the release in the directory with the checker lookup
// gives for its method, after the checks every release needs, holding the
// manifest's title, paper, certification, variant and parameter names to
// the method's declaration; it is the one way to check a release
// (NewShared(dir).Check for one check of a directory).
func (s *Shared) Check(opt Options, lookup func(method string) (Declared, bool)) (*Report, error) {
	return runThen(s.dir, opt, lookup, opt.Then, s.files)
}

// Open is the package's Open on the shared files (the viewer's way in).
func (s *Shared) Open() (*Release, error) {
	rel, err := Open(s.dir)
	if rel != nil {
		rel.files = s.files
	}
	return rel, err
}

// OpenBuilt is OpenMemory with the files rendered and parsed at once on
// every core, each parsed once for every reader (the workbench's risk
// figures of a result, read by the method's viewer as soon as it lands).
func OpenBuilt(rel *releasedir.Release) (*Release, error) {
	out := RenderBuilt(rel)
	out.ParseAll()
	return out, nil
}

// RenderBuilt is OpenBuilt with the files rendered (at once on every
// core) but not parsed yet: each is parsed when first read, or by
// ParseAll (an export writes the rendered files meanwhile).
func RenderBuilt(rel *releasedir.Release) *Release {
	m := rel.Manifest
	m.Files = nil
	out := &Release{Dir: "(unexported release)", Manifest: &m, listed: map[string]bool{}, files: &files{mem: map[string][]byte{}}}
	texts := make([][]byte, len(rel.Files))
	atOnce(len(rel.Files), func(i int) { texts[i] = rel.Files[i].CSVText() })
	for i, f := range rel.Files {
		out.files.mem[f.Name] = texts[i]
		out.listed[f.Name] = true
		m.Files = append(m.Files, releasedir.FileEntry{Name: f.Name, Rows: f.Rows})
	}
	return out
}

// ParseAll parses every file of a release built in memory at once on
// every core; a file that does not parse says so when read.
func (rel *Release) ParseAll() {
	names := make([]string, 0, len(rel.Manifest.Files))
	for _, f := range rel.Manifest.Files {
		names = append(names, f.Name)
	}
	atOnce(len(names), func(i int) { rel.Table(names[i]) })
}

// atOnce calls fn(0..n-1) on every core and waits for them.
func atOnce(n int, fn func(i int)) {
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			fn(i)
		}()
	}
	wg.Wait()
}
