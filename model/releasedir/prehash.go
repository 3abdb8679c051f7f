package releasedir

import (
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The digests --force compares (Replaceable: every file of the earlier
// release as its manifest records it) are taken ahead, while the method
// runs on a core it leaves idle (Prehash), and kept with the file's
// identity (device, inode, size, modification and change times). The
// look under the lock takes a kept digest only for a file whose identity
// is unchanged, so an edit since (which changes its times) is hashed
// again, as git's index trusts a file's stat.
var prehashed = struct {
	sync.Mutex
	sums map[string]*prehash
}{sums: map[string]*prehash{}}

// prehash is one file's digest taken ahead (done closes once it is).
type prehash struct {
	done chan struct{}
	id   fileID
	sum  string
	ok   bool
}

// fileID is what changes when a file is written: git's racy-stat
// fields.
type fileID struct {
	dev, ino       uint64
	size           int64
	mtime, ctime   int64
	regular, valid bool
	// changeTime: ctime is the file's change time, which no user can put
	// back (outside Linux it is not read, and no digest is kept).
	changeTime bool
}

// racyWindow is how recent a file's times may be for its digest not to
// be kept: the kernel stamps times from a clock that runs up to a tick
// (at most 10 ms) behind, so a file written again within a tick of its
// last write could keep its times (git's "racily clean" entries). A
// variable for the tests.
var racyWindow = 20 * time.Millisecond

// racyFor is the racy window for a file of identity id: racyWindow, or
// two seconds where the file system keeps times to whole seconds (FAT to
// two, ext4 with small inodes and some network file systems to one),
// since a write within the same second or two keeps the last one's times.
func racyFor(id fileID, window time.Duration) time.Duration {
	if id.mtime%1e9 == 0 && id.ctime%1e9 == 0 {
		return max(window, 2*time.Second)
	}
	return window
}

// systemIdentityOf is systemIdentity, a variable for the tests (which
// play a file system without change times, or with coarse ones).
var systemIdentityOf = systemIdentity

func identify(path string) fileID {
	st, err := os.Lstat(path)
	if err != nil {
		return fileID{}
	}
	id := fileID{size: st.Size(), mtime: st.ModTime().UnixNano(), regular: st.Mode().IsRegular(), valid: true}
	systemIdentityOf(st, &id)
	return id
}

// Prehash starts taking, in the background, the digests of the files an
// earlier release at dir lists in its manifest, for the export that will
// ask whether --force may replace it. It does nothing when dir holds no
// release.
func Prehash(dir string) {
	m, err := ReadManifest(dir)
	if err != nil || m.Partitioned != nil {
		return
	}
	var paths []string
	for _, f := range m.Files {
		if f.Name != "" && f.Name == filepath.Base(f.Name) {
			paths = append(paths, filepath.Join(dir, f.Name))
		}
	}
	prehashed.Lock()
	var todo []*prehash
	var todoPaths []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		h := &prehash{done: make(chan struct{})}
		prehashed.sums[abs] = h
		todo, todoPaths = append(todo, h), append(todoPaths, abs)
	}
	prehashed.Unlock()
	window := racyWindow
	go func() {
		for i, h := range todo {
			h.take(todoPaths[i], window)
		}
	}()
}

// take hashes path, keeping the digest only when the file's identity is
// the same before and after, includes its change time, and its times are
// older than the racy window.
func (h *prehash) take(path string, window time.Duration) {
	defer close(h.done)
	start := time.Now()
	before := identify(path)
	if !before.valid || !before.regular || !before.changeTime ||
		start.UnixNano()-max(before.mtime, before.ctime) < int64(racyFor(before, window)) {
		return
	}
	sum, err := FileSHA256(path)
	if err != nil || identify(path) != before {
		return
	}
	h.id, h.sum, h.ok = before, sum, true
}

// releaseFileSHA256 is FileSHA256 of a file of an earlier release: the
// digest taken ahead when the file is as it was then, else taken now.
func releaseFileSHA256(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err == nil {
		prehashed.Lock()
		h := prehashed.sums[abs]
		prehashed.Unlock()
		if h != nil {
			<-h.done
			if h.ok && identify(abs) == h.id {
				return h.sum, nil
			}
		}
	}
	return FileSHA256(path)
}
