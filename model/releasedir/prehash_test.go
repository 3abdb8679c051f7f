package releasedir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"privlab/model"
)

// The digests Prehash takes ahead are what --force compares only while a
// file is as it was when hashed: a file rewritten since, even to the same
// size with its modification time put back, is hashed again and named as
// changed; a file written within the racy window is not kept at all.
func TestPrehashKeepsOnlyUnchangedFiles(t *testing.T) {
	saved := racyWindow
	defer func() { racyWindow = saved }()
	racyWindow = 0
	dir := filepath.Join(t.TempDir(), "rel")
	if _, err := Write(dir, testRelease(), WriteOptions{Audit: &Audit{}}); err != nil {
		t.Fatal(err)
	}
	qi := filepath.Join(dir, "qi.csv")
	want, err := FileSHA256(qi)
	if err != nil {
		t.Fatal(err)
	}
	Prehash(dir)
	kept := keptDigest(t, qi)
	if !kept.ok || kept.sum != want {
		t.Fatalf("kept %+v, want the digest %s", kept, want)
	}
	// The kept digest is what the look compares while the file is as it
	// was (here it stands for another, to show it is the one taken).
	kept.sum = "kept"
	if got, err := releaseFileSHA256(qi); err != nil || got != "kept" {
		t.Fatalf("releaseFileSHA256 = %q, %v; want the kept digest", got, err)
	}
	kept.sum = want
	if why := Replaceable(dir); why != "" {
		t.Fatalf("an unchanged prehashed release: %q", why)
	}
	// Same size, modification time put back: the change time differs.
	st, err := os.Stat(qi)
	if err != nil {
		t.Fatal(err)
	}
	old := readFile(t, qi)
	edited := []byte(old)
	edited[len(edited)-2] ^= 1
	if err := os.WriteFile(qi, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(qi, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := Replaceable(dir); got != "qi.csv was changed since privlab wrote it" {
		t.Fatalf("Replaceable after an edit that kept size and time: %q", got)
	}
	_, err = Write(dir, testRelease(), WriteOptions{Force: true, Audit: &Audit{}})
	var pe *model.ParamError
	if !errors.As(err, &pe) || readFile(t, qi) != string(edited) {
		t.Fatalf("--force over the edited release: %v", err)
	}
	// Written within the racy window: nothing is kept, the look hashes.
	racyWindow = time.Hour
	Prehash(dir)
	if kept := keptDigest(t, qi); kept.ok {
		t.Fatalf("a racily recent file's digest was kept: %+v", kept)
	}
	if got := Replaceable(dir); got != "qi.csv was changed since privlab wrote it" {
		t.Fatalf("Replaceable without a kept digest: %q", got)
	}
}

// keptDigest waits for the digest Prehash takes of path.
func keptDigest(t *testing.T, path string) *prehash {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	prehashed.Lock()
	h := prehashed.sums[abs]
	prehashed.Unlock()
	if h == nil {
		t.Fatalf("Prehash took no digest of %s", path)
	}
	<-h.done
	return h
}

// editKeepingTimes rewrites path to other bytes of the same size and puts
// its modification time back, as touch -d or cp -p can.
func editKeepingTimes(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := []byte(readFile(t, path))
	edited[len(edited)-2] ^= 1
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// Where a file's change time is not read (outside Linux), its size and
// modification time are all its identity, and a user can put both back
// after an edit: no digest is kept there, so --force still sees the edit.
func TestPrehashKeepsNothingWithoutChangeTime(t *testing.T) {
	waitPrehashed()
	savedWindow, savedIdentity := racyWindow, systemIdentityOf
	defer func() { waitPrehashed(); racyWindow, systemIdentityOf = savedWindow, savedIdentity }()
	racyWindow = 0
	systemIdentityOf = func(os.FileInfo, *fileID) {}
	dir := filepath.Join(t.TempDir(), "rel")
	if _, err := Write(dir, testRelease(), WriteOptions{Audit: &Audit{}}); err != nil {
		t.Fatal(err)
	}
	qi := filepath.Join(dir, "qi.csv")
	Prehash(dir)
	keptDigest(t, qi)
	editKeepingTimes(t, qi)
	if got := Replaceable(dir); got != "qi.csv was changed since privlab wrote it" {
		t.Fatalf("Replaceable after an edit that kept size and modification time, without change times: %q", got)
	}
}

// On a file system that keeps times to whole seconds, a file written a
// second ago and written again now can keep the same times (change time
// too): its digest is not kept, so an edit during the run is seen.
func TestPrehashCoarseTimesAreRacyForSeconds(t *testing.T) {
	waitPrehashed()
	savedWindow, savedIdentity := racyWindow, systemIdentityOf
	defer func() { waitPrehashed(); racyWindow, systemIdentityOf = savedWindow, savedIdentity }()
	racyWindow = 20 * time.Millisecond
	systemIdentityOf = func(st os.FileInfo, id *fileID) {
		savedIdentity(st, id)
		// The file system's clock in whole seconds, the last write a
		// second before the current one.
		id.mtime = time.Now().Truncate(time.Second).Add(-time.Second).UnixNano()
		id.ctime = id.mtime
	}
	dir := filepath.Join(t.TempDir(), "rel")
	if _, err := Write(dir, testRelease(), WriteOptions{Audit: &Audit{}}); err != nil {
		t.Fatal(err)
	}
	qi := filepath.Join(dir, "qi.csv")
	Prehash(dir)
	if kept := keptDigest(t, qi); kept.ok {
		t.Fatalf("a digest was kept for a file whose whole-second times are within two seconds: %+v", kept)
	}
	editKeepingTimes(t, qi)
	if got := Replaceable(dir); got != "qi.csv was changed since privlab wrote it" {
		t.Fatalf("Replaceable after an edit within the file system's second: %q", got)
	}
}

// waitPrehashed waits for every digest Prehash is taking, so a test may
// change how files are identified.
func waitPrehashed() {
	prehashed.Lock()
	var all []*prehash
	for _, h := range prehashed.sums {
		all = append(all, h)
	}
	prehashed.Unlock()
	for _, h := range all {
		<-h.done
	}
}
