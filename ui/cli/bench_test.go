package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"privlab/algorithms/pipeline"
)

// adultDir holds ARX's cut of UCI Adult (30,162 rows) and its
// hierarchies, in ../shared/data (the benchmark skips when absent).
var adultDir = filepath.Join("..", "..", "..", "shared", "data", "adult")

// BenchmarkRunAdult times one whole `privlab run` on Adult as issue 34's
// budget states it (kja mondrian, k = 10, 8 QIs with the ARX hierarchies,
// SA occupation): load, method, export with its fsyncs, the independent
// verification of the written files, and the attacks. Each iteration
// starts with an empty cache, as a fresh process does.
func BenchmarkRunAdult(b *testing.B) {
	if _, err := os.Stat(filepath.Join(adultDir, "adult.csv")); err != nil {
		b.Skipf("Adult is not at %s (../shared/data beside the repository)", adultDir)
	}
	args := []string{"run", "--in", filepath.Join(adultDir, "adult.csv"), "--method", "kja", "--variant", "mondrian", "--k", "10",
		"--qi", "age,sex,race,marital-status,education,native-country,workclass,salary-class", "--sa", "occupation",
		"--seed", "1", "--out", filepath.Join(b.TempDir(), "release"), "--force"}
	for _, attr := range []string{"age", "sex", "race", "marital-status", "education", "native-country", "workclass", "salary-class"} {
		args = append(args, "--hierarchy", attr+"="+filepath.Join(adultDir, "adult_hierarchy_"+attr+".csv"))
	}
	saved := env.Cache
	defer func() { env.Cache = saved }()
	cpu := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env.Cache = &pipeline.Cache{}
		var out, errOut bytes.Buffer
		if code := Execute(args, &out, &errOut); code != 0 {
			b.Fatalf("exit %d: %s", code, errOut.String())
		}
	}
	// The machine's cores are shared (other processes stretch the wall
	// time): the CPU time says what the work itself costs.
	b.ReportMetric((cpuTime()-cpu).Seconds()*1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
