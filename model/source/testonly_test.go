package source

import (
	"context"

	"privlab/model"
	"privlab/model/csvfile"
)

// Load reads the table a spec names (see the package comment). Errors
// are *model.InputError naming the file (and sheet or table), the row and
// the column, or *model.ParamError for an option that does not fit the
// format; no table is returned with an error.
func Load(spec string, opt csvfile.LoadOptions) (*model.Table, error) {
	return load(context.Background(), spec, opt, 0)
}
