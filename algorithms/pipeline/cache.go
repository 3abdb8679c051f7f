package pipeline

import (
	"fmt"
	"sync"

	"privlab/model"
	"privlab/model/releasedir"
)

// Cache keeps what one session or one command reads or counts and asks
// for again: the last population table (the workbench measures attacks
// on every preview), the last audit record (check --original reads it
// for the original's settings, its digest and the check) and the live
// workload's true answers (PreviewEval). A file's contents are kept with
// its stamp (model.FileStamp: device, inode, size, modification time)
// and read again once the stamp differs. Its owner holds it in its Env;
// a nil *Cache keeps nothing. What it hands out its readers only read.
type Cache struct {
	// Each kept thing has its own lock, held while it is read: a slow
	// population file never holds up the workload's answers.
	popMu    sync.Mutex
	pop      *keptPopulation
	auditMu  sync.Mutex
	audit    *keptAudit
	truthsMu sync.Mutex
	truths   []keptTruths // the last used first
}

type keptPopulation struct {
	key   string
	stamp model.FileStamp
	table *model.Table
}

type keptAudit struct {
	path  string
	stamp model.FileStamp
	audit *releasedir.Audit
}

// population loads a population table through load, or returns the one
// loaded last from the same file, unchanged, with the same columns. A
// generated dataset is known by its name (its rows are a function of
// it); a source without a stamp (a database) is loaded each time.
func (c *Cache) population(path string, columns []string, maxCell int, load func() (*model.Table, error)) (*model.Table, error) {
	if c == nil {
		return load()
	}
	var stamp model.FileStamp
	if _, ok := DatasetName(path); !ok {
		var err error
		if stamp, err = model.StampOf(path); err != nil {
			return load() // it says why, or reads what is no file
		}
	}
	key := fmt.Sprintf("%s\x00%q\x00%d", path, columns, maxCell)
	c.popMu.Lock()
	defer c.popMu.Unlock()
	if k := c.pop; k != nil && k.key == key && k.stamp.Same(stamp) {
		return k.table, nil
	}
	t, err := load()
	if err != nil {
		return nil, err
	}
	if unchanged(path, stamp) {
		c.pop = &keptPopulation{key: key, stamp: stamp, table: t}
	}
	return t, nil
}

// ReadAudit reads the audit record beside the release in dir
// (releasedir.ReadAudit), or returns the one read last from the same file
// unchanged.
func (c *Cache) ReadAudit(dir string) (*releasedir.Audit, error) {
	path := releasedir.AuditPath(dir)
	stamp, err := model.StampOf(path)
	if c == nil || err != nil {
		return releasedir.ReadAudit(path) // it says why
	}
	c.auditMu.Lock()
	defer c.auditMu.Unlock()
	if k := c.audit; k != nil && k.path == path && k.stamp.Same(stamp) {
		return k.audit, nil
	}
	a, err := releasedir.ReadAudit(path)
	if err != nil {
		return nil, err
	}
	if unchanged(path, stamp) {
		c.audit = &keptAudit{path: path, stamp: stamp, audit: a}
	}
	return a, nil
}

// unchanged reports whether the file at path still has the stamp it had
// before it was read (a generated dataset, stamped zero, always has): a
// file changed while it was read is not kept.
func unchanged(path string, before model.FileStamp) bool {
	if before == (model.FileStamp{}) {
		return true
	}
	after, err := model.StampOf(path)
	return err == nil && after.Same(before)
}
