package partitioned

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"privlab/model"
	"privlab/model/releasedir"
)

// AuditDir is where a partitioned release's audit records go: beside it,
// never inside what is published (dir.audit/part-NNNNN.audit.json).
func AuditDir(dir string) string { return filepath.Clean(dir) + ".audit" }

// staging is a partitioned release being written: the release and the
// audit records in hidden directories beside their final places.
type staging struct {
	dir, abs        string
	release, audits string
	// work holds the coordinator's files (the partitions' rows, the
	// pinned hierarchies): never published, removed at the end.
	work string
	done bool
	// tracked lets an interrupt that does not wait for the run remove
	// the three directories (releasedir.AbortWrites).
	tracked *releasedir.Tracked
}

func newStaging(dir string) (*staging, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &model.ParamError{Param: "out", Value: dir, Reason: err.Error()}
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", parent, err)
	}
	st := &staging{dir: dir, abs: abs}
	if st.release, err = os.MkdirTemp(parent, "."+filepath.Base(abs)+".partitioned-"); err != nil {
		return nil, err
	}
	if err := os.Chmod(st.release, 0o755); err != nil {
		return nil, err
	}
	if st.audits, err = os.MkdirTemp(parent, "."+filepath.Base(abs)+".audit-"); err != nil {
		os.RemoveAll(st.release)
		return nil, err
	}
	if st.work, err = os.MkdirTemp(parent, "."+filepath.Base(abs)+".work-"); err != nil {
		os.RemoveAll(st.release)
		os.RemoveAll(st.audits)
		return nil, err
	}
	if st.tracked, err = releasedir.Track(st.release, st.audits, st.work); err != nil {
		st.cleanup()
		return nil, err
	}
	return st, nil
}

// cleanup removes what a run that did not finish left.
func (st *staging) cleanup() {
	os.RemoveAll(st.work)
	if !st.done {
		os.RemoveAll(st.release)
		os.RemoveAll(st.audits)
	}
	if st.tracked != nil {
		st.tracked.Forget()
	}
}

// commit writes the manifest and puts the release and its audit records
// in place, replacing (with force) a partitioned release there before.
func (st *staging) commit(m *releasedir.Manifest, force bool) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := writeSynced(filepath.Join(st.release, "manifest.json"), append(b, '\n')); err != nil {
		return err
	}
	err = st.tracked.Place(st.abs, func() error {
		unlock, err := releasedir.LockParent(context.Background(), filepath.Dir(st.abs))
		if err != nil {
			return err
		}
		defer unlock()
		for k, place := range []struct{ from, to string }{{st.release, st.abs}, {st.audits, AuditDir(st.abs)}} {
			if k == 1 {
				betweenPlaces()
			}
			if err := replace(place.from, place.to, st.dir, force); err != nil {
				return err
			}
		}
		st.done = true
		removeSingleAudit(st.abs)
		return nil
	})
	if err != nil {
		return err
	}
	return syncParent(st.abs)
}

// removeSingleAudit removes the audit record of a single-run release
// that --force replaced at abs (DIR.audit.json, which a partitioned
// release never has): it described a release no longer there. A file
// that does not read as that release's record is left alone.
func removeSingleAudit(abs string) {
	path := releasedir.AuditPath(abs)
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		return
	}
	if a, err := releasedir.ReadAudit(path); err == nil && a.Release == abs {
		os.Remove(path)
	}
}

// betweenPlaces runs between putting the release and its audit records
// in place (a test holds a run there while another process writes).
var betweenPlaces = func() {}

// replace renames from to to; what is at to must be replaceable: nothing,
// an empty directory, a release privlab wrote (with force), or the audit
// records of one.
func replace(from, to, dir string, force bool) error {
	if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(from, to)
	}
	if !force {
		return &model.ParamError{Param: "out", Value: dir, Reason: releasedir.ErrExists.Error(), Fixes: []model.Fix{{Setting: model.SetForce, Why: "to replace it"}}}
	}
	if why := replaceableAt(to); why != "" {
		return notReplaceable(to, dir, why)
	}
	old := to + ".replaced"
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if err := os.Rename(to, old); err != nil {
		return err
	}
	if err := os.Rename(from, to); err != nil {
		os.Rename(old, to)
		return err
	}
	return os.RemoveAll(old)
}

func notReplaceable(to, dir, why string) error {
	return &model.ParamError{Param: "out", Value: dir, Reason: to + " exists and is not a privlab release (" + why + "); refusing to replace it, even when told to",
		Hint: "choose another directory, or move what it holds yourself"}
}

// checkReplaceable refuses, before the run, what --force could not
// replace at its end (the release directory or its audit records): a
// long run is not spent on a release that cannot be put in place. The
// commit decides again (replace).
func checkReplaceable(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return &model.ParamError{Param: "out", Value: dir, Reason: err.Error()}
	}
	if _, err := os.Lstat(abs); err != nil {
		return nil
	}
	// Looked at under the lock: another run may be putting its release
	// in place (a release and its audit records read half-replaced).
	unlock, err := releasedir.LockParent(context.Background(), filepath.Dir(abs))
	if err != nil {
		return err
	}
	defer unlock()
	for _, to := range []string{abs, AuditDir(abs)} {
		if _, err := os.Lstat(to); err != nil {
			continue
		}
		if why := replaceableAt(to); why != "" {
			return notReplaceable(to, dir, why)
		}
	}
	return nil
}

// replaceableAt says why what is at path may not be replaced ("": it may).
func replaceableAt(path string) string {
	entries, err := os.ReadDir(path)
	switch {
	case err != nil:
		return err.Error()
	case len(entries) == 0:
		return ""
	case filepath.Ext(path) == ".audit":
		for _, e := range entries {
			if !e.Type().IsRegular() || filepath.Ext(e.Name()) != ".json" {
				return "it holds " + e.Name()
			}
		}
		return ""
	}
	m, err := releasedir.ReadManifest(path)
	if err != nil || m.Partitioned == nil {
		return releasedir.Replaceable(path)
	}
	if _, err := Verify(path); err != nil {
		return err.Error()
	}
	return ""
}

func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func syncParent(abs string) error {
	d, err := os.Open(filepath.Dir(abs))
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
