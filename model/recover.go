package model

import (
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
		if err := os.RemoveAll(p); err == nil {
			removed = append(removed, p)
		}
		delete(inflight.paths, p)
	}
	sort.Strings(removed)
	return removed, append([]string(nil), inflight.placed...)
}

// leftoverName matches what WriteRelease makes beside a release NAME:
// .NAME.tmp-PID-X and .NAME.tmp-PID-X.audit.json (a release being written
// and its audit record), .NAME.old-PID-X and .NAME.old-PID-X.audit.json
// (the earlier release and its record, moved aside by --force) and
// .NAME.del-PID-X (the earlier release being removed). (privlab 0.2's
// .NAME.audit.tmp-PID-X reads as the temporary directory of NAME.audit.)
var leftoverName = regexp.MustCompile(`^\.(.+)\.(tmp|old|del)-([0-9]+)-([0-9]+)(\.audit\.json)?$`)

type leftover struct {
	name, base, kind string
	audit            bool // .NAME.old-PID-X.audit.json
}

// recoverLeftovers deals with what writes killed before they finished
// left in parent (only those whose process is gone): a release being
// written or removed is removed; an earlier release of base moved aside
// by --force is put back when no release of base is in place, else kept
// and named; an audit record of the release of base now in place is put
// beside it. Other names are left alone; warn is told what was done.
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
			os.RemoveAll(filepath.Join(parent, l.name))
		}
	}
	// Put back or name the earlier releases first (an audit record is
	// matched against the release then in place), and remove the
	// temporary directories before their audit records are looked at.
	sort.SliceStable(later, func(i, j int) bool { return order(later[i]) < order(later[j]) })
	for _, l := range later {
		path := filepath.Join(parent, l.name)
		abs := filepath.Join(parent, base)
		switch {
		case l.kind == "old" && !l.audit:
			recoverOld(path, abs, warn)
		case l.kind == "old":
			recoverOldAudit(path, warn)
		case l.kind == "tmp" && l.audit:
			recoverAudit(path, abs, warn)
		case l.kind == "tmp":
			os.RemoveAll(path) // a release never put in place
		case l.kind == "del":
			os.RemoveAll(path)
			warn(fmt.Sprintf("removed %s: the earlier release of %s that an interrupted export had replaced and begun to remove", path, abs))
		}
	}
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
// is there, recoverOld dealt with both).
func recoverOldAudit(path string, warn func(string)) {
	if _, err := os.Lstat(path); err != nil {
		return // moved back with its release
	}
	if _, err := os.Lstat(strings.TrimSuffix(path, ".audit.json")); errors.Is(err, fs.ErrNotExist) {
		os.Remove(path)
		warn(fmt.Sprintf("removed %s, the audit record of a release an interrupted export had replaced", path))
	}
}

// recoverAudit puts the audit record of an interrupted export beside its
// release when that release is in place without one (its manifest's
// digest is the one the record holds); otherwise the record belongs to a
// release that was never put in place and is removed.
func recoverAudit(path, abs string, warn func(string)) {
	a, err := ReadAudit(path)
	if err == nil && a.ManifestDigest != "" {
		sum, serr := digestOf(abs)
		_, aerr := os.Lstat(AuditPath(abs))
		if serr == nil && sum == a.ManifestDigest && errors.Is(aerr, fs.ErrNotExist) {
			if os.Rename(path, AuditPath(abs)) == nil {
				warn(fmt.Sprintf("wrote %s: the audit record of %s, which an interrupted export had not yet put in place", AuditPath(abs), abs))
				return
			}
		}
	}
	os.Remove(path)
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
