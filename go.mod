module privlab

go 1.26.8
