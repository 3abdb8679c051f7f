package datasets

import (
	"bufio"
	"strconv"
	"sync"

	"privlab/model"
)

// census is an Adult-like generator. Rows are drawn from a chain of
// conditional frequency tables counted on UCI Adult (census_tables.go), so
// the marginals match Adult's and the main correlations are kept:
//
//	sex -> age -> marital-status (age group, sex) -> relationship (marital, sex)
//	education (age group, sex) -> occupation (education, sex) -> workclass
//	race -> native-country; hours-per-week (age group, sex)
//	salary-class (education, married) -> capital-loss (salary-class)
//
// capital-loss is 0 in about 95% of rows, otherwise one of Adult's 89
// non-zero values (of the 30,162 rows without "?").
func census() Dataset {
	return Dataset{
		Name:        "census",
		Title:       "Adult-like census microdata (synthetic, UCI Adult marginals)",
		Source:      "Becker & Kohavi (1996), UCI Adult; as used by Koudas et al. 2009, Section 6",
		DefaultRows: 10000,
		Columns: []string{"age", "workclass", "education", "marital-status", "occupation", "relationship",
			"race", "sex", "native-country", "hours-per-week", "salary-class", "capital-loss"},
		Roles: model.Roles{
			QIs: []string{"age", "workclass", "education", "marital-status", "race", "sex", "native-country"},
			SA:  "capital-loss",
		},
		Hierarchies: map[string]string{
			"age":            "intervals:5,10,20",
			"workclass":      "embedded:workclass.csv",
			"education":      "embedded:education.csv",
			"marital-status": "embedded:marital-status.csv",
			"occupation":     "embedded:occupation.csv",
			"relationship":   "flat",
			"race":           "flat",
			"sex":            "flat",
			"native-country": "embedded:native-country.csv",
			"hours-per-week": "intervals:5,10,20",
			"salary-class":   "flat",
			"capital-loss":   "binary",
		},
		gen: writeCensus,
	}
}

// ageGroupUpper are the upper ends of the age groups conditional tables use.
var ageGroupUpper = []int{19, 24, 29, 39, 49, 64, 999}

// hoursBandUpper are the upper ends of the hours-per-week bands.
var hoursBandUpper = []int{19, 29, 39, 40, 49, 59, 99}

func group(v int, upper []int) int {
	for i, u := range upper {
		if v <= u {
			return i
		}
	}
	return len(upper) - 1
}

// censusModel holds the samplers built from the tables.
type censusModel struct {
	sex, race   sampler
	age         []sampler   // [sex]
	marital     [][]sampler // [age group][sex]
	relation    [][]sampler // [marital][sex]
	education   [][]sampler // [age group][sex]
	occupation  [][]sampler // [education][sex]
	workclass   []sampler   // [occupation]
	country     []sampler   // [race]
	hoursBand   [][]sampler // [age group][sex]
	hours       []sampler   // [band] over hoursInBand[band]
	hoursInBand [][]int     // [band] -> indexes into hoursValues
	salary      [][]sampler // [education][married]
	loss        []sampler   // [salary-class]: 0 is capital-loss 0, i is capitalLossValues[i-1]
	ageText     []string    // ageValues as text
	hoursText   []string    // hoursValues as text
	lossText    []string    // "0" then capitalLossValues as text
	married     []bool      // [marital]: married in the sense of salaryCounts
}

var censusOnce = sync.OnceValue(buildCensus)

func buildCensus() *censusModel {
	m := &censusModel{}
	m.sex = newSampler(sexCounts, nil)
	m.race = newSampler(raceCounts, nil)
	ageMarg := colSums(ageCounts)
	for _, c := range ageCounts {
		m.age = append(m.age, newSampler(c, ageMarg))
	}
	m.marital = table3(maritalCounts)
	m.relation = table3(relationshipCounts)
	m.education = table3(educationCounts)
	m.occupation = table3(occupationCounts)
	m.hoursBand = table3(hoursBandCounts)
	m.salary = table3(salaryCounts)
	wcMarg := colSums(workclassCounts)
	for _, c := range workclassCounts {
		m.workclass = append(m.workclass, newSampler(c, wcMarg))
	}
	ctyMarg := colSums(countryCounts)
	for _, c := range countryCounts {
		m.country = append(m.country, newSampler(c, ctyMarg))
	}
	m.hoursInBand = make([][]int, len(hoursBandUpper))
	for i, h := range hoursValues {
		b := group(h, hoursBandUpper)
		m.hoursInBand[b] = append(m.hoursInBand[b], i)
	}
	for _, idx := range m.hoursInBand {
		w := make([]int, len(idx))
		for j, i := range idx {
			w[j] = hoursCounts[i]
		}
		m.hours = append(m.hours, newSampler(w, nil))
	}
	lossMarg := append([]int{sum(capitalLossZero)}, colSums(capitalLossCounts)...)
	for s := range capitalLossCounts {
		m.loss = append(m.loss, newSampler(append([]int{capitalLossZero[s]}, capitalLossCounts[s]...), lossMarg))
	}
	for _, v := range maritalValues {
		m.married = append(m.married, v == "Married-civ-spouse" || v == "Married-AF-spouse")
	}
	for _, v := range ageValues {
		m.ageText = append(m.ageText, strconv.Itoa(v))
	}
	for _, v := range hoursValues {
		m.hoursText = append(m.hoursText, strconv.Itoa(v))
	}
	m.lossText = []string{"0"}
	for _, v := range capitalLossValues {
		m.lossText = append(m.lossText, strconv.Itoa(v))
	}
	return m
}

// table3 turns counts[a][b][v] into samplers over v, falling back to the
// marginal of v for an empty cell.
func table3(counts [][][]int) [][]sampler {
	var flat [][]int
	for _, a := range counts {
		flat = append(flat, a...)
	}
	marg := colSums(flat)
	out := make([][]sampler, len(counts))
	for i, a := range counts {
		for _, c := range a {
			out[i] = append(out[i], newSampler(c, marg))
		}
	}
	return out
}

// colSums adds up rows of equal length.
func colSums(rows [][]int) []int {
	out := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, v := range r {
			out[i] += v
		}
	}
	return out
}

func writeCensus(w *bufio.Writer, rows int, seed uint64) error {
	m := censusOnce()
	r := model.NewRand(seed)
	for i := 0; i < rows; i++ {
		sex := m.sex.draw(r)
		ai := m.age[sex].draw(r)
		ag := group(ageValues[ai], ageGroupUpper)
		mar := m.marital[ag][sex].draw(r)
		rel := m.relation[mar][sex].draw(r)
		edu := m.education[ag][sex].draw(r)
		occ := m.occupation[edu][sex].draw(r)
		wc := m.workclass[occ].draw(r)
		race := m.race.draw(r)
		cty := m.country[race].draw(r)
		band := m.hoursBand[ag][sex].draw(r)
		hrs := m.hoursInBand[band][m.hours[band].draw(r)]
		married := 0
		if m.married[mar] {
			married = 1
		}
		sal := m.salary[edu][married].draw(r)
		loss := m.loss[sal].draw(r)

		w.WriteString(m.ageText[ai])
		w.WriteByte(',')
		w.WriteString(workclassValues[wc])
		w.WriteByte(',')
		w.WriteString(educationValues[edu])
		w.WriteByte(',')
		w.WriteString(maritalValues[mar])
		w.WriteByte(',')
		w.WriteString(occupationValues[occ])
		w.WriteByte(',')
		w.WriteString(relationshipValues[rel])
		w.WriteByte(',')
		w.WriteString(raceValues[race])
		w.WriteByte(',')
		w.WriteString(sexValues[sex])
		w.WriteByte(',')
		w.WriteString(countryValues[cty])
		w.WriteByte(',')
		w.WriteString(m.hoursText[hrs])
		w.WriteByte(',')
		w.WriteString(salaryValues[sal])
		w.WriteByte(',')
		w.WriteString(m.lossText[loss])
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}
