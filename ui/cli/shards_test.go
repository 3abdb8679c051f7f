package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gen --shards far above the rows is refused at once (it looked for a
// billion shard files that might be replaced first, a hang); a shard
// file already there is still refused without --force.
func TestGenShardsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	start := time.Now()
	_, errs, code := privlab(t, dir, "gen", "census", "--rows", "100", "--out", "parts", "--shards", "1000000000")
	if code != 2 || !strings.Contains(errs, "must be from 1 to the rows (100)") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("refused after %v", took)
	}
	if err := os.MkdirAll(filepath.Join(dir, "parts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "parts", "part-00001.parquet"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code = privlab(t, dir, "gen", "census", "--rows", "100", "--out", "parts", "--shards", "3")
	if code != 2 || !strings.Contains(errs, "part-00001.parquet") || !strings.Contains(errs, "already exists") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, errs, code = privlab(t, dir, "gen", "census", "--rows", "100", "--out", "parts", "--shards", "3", "--force"); code != 0 {
		t.Fatalf("with --force: exit %d: %s", code, errs)
	}
}
