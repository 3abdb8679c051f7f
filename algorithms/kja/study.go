package kja

import (
	"context"

	"privlab/algorithms/method"
)

func study(ctx context.Context, lab *method.Lab) ([]method.Section, error) {
	return nil, nil
}
