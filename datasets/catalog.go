package datasets

import (
	"privlab/model"
	"privlab/model/hierarchy"
)

// Catalog gives the pipeline access to the embedded datasets (it
// implements pipeline.Datasets without this package importing it).
type Catalog struct{}

// LoadTable generates or reads dataset name.
func (Catalog) LoadTable(name string, rows int, seed uint64) (*model.Table, error) {
	d, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return d.Load(rows, seed)
}

// DefaultHierarchy is the dataset's hierarchy spec for a column.
func (Catalog) DefaultHierarchy(name, column string) string {
	d, err := Lookup(name)
	if err != nil {
		return ""
	}
	return d.Hierarchies[column]
}

// LoadHierarchy builds a column's hierarchy from a dataset spec
// (including embedded files).
func (Catalog) LoadHierarchy(name, spec string, col *model.Column) (*hierarchy.Hierarchy, error) {
	d, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	dd := d
	dd.Hierarchies = map[string]string{col.Name: spec}
	return dd.Hierarchy(col)
}

// Defaults returns the dataset's default roles (methods declare the
// parameter values that suit a dataset, method.Spec.ForDataset).
func (Catalog) Defaults(name string) (model.Roles, bool) {
	d, err := Lookup(name)
	if err != nil {
		return model.Roles{}, false
	}
	return d.Roles, true
}

// List describes every dataset, in menu order.
func (Catalog) List() []model.DatasetInfo {
	var out []model.DatasetInfo
	for _, d := range All() {
		out = append(out, model.DatasetInfo{Name: d.Name, Title: d.Title, Source: d.Source, DefaultRows: d.DefaultRows, Generated: !d.Fixed})
	}
	return out
}
