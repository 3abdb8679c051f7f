package check

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"

	"privlab/algorithms/verify"
	"privlab/model"
)

var sprintf = fmt.Sprintf

// assignable decides whether the original records can be the classes'
// members: for every QI tuple (key) its original records, each with its
// sensitive value, must be distributed over the classes so that class c
// receives exactly nss(c, key) of them (its nss.csv rows of the tuple) and,
// over all tuples, exactly ss(c, v) records of each sensitive value v (its
// ss.csv rows). With x(key, v, c) the records of tuple key and value v in
// class c, the margins are
//
//	sum_c x(key, v, c) = orig(key, v), sum_v x(key, v, c) = nss(c, key), sum_key x(key, v, c) = ss(c, v).
//
// Two maximum flows test two pairs of margins: (key, v) -> (c, v) with
// capacity nss(c, key) into sinks ss(c, v), and (key, v) -> (key, c) with
// capacity ss(c, v) into sinks nss(c, key). Each is a necessary condition
// (both must carry every record), but the three margins together form a
// three-way transportation problem the flows only bound. So the check
// also builds an assignment (peel): where the files force one, class by
// class, a contradiction disproves the release; elsewhere it tries one
// that fits. A complete assignment proves the release consistent with
// the original; without one the line says the flows are necessary, not
// sufficient. It returns the classes faithful line.
func assignable(t *tupleRows, o *verify.Original, nssOf []int, cl *classes) verify.Line {
	orig, pairs, n := origPairs(t, o)
	nssCount, classList, unknown := nssCounts(t.keys, nssOf)
	flow1 := flowByValue(orig, pairs, nssCount, classList, cl)
	flow2 := flowByTuple(orig, pairs, nssCount, classList, cl)
	spanning := 0
	for _, cs := range classList {
		if len(cs) > 1 {
			spanning++
		}
	}
	left, contradiction := peel(orig, classList, nssCount, cl)
	what := fmt.Sprintf("the original records can be distributed over the classes so that each receives exactly its nss.csv QI tuples and its ss.csv sensitive values (maximum flows %d and %d of %d records; %d QI tuples lie in more than one class", flow1, flow2, n, spanning)
	line := verify.Line{OK: true, Name: "classes faithful"}
	switch {
	case flow1 != n || flow2 != n || unknown > 0:
		line.OK, line.Text = false, fmt.Sprintf("no assignment of the original records to the classes gives each class its nss.csv QI tuples and its ss.csv sensitive values (maximum flows %d and %d of %d records): some class's ss.csv values are not those of its nss.csv records", flow1, flow2, n)
	case contradiction != "":
		line.OK, line.Text = false, "no assignment of the original records to the classes gives each class its nss.csv QI tuples and its ss.csv sensitive values: "+contradiction
	case left == 0:
		line.Text = fmt.Sprintf("consistent with the original: %s, and an assignment of every record was found, class by class; the audit record pins it exactly)", what)
	default:
		line.Text = fmt.Sprintf("consistent, not proven without the audit record: %s; for %d classes no assignment was found, and the flows are necessary, not sufficient)", what, left)
	}
	return line
}

type keyValue struct{ key, v string }

type keyClass struct {
	key string
	c   int
}

// origPairs counts the original records of every (tuple, value), the
// pairs in order, and the records.
func origPairs(t *tupleRows, o *verify.Original) (map[keyValue]int, []keyValue, int) {
	orig := map[keyValue]int{}
	var pairs []keyValue
	n := 0
	for key := range t.ids {
		for _, in := range t.rows(key) {
			v, _ := o.Text(o.SA, in)
			kv := keyValue{key, v}
			if orig[kv] == 0 {
				pairs = append(pairs, kv)
			}
			orig[kv]++
			n++
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].key != pairs[j].key {
			return pairs[i].key < pairs[j].key
		}
		return pairs[i].v < pairs[j].v
	})
	return orig, pairs, n
}

// nssCounts counts nss.csv's rows of every (tuple, class), each tuple's
// classes in order, and the rows of no class.
func nssCounts(keys []string, nssOf []int) (map[keyClass]int, map[string][]int, int) {
	nssCount := map[keyClass]int{}
	classList := map[string][]int{}
	unknown := 0
	for row, key := range keys {
		c := nssOf[row]
		if c < 0 {
			unknown++
			continue
		}
		kc := keyClass{key, c}
		if nssCount[kc] == 0 {
			classList[key] = append(classList[key], c)
		}
		nssCount[kc]++
	}
	for _, cs := range classList {
		sort.Ints(cs)
	}
	return nssCount, classList, unknown
}

// flowByValue is the first flow: tuple and value to class and value.
func flowByValue(orig map[keyValue]int, pairs []keyValue, nssCount map[keyClass]int, classList map[string][]int, cl *classes) int {
	f := verify.NewFlow()
	src, sink := f.Node(), f.Node()
	type classValue struct {
		c int
		v string
	}
	cvNode := map[classValue]int{}
	for c := range cl.ids {
		vs := make([]string, 0, len(cl.counts[c]))
		for v := range cl.counts[c] {
			vs = append(vs, v)
		}
		sort.Strings(vs)
		for _, v := range vs {
			node := f.Node()
			cvNode[classValue{c, v}] = node
			f.Edge(node, sink, cl.counts[c][v])
		}
	}
	for _, kv := range pairs {
		node := f.Node()
		f.Edge(src, node, orig[kv])
		for _, c := range classList[kv.key] {
			if to, ok := cvNode[classValue{c, kv.v}]; ok {
				f.Edge(node, to, nssCount[keyClass{kv.key, c}])
			}
		}
	}
	return f.MaxFlow(src, sink)
}

// flowByTuple is the second flow: tuple and value to tuple and class.
func flowByTuple(orig map[keyValue]int, pairs []keyValue, nssCount map[keyClass]int, classList map[string][]int, cl *classes) int {
	f := verify.NewFlow()
	src, sink := f.Node(), f.Node()
	kcNode := map[keyClass]int{}
	for _, kv := range pairs {
		node := f.Node()
		f.Edge(src, node, orig[kv])
		for _, c := range classList[kv.key] {
			kc := keyClass{kv.key, c}
			to, ok := kcNode[kc]
			if !ok {
				to = f.Node()
				kcNode[kc] = to
				f.Edge(to, sink, nssCount[kc])
			}
			if s := cl.counts[c][kv.v]; s > 0 {
				f.Edge(node, to, s)
			}
		}
	}
	return f.MaxFlow(src, sink)
}

// peeling is the state of peel: every tuple's records not yet placed,
// every class's tuples, the unfixed classes holding each tuple.
type peeling struct {
	remainingOf map[string]map[string]int // key -> value -> records not yet placed
	keysOf      [][]string
	open        map[string]int
	fixed       []bool
	classList   map[string][]int
	nssCount    map[keyClass]int
	cl          *classes
}

// peel fixes the assignment class by class where the files force it. A
// class whose QI tuples all lie in no other unfixed class takes all their
// remaining records; a class with one tuple that lies elsewhere too takes
// the records of its other tuples and, of that tuple, exactly the
// sensitive values its ss.csv rows still lack. Each step is forced, so a
// count that does not fit (a tuple's remaining records not its nss.csv
// rows, a class short of a value) proves that no assignment exists
// (contradiction); when every class is fixed the steps are an assignment
// (left = 0). Fixing a class can leave a tuple in one unfixed class,
// which may then be fixed in turn. The classes still unfixed then take,
// one by one, records that fit (fitClass), in up to four orders: left
// counts the classes of the best order that found none.
func peel(orig map[keyValue]int, classList map[string][]int, nssCount map[keyClass]int, cl *classes) (left int, contradiction string) {
	p := &peeling{remainingOf: map[string]map[string]int{}, keysOf: make([][]string, len(cl.ids)), open: map[string]int{},
		fixed: make([]bool, len(cl.ids)), classList: classList, nssCount: nssCount, cl: cl}
	for kv, x := range orig {
		if p.remainingOf[kv.key] == nil {
			p.remainingOf[kv.key] = map[string]int{}
		}
		p.remainingOf[kv.key][kv.v] = x
	}
	var sorted []string
	for key := range classList {
		sorted = append(sorted, key)
	}
	sort.Strings(sorted)
	for _, key := range sorted {
		for _, c := range classList[key] {
			p.keysOf[c] = append(p.keysOf[c], key)
		}
		p.open[key] = len(classList[key])
	}
	queue := make([]int, len(cl.ids))
	for c := range queue {
		queue[c] = c
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if p.fixed[c] {
			continue
		}
		more, err := p.fix(c)
		if err != "" {
			return 0, err
		}
		queue = append(queue, more...)
	}
	return p.rest(), ""
}

// fix fixes class c when the files force its records (at most one of its
// tuples lies in another unfixed class); it returns the classes left the
// only unfixed holder of a tuple, to try next, or the contradiction.
func (p *peeling) fix(c int) ([]int, string) {
	shared := ""
	for _, key := range p.keysOf[c] {
		if p.open[key] > 1 {
			if shared != "" {
				return nil, "" // two shared tuples: not forced
			}
			shared = key
		}
	}
	need := map[string]int{}
	for v, x := range p.cl.counts[c] {
		need[v] = x
	}
	for _, key := range p.keysOf[c] {
		if key == shared {
			continue
		}
		if err := p.takeAll(c, key, need); err != "" {
			return nil, err
		}
	}
	total := 0
	for v, x := range need {
		total += x
		if shared == "" && x != 0 {
			return nil, fmt.Sprintf("class %s's records give %s %d times fewer than its ss.csv rows", p.cl.ids[c], v, x)
		}
	}
	var next []int
	if shared != "" {
		if err := p.takeNeeded(c, shared, need, total); err != "" {
			return nil, err
		}
		if p.open[shared] == 1 {
			for _, other := range p.classList[shared] {
				if !p.fixed[other] && other != c {
					next = append(next, other)
				}
			}
		}
	}
	p.fixed[c] = true
	return next, ""
}

// takeAll gives class c every remaining record of a tuple it alone
// holds.
func (p *peeling) takeAll(c int, key string, need map[string]int) string {
	total := 0
	for v, x := range p.remainingOf[key] {
		total += x
		need[v] -= x
		if need[v] < 0 {
			return fmt.Sprintf("class %s holds every remaining record of a QI tuple, whose %s values are more than its ss.csv rows of %s", p.cl.ids[c], v, v)
		}
	}
	if total != p.nssCount[keyClass{key, c}] {
		return fmt.Sprintf("class %s holds every remaining record of a QI tuple: %d, not its %d nss.csv rows of the tuple", p.cl.ids[c], total, p.nssCount[keyClass{key, c}])
	}
	p.remainingOf[key] = nil
	p.open[key] = 0
	return ""
}

// takeNeeded gives class c, of the tuple it shares, exactly the values
// its ss.csv rows still lack.
func (p *peeling) takeNeeded(c int, shared string, need map[string]int, total int) string {
	if total != p.nssCount[keyClass{shared, c}] {
		return fmt.Sprintf("class %s lacks %d sensitive values for its %d nss.csv rows of a QI tuple", p.cl.ids[c], total, p.nssCount[keyClass{shared, c}])
	}
	for v, x := range need {
		if x > p.remainingOf[shared][v] {
			return fmt.Sprintf("class %s needs %d more records of value %s from a QI tuple that has %d left", p.cl.ids[c], x, v, p.remainingOf[shared][v])
		}
		p.remainingOf[shared][v] -= x
	}
	p.open[shared]--
	return ""
}

// rest places the unfixed classes class by class with records that fit
// (a transportation problem within the class, taking plentiful records
// first). Success is an assignment; a class that finds none proves
// nothing, so three other orders of the classes are tried. It returns
// the classes of the best order that found none.
func (p *peeling) rest() int {
	var rest []int
	involved := map[string]bool{}
	for c := range p.fixed {
		if !p.fixed[c] {
			rest = append(rest, c)
			for _, key := range p.keysOf[c] {
				involved[key] = true
			}
		}
	}
	if len(rest) == 0 {
		return 0
	}
	saved := map[string]map[string]int{}
	for key := range involved {
		saved[key] = maps.Clone(p.remainingOf[key])
	}
	rng := model.NewRand(1)
	left := len(rest)
	for attempt := 0; attempt < 4 && left > 0; attempt++ {
		order := append([]int(nil), rest...)
		switch {
		case attempt == 1:
			slices.Reverse(order)
		case attempt > 1:
			for i := len(order) - 1; i > 0; i-- {
				j := rng.Intn(i + 1)
				order[i], order[j] = order[j], order[i]
			}
		}
		for key := range involved {
			p.remainingOf[key] = maps.Clone(saved[key])
		}
		failed := 0
		for _, c := range order {
			if !fitClass(c, p.keysOf[c], p.cl, p.nssCount, p.remainingOf) {
				failed++
			}
		}
		left = min(left, failed)
	}
	return left
}

// fitClass places records of the class's QI tuples (remaining) into
// class c so that it receives exactly its nss.csv tuples and ss.csv
// values, and takes them from remaining; false when none fit.
func fitClass(c int, keys []string, cl *classes, nssCount map[keyClass]int, remaining map[string]map[string]int) bool {
	vs := make([]string, 0, len(cl.counts[c]))
	for v := range cl.counts[c] {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	supply := make([]int, len(keys))
	capacity := make([][]int, len(keys))
	for i, key := range keys {
		supply[i] = nssCount[keyClass{key, c}]
		capacity[i] = make([]int, len(vs))
		for j, v := range vs {
			capacity[i][j] = remaining[key][v]
		}
	}
	demand := make([]int, len(vs))
	for j, v := range vs {
		demand[j] = cl.counts[c][v]
	}
	x, ok := transport(supply, demand, capacity)
	if !ok {
		return false
	}
	for i, key := range keys {
		for j, v := range vs {
			remaining[key][v] -= x[i][j]
		}
	}
	return true
}

// transportation is the state of transport: the flow x, what rows and
// columns have left, each row's columns by capacity (largest first).
type transportation struct {
	x                [][]int
	capacity         [][]int
	byCapacity       [][]int
	rowLeft, colLeft []int
	nr, nc           int
}

// transport finds x[i][j] <= capacity[i][j] with row sums supply and
// column sums demand (equal totals), by augmenting paths; false when
// none exists.
func transport(supply, demand []int, capacity [][]int) ([][]int, bool) {
	total, want := 0, 0
	for _, s := range supply {
		total += s
	}
	for _, d := range demand {
		want += d
	}
	if total != want {
		return nil, false
	}
	t := &transportation{capacity: capacity, rowLeft: append([]int(nil), supply...), colLeft: append([]int(nil), demand...),
		nr: len(supply), nc: len(demand)}
	t.x = make([][]int, t.nr)
	t.byCapacity = make([][]int, t.nr)
	for i := range t.x {
		t.x[i] = make([]int, t.nc)
		t.byCapacity[i] = make([]int, t.nc)
		for j := range t.byCapacity[i] {
			t.byCapacity[i][j] = j
		}
		sort.SliceStable(t.byCapacity[i], func(a, b int) bool {
			return capacity[i][t.byCapacity[i][a]] > capacity[i][t.byCapacity[i][b]]
		})
	}
	for flow := 0; flow < total; flow++ {
		if !t.augment() {
			return nil, false
		}
	}
	return t.x, true
}

// augment pushes one unit along a shortest augmenting path: a
// breadth-first search from rows with supply left, a row reaching column
// j through spare capacity, a column reaching row i back through flow
// already placed.
func (t *transportation) augment() bool {
	fromRow := make([]int, t.nc) // column -> row it was reached from
	fromCol := make([]int, t.nr) // row -> column it was reached from (-1: a start)
	seenRow := make([]bool, t.nr)
	seenCol := make([]bool, t.nc)
	var queue []int
	for i := range t.rowLeft {
		if t.rowLeft[i] > 0 {
			seenRow[i], fromCol[i] = true, -1
			queue = append(queue, i)
		}
	}
	end := -1
	for len(queue) > 0 && end < 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range t.byCapacity[i] {
			if seenCol[j] || t.x[i][j] >= t.capacity[i][j] {
				continue
			}
			seenCol[j], fromRow[j] = true, i
			if t.colLeft[j] > 0 {
				end = j
				break
			}
			for k := 0; k < t.nr; k++ {
				if !seenRow[k] && t.x[k][j] > 0 {
					seenRow[k], fromCol[k] = true, j
					queue = append(queue, k)
				}
			}
		}
	}
	if end < 0 {
		return false
	}
	// Push one unit back along the path.
	j := end
	t.colLeft[j]--
	for {
		i := fromRow[j]
		t.x[i][j]++
		prev := fromCol[i]
		if prev < 0 {
			t.rowLeft[i]--
			return true
		}
		t.x[i][prev]--
		j = prev
	}
}

// falseAlarm is the chance of failing a genuine release the position
// test allows.
const falseAlarm = 1e-9

// positionLink tests whether row order pairs nss.csv with ss.csv when no
// audit record pins ss.csv's rows (Section 5 publishes the two tables
// shuffled independently). allowed[i] lists the sensitive values the
// record behind nss.csv row i can have (nil: the row is not pinned);
// position i matches when ss.csv row i has nss.csv row i's class and one
// of those values. Independent shuffles put a uniformly random record at
// position i, which matches with probability p_i = sum over the allowed
// values v of count_c(v)/n (c the row's class, count_c(v) its ss.csv rows
// of value v); the matches number sum p_i on average, with variance about
// sum p_i(1-p_i). By Bernstein's inequality they exceed the mean by t
// with probability at most exp(-t^2/(2(var + t/3))): a count above the
// mean by the t that makes this 1e-9 fails (about 6.4 standard
// deviations when they are many, never less than 2 ln(1e9)/3, about 14,
// matches), and so does a match at every one of ten or more pinned
// positions (a ss.csv written in nss.csv's record order) unless every
// position is bound to match. The generator redraws a shuffle this test
// would fail. It returns the position link line.
func positionLink(nssOf []int, allowed [][]string, pinnedBy string, ss *model.Table, ssOf []int, cl *classes) verify.Line {
	n := ss.Rows
	sa := ss.Columns[1]
	matches, pinned := 0, 0
	mean, variance := 0.0, 0.0
	for i := 0; i < len(allowed) && i < n; i++ {
		c := nssOf[i]
		if allowed[i] == nil || c < 0 {
			continue
		}
		pinned++
		in := 0
		for _, v := range allowed[i] {
			in += cl.counts[c][v]
		}
		p := float64(in) / float64(n)
		mean += p
		variance += p * (1 - p)
		if ssOf[i] == c && slices.Contains(allowed[i], sa.Value(i)) {
			matches++
		}
	}
	limit := math.Log(1 / falseAlarm)
	t := limit/3 + math.Sqrt(limit*limit/9+2*limit*variance)
	everyOne := pinned >= 10 && matches == pinned && mean < float64(pinned)-1e-9
	linked := float64(matches) > mean+t || everyOne
	return verify.Line{OK: !linked, Name: "position link", Text: fmt.Sprintf("row i of ss.csv has the class and a sensitive value of the record behind row i of nss.csv at %d of the %d positions whose record %s; independent shuffles give %.1f, standard deviation %.1f, and more than %.1f, or all of ten or more, is a link",
		matches, pinned, pinnedBy, mean, math.Sqrt(variance), mean+t)}
}
