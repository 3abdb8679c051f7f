package check

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"privlab/algorithms/kja/format"
	"slices"
	"sort"
	"strconv"
	"strings"

	"privlab/algorithms/risk"
	"privlab/algorithms/verify"
	"privlab/model"
)

// Expose is what a k-join-anonymity release shows an attacker beyond its
// view (risk.Exposure): a person lies in every box whose sides hold their
// values (numbers by value, categories by their order in the release's
// domain); the method claims every box holds at least k distinct people
// (Sacharidis et al., Definition 6 and Theorem 2: breach probability at
// most 1/k), which an attacker who holds the population can count. It
// does not bound the belief in a sensitive value (Section 3.2 makes
// sensitive groups of at least k, and k-anonymity does not prevent
// homogeneity) nor presence: a box of plain k-anonymity holds microdata
// tuples only, and where boxes mix the public database's people with the
// microdata's, si.csv still counts each sensitive group's microdata
// tuples among the people its boxes cover (Exposure.PoolsOf).
func Expose(rel *verify.Release, v *risk.View) (*risk.Exposure, error) {
	m := rel.Manifest
	man := filepath.Join(rel.Dir, "manifest.json")
	det, err := format.Read(m)
	if err != nil {
		return nil, err
	}
	axes, err := readDomain(man, m, det)
	if err != nil {
		return nil, err
	}
	e := &risk.Exposure{
		Unit:            "box",
		PosteriorBy:     "k-anonymity does not prevent homogeneity: Section 3.2 only makes every sensitive group hold at least k microdata tuples",
		Presence:        math.NaN(),
		PresenceBy:      "k-anonymity does not hide who is in the microdata",
		PublishesPublic: det.PublicRows > 0,
		JoinColumns:     det.Join,
	}
	if e.PublishesPublic {
		e.PresenceBy = "k-anonymity does not hide who is in the microdata: a box mixes the public database's people with the microdata's, and si.csv counts each sensitive group's microdata tuples (Sacharidis et al., Sections 3.1-3.2)"
		if e.PoolsOf, e.PoolRecords, err = pools(rel, v); err != nil {
			return nil, err
		}
	}
	if k, err := strconv.Atoi(format.ParamK.Text(m.Parameters)); err == nil {
		e.K = k
		e.KBy = fmt.Sprintf("k = %d: every box holds at least k distinct people of the join table (Sacharidis et al., Theorem 2: breach probability at most 1/k)", k)
	}
	for i, cells := range v.Cells {
		e.Cover = append(e.Cover, axes[i].cover(cells))
	}
	return e, nil
}

// cover covers a raw value by every box side [lo, hi] that holds it (a
// cell reads "lo" or "lo..hi", as the view writes it).
func (a *axis) cover(cells []string) func(raw []string) [][]uint32 {
	type side struct {
		lo, hi float64
		code   uint32
	}
	var sides []side
	for c, s := range cells {
		lo, hi, ok := strings.Cut(s, "..")
		if !ok {
			hi = lo
		}
		x, ok1 := a.value(lo)
		y, ok2 := a.value(hi)
		if ok1 && ok2 {
			sides = append(sides, side{x, y, uint32(c)})
		}
	}
	return func(raw []string) [][]uint32 {
		type point struct {
			x float64
			i int
		}
		var pts []point
		for i, s := range raw {
			if x, ok := a.value(strings.TrimSpace(s)); ok {
				pts = append(pts, point{x, i})
			}
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
		out := make([][]uint32, len(raw))
		for _, sd := range sides {
			from := sort.Search(len(pts), func(j int) bool { return pts[j].x >= sd.lo })
			for j := from; j < len(pts) && pts[j].x <= sd.hi; j++ {
				out[pts[j].i] = append(out[pts[j].i], sd.code)
			}
		}
		return out
	}
}

// pools are the sensitive groups as membership reads them: the box of a
// jat.csv row lies in the row's group, and a group holds as many
// microdata tuples as si.csv has rows of it (Sacharidis et al., Section
// 3.2: each microdata tuple of a group is published once in si.csv).
func pools(rel *verify.Release, v *risk.View) ([][]int32, []int, error) {
	jat, err := rel.Table(format.FileJAT)
	if err != nil {
		return nil, nil, err
	}
	si, err := rel.Table(format.FileSI)
	if err != nil {
		return nil, nil, err
	}
	code := make([]map[string]uint32, len(v.Cells))
	for i, cells := range v.Cells {
		code[i] = make(map[string]uint32, len(cells))
		for c, s := range cells {
			code[i][s] = uint32(c)
		}
	}
	regionOf := make(map[string]int32, len(v.Regions))
	for r, reg := range v.Regions {
		regionOf[cellKey(reg.Cells)] = int32(r)
	}
	sg := jat.Columns[1]
	poolOf := map[string]int32{}
	of := make([][]int32, len(v.Regions))
	cells := make([]uint32, len(v.Cells))
	for row := 0; row < jat.Rows; row++ {
		for i := range cells {
			lo, hi := jat.Columns[2+2*i].Value(row), jat.Columns[3+2*i].Value(row)
			if hi != lo {
				lo += ".." + hi
			}
			cells[i] = code[i][lo]
		}
		r, ok := regionOf[cellKey(cells)]
		if !ok {
			return nil, nil, &model.InputError{File: filepath.Join(rel.Dir, format.FileJAT), Line: row + 2, Msg: "the box is not one the release's view reads"}
		}
		j, ok := poolOf[sg.Value(row)]
		if !ok {
			j = int32(len(poolOf))
			poolOf[sg.Value(row)] = j
		}
		if !slices.Contains(of[r], j) {
			of[r] = append(of[r], j)
		}
	}
	records := make([]int, len(poolOf))
	for row := 0; row < si.Rows; row++ {
		if j, ok := poolOf[si.Columns[0].Value(row)]; ok {
			records[j]++
		}
	}
	return of, records, nil
}

func cellKey(cells []uint32) string {
	b := make([]byte, 4*len(cells))
	for i, c := range cells {
		binary.LittleEndian.PutUint32(b[4*i:], c)
	}
	return string(b)
}
