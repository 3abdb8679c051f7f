package datasets

import "privlab/model"

// employees is the employee table of Koudas, Srivastava, Yu, Zhang 2009,
// Figure 1, with salaries written out ($30K -> 30000). Its salary hierarchy
// is the balanced binary tree of Figure 3 and its zipcode hierarchy masks
// digits, so 91110 is 911** two levels up (the grouping of Section 1).
func employees() Dataset {
	return Dataset{
		Name:        "employees",
		Title:       "employee records: the worked example of distribution-based anonymization",
		Source:      "Koudas, Srivastava, Yu, Zhang 2009, Figure 1",
		Fixed:       true,
		DefaultRows: 11,
		Columns:     []string{"name", "zipcode", "gender", "salary"},
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"zipcode", "gender"}, SA: "salary"},
		Hierarchies: map[string]string{"name": "flat", "zipcode": "masking", "gender": "flat", "salary": "binary"},
		table:       "employees.csv",
	}
}

// patients is the microdata of Hui Wang's ambiguity paper, Figure 1(a).
// Figure 1(b) generalizes age and zipcode to ranges of the values present;
// the default hierarchies are balanced binary trees over the sorted values,
// whose root for age is 20-60, the paper's [20, 60].
func patients() Dataset {
	return Dataset{
		Name:        "patients",
		Title:       "patient records: the worked example of the ambiguity scheme",
		Source:      "Hui Wang, Ambiguity, Figure 1(a)",
		Fixed:       true,
		DefaultRows: 8,
		Columns:     []string{"name", "age", "gender", "zipcode", "disease"},
		Roles:       model.Roles{IDs: []string{"name"}, QIs: []string{"age", "gender", "zipcode"}, SA: "disease"},
		Hierarchies: map[string]string{"name": "flat", "age": "binary", "gender": "flat", "zipcode": "binary", "disease": "flat"},
		table:       "patients.csv",
	}
}

// jobs is the raw medical data set of Wong et al., (alpha,k)-anonymity by
// lossy join, Table 1. Row 2's job is printed "manger" in the paper; it is
// "manager" here, as in the paper's Figure 1 hierarchy and its text. The job
// hierarchy is Figure 1 (white-collar: clerk, manager; blue-collar: factory
// worker, technical supporter).
func jobs() Dataset {
	return Dataset{
		Name:        "jobs",
		Title:       "medical records: the worked example of (alpha,k)-anonymity by lossy join",
		Source:      "Wong et al., (alpha,k)-anonymity by lossy join, Table 1",
		Fixed:       true,
		DefaultRows: 6,
		Columns:     []string{"job", "birth", "postcode", "illness"},
		Roles:       model.Roles{QIs: []string{"job", "birth", "postcode"}, SA: "illness"},
		Hierarchies: map[string]string{"job": "embedded:job.csv", "birth": "flat", "postcode": "flat", "illness": "flat"},
		table:       "jobs.csv",
	}
}
