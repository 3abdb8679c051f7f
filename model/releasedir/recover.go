package releasedir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// inflight are the temporary files and directories of the release writes
// under way in this process, for AbortWrites; its lock is held while a
// write puts its release in place.
var inflight = struct {
	sync.Mutex
	paths   map[string]bool
	placed  []string // releases put in place
	aborted bool
}{paths: map[string]bool{}}

// AbortWrites stops every release write of this process for good: it
// removes their temporary directories and audit records (a write putting
// its release in place finishes that first) and makes any later write
// fail. The command line calls it when an interrupt does not stop a
// command at once, just before the process exits. It returns what it
// removed and the releases this process had already put in place
// (complete, with their audit records).
func AbortWrites() (removed, placed []string) {
	inflight.Lock()
	defer inflight.Unlock()
	inflight.aborted = true
	for p := range inflight.paths {
		removeOwned(p)
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			removed = append(removed, p)
		}
		delete(inflight.paths, p)
	}
	sort.Strings(removed)
	for _, p := range inflight.placed {
		// A release placed inside a tracked directory removed above (a
		// partition of a partitioned run) is gone with it.
		if _, err := os.Lstat(p); err == nil {
			placed = append(placed, p)
		}
	}
	return removed, placed
}

// Tracked are temporary directories a write of this process made beside
// a release outside Write (a partitioned run's staging: the release, its
// audit records, its working files), which AbortWrites removes.
type Tracked struct{ paths []string }

// Track registers temporary directories for AbortWrites; it fails
// (context.Canceled) once writes were aborted.
func Track(paths ...string) (*Tracked, error) {
	inflight.Lock()
	defer inflight.Unlock()
	if inflight.aborted {
		return nil, context.Canceled
	}
	for _, p := range paths {
		inflight.paths[p] = true
	}
	return &Tracked{paths: paths}, nil
}

// Place runs put, which moves the tracked directories into their final
// places (release among them), while AbortWrites waits: either the
// release is placed whole and named as placed, or put never runs
// (context.Canceled once writes were aborted). The directories are
// no longer tracked afterwards.
func (t *Tracked) Place(release string, put func() error) error {
	inflight.Lock()
	defer inflight.Unlock()
	if inflight.aborted {
		return context.Canceled
	}
	err := put()
	if err == nil {
		inflight.placed = append(inflight.placed, release)
	}
	t.forget()
	return err
}

// LockParent takes the lock the exports to a directory's releases take
// (an exclusive flock on the directory holding them) and returns its
// release: a write that puts a release in place outside Write (a
// partitioned run's release and audit records) holds it from its look at
// what is in place to its last rename, so that concurrent writes to one
// release never mix their files. It waits, looking at ctx (may be nil).
func LockParent(ctx context.Context, parent string) (func(), error) {
	return lockParent(ctx, parent)
}

// Forget stops tracking the directories (removed, or placed).
func (t *Tracked) Forget() {
	inflight.Lock()
	defer inflight.Unlock()
	t.forget()
}

func (t *Tracked) forget() {
	for _, p := range t.paths {
		delete(inflight.paths, p)
	}
}

// leftoverName matches what Write makes beside a release NAME:
// .NAME.tmp-PID-X (marked as privlab's, isOwned: the release being
// written in it as release/, its audit record as audit.json),
// .NAME.old-PID-X and .NAME.old-PID-X.audit.json (the earlier release and
// its record, moved aside by --force) and .NAME.del-PID-X (marked: the
// earlier release being removed, in it as release/). Earlier exports
// wrote .NAME.tmp-PID-X.audit.json beside their temporary directory.
// (privlab 0.2's .NAME.audit.tmp-PID-X reads as the temporary directory
// of NAME.audit.)
var leftoverName = regexp.MustCompile(`^\.(.+)\.(tmp|old|del)-([0-9]+)-([0-9]+)(\.audit\.json)?$`)

type leftover struct {
	name, base, kind string
	audit            bool // .NAME.old-PID-X.audit.json
}

// recoverLeftovers deals with what writes killed before they finished
// left in parent (only those whose process is gone): a release being
// written or removed is removed when its directory carries the marker
// the write put in it (isOwned; else it is left alone and named); an
// earlier release of base moved aside by --force is put back when no
// release of base is in place, else kept and named; an audit record of
// the release of base now in place is put beside it. Other names are
// left alone; warn is told what was done.
func recoverLeftovers(parent, base string, warn func(string)) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	var later []leftover
	for _, e := range entries {
		m := leftoverName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		if pid, err := strconv.Atoi(m[3]); err != nil || processAlive(pid) {
			continue
		}
		l := leftover{name: e.Name(), base: m[1], kind: m[2], audit: m[5] != ""}
		switch {
		case l.base == base:
			later = append(later, l)
		case l.kind != "old" && !l.audit:
			// Another release's unfinished or superseded directory (its
			// audit record and earlier release are left to its own next
			// write).
			removeMarked(filepath.Join(parent, l.name), warn)
		}
	}
	// Put back or name the earlier releases first (an audit record is
	// matched against the release then in place), and remove the
	// temporary directories before their audit records are looked at.
	sort.SliceStable(later, func(i, j int) bool { return order(later[i]) < order(later[j]) })
	for _, l := range later {
		path := filepath.Join(parent, l.name)
		abs := filepath.Join(parent, base)
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			continue // gone since the folder was listed: its export finished
		}
		switch {
		case l.kind == "old" && !l.audit:
			recoverOld(path, abs, warn)
		case l.kind == "old":
			recoverOldAudit(path, abs, warn)
		case l.kind == "tmp" && l.audit:
			recoverAudit(path, abs, warn)
		case l.kind == "tmp" && isOwned(path):
			// A release never put in place, or the audit record of one
			// that was.
			if _, err := os.Lstat(filepath.Join(path, "release")); errors.Is(err, fs.ErrNotExist) {
				placeAudit(filepath.Join(path, "audit.json"), abs, warn)
			}
			removeOwned(path)
		case l.kind == "tmp":
			removeMarked(path, warn)
		case l.kind == "del" && removeMarked(path, warn):
			warn(fmt.Sprintf("removed %s: the earlier release of %s that an interrupted export had replaced and begun to remove", path, abs))
		}
	}
}

// removeMarked removes a directory an interrupted export made when it
// carries its marker (isOwned), and says whether it did; one named like
// it without the marker is left alone, and named.
func removeMarked(path string, warn func(string)) bool {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		// Gone since the folder was listed: the export that made it
		// finished (and cleaned up) in between; nothing to say.
		return false
	}
	if isOwned(path) {
		removeOwned(path)
		return true
	}
	warn(fmt.Sprintf("left %s alone: it is named like the temporary directory of an interrupted export, but privlab's marker is not in it; remove it yourself if it is not yours", path))
	return false
}

// auditOf reports whether path reads as the audit record of the release
// at abs (what an export wrote, never a file that only has its name).
func auditOf(path, abs string) (*Audit, bool) {
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	a, err := ReadAudit(path)
	return a, err == nil && a.Release == abs
}

// recoverOld puts an earlier release moved aside back in place when
// there is none (with its audit record), or names it.
func recoverOld(old, abs string, warn func(string)) {
	if _, err := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
		if err := renameNoReplace(old, abs); err == nil {
			if _, err := os.Lstat(AuditPath(old)); err == nil {
				if _, err := os.Lstat(AuditPath(abs)); errors.Is(err, fs.ErrNotExist) {
					os.Rename(AuditPath(old), AuditPath(abs))
				}
			}
			warn(fmt.Sprintf("restored %s: an export that was replacing it was interrupted before the new release was in place", abs))
			return
		}
	}
	warn(fmt.Sprintf("kept %s: the earlier release an interrupted export replaced with %s; remove it (and %s) when you no longer need it",
		old, abs, filepath.Base(AuditPath(old))))
}

// recoverOldAudit removes the audit record of an earlier release whose
// removal was interrupted (its directory, .NAME.old-PID-X, is gone; when it
// is there, recoverOld dealt with both): a file that reads as the audit
// record of the release at abs, nothing else.
func recoverOldAudit(path, abs string, warn func(string)) {
	if _, err := os.Lstat(path); err != nil {
		return // moved back with its release
	}
	if _, err := os.Lstat(strings.TrimSuffix(path, ".audit.json")); errors.Is(err, fs.ErrNotExist) {
		if _, ok := auditOf(path, abs); !ok {
			warn(fmt.Sprintf("left %s alone: it is named like an audit record an interrupted export left, but it is not one of %s", path, abs))
			return
		}
		os.Remove(path)
		warn(fmt.Sprintf("removed %s, the audit record of a release an interrupted export had replaced", path))
	}
}

// recoverAudit deals with .NAME.tmp-PID-X.audit.json, where earlier
// exports wrote the audit record of a release being written: it is
// put in place (placeAudit) or removed when it reads as an audit record
// of the release at abs, else left alone and named.
func recoverAudit(path, abs string, warn func(string)) {
	if _, ok := auditOf(path, abs); !ok {
		warn(fmt.Sprintf("left %s alone: it is named like an audit record an interrupted export left, but it is not one of %s", path, abs))
		return
	}
	if !placeAudit(path, abs, warn) {
		os.Remove(path)
	}
}

// placeAudit puts the audit record of an interrupted export beside its
// release when that release is in place without one (its manifest's
// digest is the one the record holds), and says whether it did;
// otherwise the record belongs to a release that was never put in place.
func placeAudit(path, abs string, warn func(string)) bool {
	a, ok := auditOf(path, abs)
	if !ok || a.ManifestDigest == "" {
		return false
	}
	sum, serr := digestOf(abs)
	_, aerr := os.Lstat(AuditPath(abs))
	if serr == nil && sum == a.ManifestDigest && errors.Is(aerr, fs.ErrNotExist) {
		if os.Rename(path, AuditPath(abs)) == nil {
			warn(fmt.Sprintf("wrote %s: the audit record of %s, which an interrupted export had not yet put in place", AuditPath(abs), abs))
			return true
		}
	}
	return false
}

// processAlive reports whether a process with this id runs.
func processAlive(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil
}

func order(l leftover) int {
	switch {
	case l.kind == "old" && !l.audit:
		return 0
	case l.audit:
		return 2
	}
	return 1
}

// digestOf is the digest of the manifest of the release in dir.
func digestOf(dir string) (string, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return "", err
	}
	return ManifestDigest(m)
}
