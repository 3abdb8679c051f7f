package advise

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"privlab/algorithms/catalog"
	"privlab/algorithms/pipeline"
	"privlab/datasets"
	"privlab/model"
)

var env = pipeline.Env{Datasets: datasets.Catalog{}}

// small is dataset:census cut to a size every method runs on quickly.
func small(t testing.TB) (pipeline.Project, *model.Table) {
	t.Helper()
	p := env.WithDefaults(pipeline.Project{Input: "dataset:census", Rows: 600, Params: model.Values{"seed": "3"}})
	tab, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, tab
}

// smallGrid is three points per method: the first, middle and last of
// its default grid.
func smallGrid(t testing.TB, p pipeline.Project, tab *model.Table) []Setting {
	t.Helper()
	all, err := Settings(nil, nil, tab, p.Roles, false)
	if err != nil {
		t.Fatal(err)
	}
	var out []Setting
	for _, name := range catalog.Names() {
		var own []Setting
		for _, s := range all {
			if s.Method == name {
				own = append(own, s)
			}
		}
		out = append(out, own[0], own[len(own)/2], own[len(own)-1])
	}
	return out
}

// TestEvaluateDeterministic: the same seed gives the same figures, on
// one worker or two (run with -race: the points share the table, its
// hierarchies and the workload), the points in the settings' order, and
// the callback sees every point once.
func TestEvaluateDeterministic(t *testing.T) {
	p, tab := small(t)
	settings := smallGrid(t, p, tab)
	var mu sync.Mutex
	seen := map[int]bool{}
	two, err := Evaluate(context.Background(), env, p, tab, settings, Options{Workers: 2, Each: func(done, total, at int, pt Point) {
		mu.Lock()
		defer mu.Unlock()
		if seen[at] || total != len(settings) || done != len(seen)+1 {
			t.Errorf("callback: done %d of %d at %d (seen %d)", done, total, at, len(seen))
		}
		seen[at] = true
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(settings) {
		t.Errorf("callback saw %d points of %d", len(seen), len(settings))
	}
	one, err := Evaluate(context.Background(), env, p, tab, settings, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !sameFigures(one, two) {
		t.Errorf("one worker and two differ:\n%+v\n%+v", one, two)
	}
	front := 0
	for i, pt := range two {
		if !reflect.DeepEqual(pt.Setting, settings[i]) {
			t.Errorf("point %d is %v, want %v", i, pt.Setting, settings[i])
		}
		if pt.Err != "" {
			t.Errorf("%v: %s", pt, pt.Err)
			continue
		}
		if math.IsNaN(pt.Risk) || math.IsNaN(pt.Loss) || pt.Interval[0] > pt.Risk+1e-12 || pt.Interval[1] < pt.Risk-1e-12 {
			t.Errorf("%v: risk %v in %v, loss %v", pt, pt.Risk, pt.Interval, pt.Loss)
		}
		if pt.Front {
			front++
		}
	}
	if front == 0 {
		t.Error("no point on the front")
	}
}

// sameFigures compares two evaluations figure by figure (NaN equal to NaN).
func sameFigures(a, b []Point) bool {
	if len(a) != len(b) {
		return false
	}
	same := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	for i := range a {
		x, y := a[i], b[i]
		if x.Holds != y.Holds || x.Err != y.Err || x.Front != y.Front || x.Attack != y.Attack ||
			!same(x.Risk, y.Risk) || !same(x.Loss, y.Loss) || !same(x.Interval[0], y.Interval[0]) || !same(x.Interval[1], y.Interval[1]) {
			return false
		}
	}
	return true
}

// TestEvaluateCancel: a cancelled context stops the points not begun
// and says so.
func TestEvaluateCancel(t *testing.T) {
	p, tab := small(t)
	settings := smallGrid(t, p, tab)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Evaluate(ctx, env, p, tab, settings, Options{Workers: 1, Each: func(done, total, at int, pt Point) {
		n++
		cancel()
	}})
	if err != context.Canceled {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if n != 1 {
		t.Errorf("%d points finished after the cancel, want 1", n)
	}
}

// TestFrontProperty holds MarkFront to a brute-force dominance check
// on random point sets, ties and failing points among them: dominance
// on the risk interval's upper end and the loss (SPEC 3.8); and the
// pick under any limit is on the front.
func TestFrontProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 2000; trial++ {
		pts := randomPoints(r)
		MarkFront(pts)
		for i, p := range pts {
			want := p.Holds && p.Measured() && !math.IsNaN(p.Interval[1])
			for j, q := range pts {
				qOK := q.Holds && q.Measured() && !math.IsNaN(q.Interval[1])
				if j != i && want && qOK && q.Interval[1] <= p.Interval[1] && q.Loss <= p.Loss && (q.Interval[1] < p.Interval[1] || q.Loss < p.Loss) {
					want = false
				}
			}
			if p.Front != want {
				t.Fatalf("trial %d point %d %+v: front %v, brute force %v (points %+v)", trial, i, p, p.Front, want, pts)
			}
		}
		for _, limit := range []float64{0, 0.25, 0.5, 0.75, 1} {
			if at, ok := Pick(pts, limit); ok && !pts[at].Front {
				t.Fatalf("trial %d: the pick under %v, %+v, is not on the front (points %+v)", trial, limit, pts[at], pts)
			}
		}
	}
}

// randomPoints are up to 11 points on a coarse grid of figures (so ties
// are common), some failing their definition, some unmeasured.
func randomPoints(r *rand.Rand) []Point {
	pts := make([]Point, r.IntN(12))
	for i := range pts {
		risk := float64(r.IntN(5)) / 4
		pts[i] = Point{Holds: r.IntN(4) > 0, Risk: risk, Interval: [2]float64{0, risk + float64(r.IntN(3))/4}, Loss: float64(r.IntN(5)) / 4}
		switch r.IntN(12) {
		case 0:
			pts[i].Risk = math.NaN()
		case 1:
			pts[i].Err = "failed"
		case 2:
			pts[i].Interval[1] = math.NaN()
		}
	}
	return pts
}

// TestPick: the lowest loss under the limit on the interval's upper end;
// ties to the lower upper end, then the lower risk, then the earlier
// point; failing points never.
func TestPick(t *testing.T) {
	pt := func(holds bool, risk, high, loss float64) Point {
		return Point{Holds: holds, Risk: risk, Interval: [2]float64{0, high}, Loss: loss}
	}
	pts := []Point{pt(true, 0.05, 0.2, 0.1), pt(false, 0.01, 0.02, 0.01), pt(true, 0.04, 0.09, 0.3), pt(true, 0.03, 0.08, 0.3), pt(true, 0.03, 0.08, 0.3),
		pt(true, 0.02, 0.085, 0.3)}
	if at, ok := Pick(pts, 0.1); !ok || at != 3 {
		t.Errorf("pick %d %v, want 3", at, ok)
	}
	if at, ok := Pick(pts, 0.5); !ok || at != 0 {
		t.Errorf("pick %d %v, want 0", at, ok)
	}
	if _, ok := Pick(pts, 0.01); ok {
		t.Error("a pick under 0.01")
	}
}

// TestPickOnFront: dataset:patients' map (8 rows, so wide intervals):
// under --max-risk 0.3 the lowest loss is sampling's (risk 0 [0,
// 0.0992], loss 1); ambiguity's (risk 0 [0, 0.4567], loss 0.55) has the
// same risk and a lower loss but an upper end above the limit. The pick
// is on the front: the front compares the upper ends, as the pick does.
func TestPickOnFront(t *testing.T) {
	pts := []Point{
		{Setting: Setting{Method: "kja"}, Holds: true, Risk: 0.2857, Interval: [2]float64{0.0135, 0.6506}, Loss: 0.2},
		{Setting: Setting{Method: "sampling"}, Holds: true, Risk: 0, Interval: [2]float64{0, 0.0992}, Loss: 1},
		{Setting: Setting{Method: "ambiguity"}, Holds: true, Risk: 0, Interval: [2]float64{0, 0.4567}, Loss: 0.55},
	}
	MarkFront(pts)
	at, ok := Pick(pts, 0.3)
	if !ok || at != 1 {
		t.Fatalf("pick %d %v, want sampling's", at, ok)
	}
	for i, want := range []bool{true, true, true} {
		if pts[i].Front != want {
			t.Errorf("%s: front %v, want %v", pts[i].Method, pts[i].Front, want)
		}
	}
}

// TestParseAxis: the grid flag's errors name it and what would do.
func TestParseAxis(t *testing.T) {
	a, err := ParseAxis("kja:k=5,10,20")
	if err != nil || a.Method != "kja" || a.Param != "k" || !reflect.DeepEqual(a.Values, []string{"5", "10", "20"}) {
		t.Errorf("ParseAxis: %+v %v", a, err)
	}
	for _, bad := range []string{"k=5", "nope:k=5", "kja:alpha=0.5", "kja:k"} {
		if _, err := ParseAxis(bad); err == nil {
			t.Errorf("ParseAxis(%q): no error", bad)
		} else if pe, ok := err.(*model.ParamError); !ok || pe.Param != "grid" {
			t.Errorf("ParseAxis(%q): %v does not name --grid", bad, err)
		}
	}
	axes := []Axis{{Method: "lossyjoin", Param: "k", Values: []string{"2", "5"}}, {Method: "lossyjoin", Param: "alpha", Values: []string{"0.5", "0.4"}}}
	got, err := Settings([]string{"lossyjoin"}, axes, nil, model.Roles{}, false)
	if err != nil || len(got) != 4 || got[1].Values["alpha"] != "0.4" || got[2].Values["k"] != "5" {
		t.Errorf("Settings of two axes: %+v %v", got, err)
	}
}

// TestVerify: a full run (export, check, attack, the workload on the
// files read back) gives each point's figures.
func TestVerify(t *testing.T) {
	p, tab := small(t)
	settings := smallGrid(t, p, tab)
	pts, err := Evaluate(context.Background(), env, p, tab, settings, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range pts {
		if !pt.Front {
			continue
		}
		got, err := Verify(context.Background(), env, p, tab, pt, Options{})
		if err != nil {
			t.Fatalf("%v: %v", pt, err)
		}
		if d := Differences(pt, got); len(d) > 0 {
			t.Errorf("%v: %v", pt, d)
		}
	}
	if d := Differences(Point{Risk: 0.1, Loss: 0.2}, Point{Risk: 0.1, Loss: 0.3}); len(d) != 1 {
		t.Errorf("Differences %v, want the loss", d)
	}
}

// TestGridErrors: a grid no point could run with is the --grid (or
// --methods) flag's error, found before any point runs: a value out of
// its range for the table, a value twice, an unknown variant, an
// unfixed seed, an axis of a method not asked for, two axes of one
// parameter, a method twice.
func TestGridErrors(t *testing.T) {
	p, tab := small(t)
	for _, c := range []struct {
		methods []string
		grid    []string
		param   string
	}{
		{nil, []string{"kja:k=-5"}, "grid"},
		{nil, []string{"kja:k=5000"}, "grid"},
		{nil, []string{"sampling:sampling-rate=1.5"}, "grid"},
		{nil, []string{"ambiguity:alpha=abc"}, "grid"},
		{nil, []string{"kja:k=5,5"}, "grid"},
		{nil, []string{"kja:variant=nope"}, "grid"},
		{nil, []string{"sampling:seed=1,random"}, "grid"},
		{[]string{"kja"}, []string{"sampling:sampling-rate=0.5"}, "grid"},
		{nil, []string{"kja:k=2,3", "kja:k=4,5"}, "grid"},
		{[]string{"kja", "kja"}, nil, "methods"},
	} {
		err := gridError(c.methods, c.grid, tab, p)
		if pe, ok := err.(*model.ParamError); !ok || pe.Param != c.param || pe.Hint == "" {
			t.Errorf("--methods %v --grid %v: %v, want an error of --%s with a hint", c.methods, c.grid, err, c.param)
		}
	}
	if err := gridError([]string{"kja", "sampling"}, []string{"kja:k=2,5", "kja:split=round-robin", "sampling:seed=1,2"}, tab, p); err != nil {
		t.Errorf("a good grid: %v", err)
	}
}

// gridError parses the grid and lays out the settings, returning the
// first error.
func gridError(methods, grid []string, tab *model.Table, p pipeline.Project) error {
	var axes []Axis
	for _, g := range grid {
		a, err := ParseAxis(g)
		if err != nil {
			return err
		}
		axes = append(axes, a)
	}
	_, err := Settings(methods, axes, tab, p.Roles, false)
	return err
}

// TestEmptyGridListed: on 10 rows of census the sensitive attribute
// has one value, so no point of ambiguity's default grid suits the
// table; the method is one point at its defaults, whose error says why,
// rather than vanishing from the map.
func TestEmptyGridListed(t *testing.T) {
	p := env.WithDefaults(pipeline.Project{Input: "dataset:census", Rows: 10, Params: model.Values{"seed": "1"}})
	tab, err := env.LoadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	settings, err := Settings([]string{"ambiguity"}, nil, tab, p.Roles, false)
	if err != nil || len(settings) != 1 || len(settings[0].Values) != 0 {
		t.Fatalf("settings %+v, %v: want ambiguity at its defaults", settings, err)
	}
	pts, err := Evaluate(context.Background(), env, p, tab, settings, Options{})
	if err != nil || len(pts) != 1 || pts[0].Err == "" || pts[0].Holds {
		t.Fatalf("points %+v, %v: want one failing point with its reason", pts, err)
	}
}

// TestRandomSeedReproducible: a project whose seed is "random" (as the
// workbench saves an unset one) runs its points with DefaultSeed, so the
// same settings give the same figures (they were drawn afresh).
func TestRandomSeedReproducible(t *testing.T) {
	p, tab := small(t)
	p.Params["seed"] = "random"
	settings := []Setting{{Method: "sampling", Values: model.Values{"sampling-rate": "0.5"}}, {Method: "ambiguity", Values: model.Values{"alpha": "0.3", "beta": "0.3"}}}
	a, err := Evaluate(context.Background(), env, p, tab, settings, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Evaluate(context.Background(), env, p, tab, settings, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	p.Params["seed"] = DefaultSeed
	c, err := Evaluate(context.Background(), env, p, tab, settings, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !sameFigures(a, b) || !sameFigures(a, c) {
		t.Errorf("seed random gives other figures each time, or not seed %s's:\n%+v\n%+v\n%+v", DefaultSeed, a, b, c)
	}
}
